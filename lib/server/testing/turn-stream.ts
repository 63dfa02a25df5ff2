// Test helpers: the chunks of a turn runner's stream, read to the end, and the turn's outcome and events among them.
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";

export type Chunk = { type: string; data?: unknown };

export async function readAll(stream: ReadableStream): Promise<Chunk[]> {
  const out: Chunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value as Chunk);
  }
}

/** The "data-result" chunk: the stored status and the result shown. */
export const resultOf = (chunks: Chunk[]) => chunks.find((c) => c.type === "data-result")!.data as { status: string; result: TurnResult };

/** The derivation events streamed, in order. */
export const eventsOf = (chunks: Chunk[]) => chunks.filter((c) => c.type === "data-event").map((c) => c.data as DerivationEvent);
