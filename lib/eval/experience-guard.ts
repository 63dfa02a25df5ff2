// The experience pool as a benchmark run may use it: never the question being asked (same item, or the same question
// in any of its languages), and, with excludeTestSplit, nothing of this run's items nor anything imported as split "test".
import type { ExperienceExample, ExperienceSource } from "@/lib/pipeline/types";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import type { BenchmarkItem } from "./types";

/** An entry of the pool with where it came from (lib/db/queries.ts ExperienceRecord). */
export interface PoolEntry extends ExperienceExample {
  dataset: string | null;
  itemId: string | null;
  split: string | null;
}

export interface LeakageGuard {
  /** the run's dataset name as entries were imported under it (e.g. "ck25") */
  dataset: string;
  /** every item of the run */
  items: readonly BenchmarkItem[];
  /** also leave out every item of this run and every entry imported as split "test" */
  excludeTestSplit: boolean;
}

function questionsOf(item: BenchmarkItem): string[] {
  return [item.question, item.standalone, ...Object.values(item.questions ?? {})].filter((q): q is string => !!q).map(normalizeLabel);
}

/** An imported language version's item id ("ck25:10-de", poolItemsOf) is its item's id ("ck25:10"). */
const LANGUAGE_SUFFIX = /-[a-z]{2}(_[A-Z]{2})?$/;

/** The entries a run may show when asking `item`. */
export function allowedEntries(item: BenchmarkItem, pool: readonly PoolEntry[], guard: LeakageGuard): PoolEntry[] {
  const own = new Set(questionsOf(item));
  // an item asked in one language (--question-lang: id "ck25:10-de") is the same item as its other imported versions
  const ids = new Set((guard.excludeTestSplit ? guard.items.map((i) => i.id) : [item.id]).map((id) => id.replace(LANGUAGE_SUFFIX, "")));
  const texts = guard.excludeTestSplit ? new Set(guard.items.flatMap(questionsOf)) : own;
  return pool.filter((e) => {
    if (e.dataset === guard.dataset && e.itemId !== null && ids.has(e.itemId.replace(LANGUAGE_SUFFIX, ""))) return false;
    if (texts.has(normalizeLabel(e.question))) return false;
    if (guard.excludeTestSplit && e.split === "test") return false;
    return true;
  });
}

/** A per-question source over a pool read once for the run. */
export function guardedSource(item: BenchmarkItem, pool: readonly PoolEntry[], guard: LeakageGuard): ExperienceSource {
  const allowed = allowedEntries(item, pool, guard).map(({ id, question, sparql, source }) => ({ id, question, sparql, source }));
  return { examples: async () => allowed };
}

/**
 * A benchmark's items as pool entries: every language of a multilingual item is its own solved question (the same
 * query), with the item id suffixed by the language ("ck25:10-de"); items without gold SPARQL are left out.
 */
export function poolItemsOf(items: readonly BenchmarkItem[]): { itemId: string; question: string; sparql: string }[] {
  return items.flatMap((i) => {
    if (!i.goldSparql) return [];
    const byLanguage = Object.entries(i.questions ?? {}).filter(([, q]) => q.trim());
    if (byLanguage.length <= 1) return [{ itemId: i.id, question: i.standalone ?? i.question, sparql: i.goldSparql }];
    return byLanguage.map(([lang, q]) => ({ itemId: `${i.id}-${lang}`, question: q, sparql: i.goldSparql! }));
  });
}
