// CK25 (TEXT2SPARQL'25 corporate track) for pipeline tests and the pipeline bench: where the data is, the KG profile,
// the scripted-reply fixture and the official gold answers (flattened: every value is a key; ASK is {"true": 1|0}).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { KgSpec } from "@/lib/kg/open-kg";
import type { TurnResult } from "@/lib/pipeline/types";
import { readJson, roleRepliesSchema } from "./fixture-replies";

/** The shared data lives beside the checkout (/work/shared next to /work/main); data stays there, we take paths. */
export function ck25Paths(rootDir = process.cwd()) {
  const dir = path.resolve(rootDir, "../shared/data/ck25");
  return {
    dir,
    graph: path.join(dir, "graphs/prod-inst.ttl"),
    gold: path.resolve(rootDir, "../shared/data/text2sparql25/docs/benchmark/ck25_true_result_set.json"),
    fixture: path.resolve(rootDir, "test/fixtures/ck25/replies.json"),
  };
}

/** Why CK25 cannot be used here, or undefined when the graph and the gold answers are present. */
export function ck25Missing(rootDir = process.cwd()): string | undefined {
  const p = ck25Paths(rootDir);
  if (!existsSync(p.graph)) return `CK25 data not found at ${p.dir} (expected graphs/prod-inst.ttl)`;
  if (!existsSync(p.gold)) return `CK25 gold answers not found at ${p.gold}`;
  return undefined;
}

/**
 * Every CK25 instance has an rdfs:label (employees "Karen Brant", products "M558-2275045 - Sensor Switch"), and most
 * also a pv:name. Only rdfs:label is a label predicate: pv:name stays an ordinary predicate, so questions such as
 * "What is the name of …?" can still be answered with it (label predicates are hidden from relation linking).
 */
export function ck25KgSpec(rootDir = process.cwd()): KgSpec {
  return {
    kind: "files",
    paths: [ck25Paths(rootDir).graph],
    profile: {
      labelPredicates: ["http://www.w3.org/2000/01/rdf-schema#label"],
      language: "en",
      typePredicates: ["http://www.w3.org/1999/02/22-rdf-syntax-ns#type"],
      descriptionPredicates: [],
      prefixes: { pv: "http://ld.company.org/prod-vocab/", prodi: "http://ld.company.org/prod-instances/" },
    },
  };
}

export const ck25QuestionSchema = z.object({ id: z.number().int(), kind: z.string(), question: z.string(), replies: roleRepliesSchema });
export type Ck25Question = z.infer<typeof ck25QuestionSchema>;

export function loadCk25Fixture(rootDir = process.cwd()): Ck25Question[] {
  return readJson(ck25Paths(rootDir).fixture, z.object({ questions: z.array(ck25QuestionSchema).min(1) })).questions;
}

export type GoldAnswer = { kind: "boolean"; value: boolean } | { kind: "count"; count: number } | { kind: "set"; iris: string[]; literals: string[] };

/** The official answer set of question `id`, read back from the flattened form. `count` says the gold query is a COUNT. */
export function loadGold(id: number, count: boolean, rootDir = process.cwd()): GoldAnswer {
  const all = JSON.parse(readFileSync(ck25Paths(rootDir).gold, "utf8")) as Record<string, Record<string, number>>;
  const entry = all[`ck25:${id}-en`];
  if (!entry) throw new Error(`no gold answer for ck25:${id}-en`);
  const keys = Object.keys(entry);
  if (keys.length === 1 && keys[0] === "true" && (entry.true === 0 || entry.true === 1)) return { kind: "boolean", value: entry.true === 1 };
  if (count) {
    if (keys.length !== 1 || !Number.isFinite(Number(keys[0]))) throw new Error(`gold of ck25:${id}-en is not one number`);
    return { kind: "count", count: Number(keys[0]) };
  }
  const isIri = (k: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(k);
  return { kind: "set", iris: keys.filter(isIri).sort(), literals: keys.filter((k) => !isIri(k)).sort() };
}

/** The pipeline's answer in the gold's terms: IRIs as IRIs, literals by their lexical value, counts as numbers. */
export function answerAsGold(result: TurnResult): GoldAnswer | { kind: "other"; what: string } {
  const a = result.answer;
  if (a.kind === "boolean") return { kind: "boolean", value: a.value };
  if (a.kind === "count") return { kind: "count", count: a.count };
  if (a.kind === "items") {
    return {
      kind: "set",
      iris: [...new Set(a.items.filter((i) => i.type === "uri").map((i) => i.value))].sort(),
      literals: [...new Set(a.items.filter((i) => i.type === "literal").map((i) => i.value))].sort(),
    };
  }
  return { kind: "other", what: a.kind === "none" ? `none (${a.reason})` : a.kind };
}
