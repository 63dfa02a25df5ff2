// RAGONITE's retrieval recall (lib/pipeline/ragonite/retrieval.test.ts prints it on CK25 and the music KG): for each gold
// question whose answer is one entity or literal (not a count or yes/no), is a passage that states that value among the
// top k of search_facts for the question text? Evaluation only: the strategy never reads questions or gold.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { ck25Paths } from "./ck25-scripted";
import { readJsonl } from "./datasets/jsonl";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { resourceKey } from "@/lib/pipeline/ragonite/kg-facts";
import type { PassageIndex } from "@/lib/pipeline/ragonite/passage-index";

export interface GoldQuestion {
  id: string;
  question: string;
  /** an IRI, or a literal's text */
  gold: string;
}

export interface RetrievalCase extends GoldQuestion {
  hit: boolean;
  /** 1-based rank of the first passage stating the gold, if within k */
  rank?: number;
}

export function ck25SingleValueQuestions(): GoldQuestion[] {
  const doc = parse(readFileSync(`${ck25Paths().dir}/questions.yml`, "utf8")) as { questions: { id: number; question: { en: string }; features: string[] }[] };
  const gold = JSON.parse(readFileSync(ck25Paths().gold, "utf8")) as Record<string, Record<string, number>>;
  return doc.questions.flatMap((q) => {
    const keys = Object.keys(gold[`ck25:${q.id}-en`] ?? {});
    if (keys.length !== 1 || q.features.includes("ASK") || q.features.includes("COUNT")) return [];
    return [{ id: String(q.id), question: q.question.en, gold: keys[0] }];
  });
}

/** Questions of a JSONL gold file whose gold SPARQL, run on the KG, selects one value (dialogue follow-ups, which
 *  need their context, and counts or aggregates are left out). */
export async function jsonlSingleValueQuestions(kg: KnowledgeGraph, file: string): Promise<GoldQuestion[]> {
  const out: GoldQuestion[] = [];
  for (const item of readJsonl(file)) {
    if (!item.goldSparql || (item.turn ?? 0) > 0 || item.features?.some((f) => ["count", "aggregate", "ask"].includes(f))) continue;
    const result = await kg.select(item.goldSparql);
    const values = new Set(result.results.bindings.flatMap((b) => Object.values(b).map((t) => resourceKey(t) ?? t.value)));
    if (result.results.bindings.length === 1 && values.size === 1) out.push({ id: item.id, question: item.question, gold: [...values][0] });
  }
  return out;
}

export async function recallAtK(index: PassageIndex, questions: GoldQuestion[], k: number): Promise<{ cases: RetrievalCase[]; recall: number }> {
  const cases: RetrievalCase[] = [];
  for (const q of questions) {
    const hits = await index.search(q.question, k);
    const at = hits.findIndex((h) => h.passage.facts.some((t) => [resourceKey(t.s), resourceKey(t.o) ?? t.o.value].includes(q.gold)));
    cases.push({ ...q, hit: at >= 0, ...(at >= 0 ? { rank: at + 1 } : {}) });
  }
  return { cases, recall: cases.length ? cases.filter((c) => c.hit).length / cases.length : 0 };
}
