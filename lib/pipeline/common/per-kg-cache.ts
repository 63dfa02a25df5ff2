// A value built once per KG object (schema summaries, indexes), shared by concurrent turns; a failed or cancelled build
// is not kept, so the next turn tries again. A WeakMap: a closed, dropped KG takes its value with it.
import type { KnowledgeGraph } from "@/lib/kg/types";

export type PerKgCache<T> = WeakMap<KnowledgeGraph, Promise<T>>;

/** The cached value for `kg`, or `build()`'s (then cached); `cached` says which. */
export async function cachedPerKg<T>(cache: PerKgCache<T>, kg: KnowledgeGraph, signal: AbortSignal | undefined, build: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
  const existing = cache.get(kg);
  if (existing) {
    try {
      return { value: await existing, cached: true };
    } catch (e) {
      // another turn's build failed or was cancelled: build it here (unless this turn is cancelled too)
      if (signal?.aborted) throw e;
    }
  }
  const building = build();
  cache.set(kg, building);
  try {
    return { value: await building, cached: false };
  } catch (e) {
    if (cache.get(kg) === building) cache.delete(kg);
    throw e;
  }
}
