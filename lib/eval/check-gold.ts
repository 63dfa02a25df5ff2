// `--check-gold`: recompute every gold answer on the KG and compare it with an official flattened result set.
import { toAppError } from "@/lib/errors";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { computeGold, flattenGold, sameFlat, type FlatResult } from "./gold";
import type { BenchmarkItem } from "./types";

export interface GoldCheck {
  id: string;
  ok: boolean;
  /** keys only in the official set / only in ours (at most 5 each) */
  missing: string[];
  extra: string[];
  officialSize: number;
  computedSize: number;
  error?: string;
}

export interface GoldCheckReport {
  reproduced: number;
  total: number;
  checks: GoldCheck[];
}

export async function checkGold(
  kg: KnowledgeGraph,
  items: BenchmarkItem[],
  official: Map<string, { flat: FlatResult }>,
  options: { timeoutMs?: number } = {},
): Promise<GoldCheckReport> {
  const checks: GoldCheck[] = [];
  for (const item of items) {
    const want = official.get(item.id)?.flat;
    if (!want || !item.goldSparql) {
      checks.push({ id: item.id, ok: false, missing: [], extra: [], officialSize: 0, computedSize: 0, error: !want ? "not in the official file" : "no gold SPARQL" });
      continue;
    }
    try {
      const got = flattenGold(await computeGold(kg, item.goldSparql, options));
      checks.push({
        id: item.id,
        ok: sameFlat(got, want),
        missing: Object.keys(want).filter((k) => !(k in got)).slice(0, 5),
        extra: Object.keys(got).filter((k) => !(k in want)).slice(0, 5),
        officialSize: Object.keys(want).length,
        computedSize: Object.keys(got).length,
      });
    } catch (e) {
      checks.push({ id: item.id, ok: false, missing: [], extra: [], officialSize: Object.keys(want).length, computedSize: 0, error: toAppError(e).message });
    }
  }
  return { reproduced: checks.filter((c) => c.ok).length, total: items.length, checks };
}
