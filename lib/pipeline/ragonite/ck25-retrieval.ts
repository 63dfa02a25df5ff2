// Retrieval check on CK25 (used by the retrieval test): for each question whose official gold is one entity or
// literal (not a count or yes/no), is a passage that states that value among the top k of search_facts for the
// question text? Prints recall@k. Test data only: the strategy never reads questions or gold.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { ck25Paths } from "@/lib/eval/ck25-scripted";
import { resourceKey } from "./kg-facts";
import type { PassageIndex } from "./passage-index";

export interface RetrievalCase {
  id: number;
  question: string;
  gold: string;
  hit: boolean;
  /** 1-based rank of the first passage stating the gold, if within k */
  rank?: number;
}

export function ck25SingleValueQuestions(): { id: number; question: string; gold: string }[] {
  const doc = parse(readFileSync(`${ck25Paths().dir}/questions.yml`, "utf8")) as { questions: { id: number; question: { en: string }; features: string[] }[] };
  const gold = JSON.parse(readFileSync(ck25Paths().gold, "utf8")) as Record<string, Record<string, number>>;
  return doc.questions.flatMap((q) => {
    const keys = Object.keys(gold[`ck25:${q.id}-en`] ?? {});
    if (keys.length !== 1 || q.features.includes("ASK") || q.features.includes("COUNT")) return [];
    return [{ id: q.id, question: q.question.en, gold: keys[0] }];
  });
}

export async function recallAtK(index: PassageIndex, k: number): Promise<{ cases: RetrievalCase[]; recall: number }> {
  const cases: RetrievalCase[] = [];
  for (const q of ck25SingleValueQuestions()) {
    const hits = await index.search(q.question, k);
    const at = hits.findIndex((h) => h.passage.facts.some((t) => [resourceKey(t.s), resourceKey(t.o) ?? t.o.value].includes(q.gold)));
    cases.push({ ...q, hit: at >= 0, ...(at >= 0 ? { rank: at + 1 } : {}) });
  }
  return { cases, recall: cases.length ? cases.filter((c) => c.hit).length / cases.length : 0 };
}
