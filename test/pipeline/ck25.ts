// CK25 (TEXT2SPARQL'25 corporate track) for pipeline tests and the pipeline bench: where the data is, the KG profile,
// the scripted-reply fixture and the official gold answers (flattened: every value is a key; ASK is {"true": 1|0}).
import { readFileSync } from "node:fs";
import type { TurnResult } from "@/lib/pipeline/types";
import { ck25Paths } from "@/lib/eval/ck25-scripted";

// paths, KG spec and fixture loading moved to lib/eval/ck25-scripted (shared with scripts/bench); re-exported for the tests
export { ck25KgSpec, ck25Missing, ck25Paths, ck25QuestionSchema, loadCk25Fixture, type Ck25Question } from "@/lib/eval/ck25-scripted";

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
  // items, or every cell of a table (the official gold flattens all variables)
  const items = a.kind === "items" ? a.items : a.kind === "table" ? a.rows.flat().filter((c): c is NonNullable<typeof c> => c !== null) : undefined;
  if (items) {
    return {
      kind: "set",
      iris: [...new Set(items.filter((i) => i.type === "uri").map((i) => i.value))].sort(),
      literals: [...new Set(items.filter((i) => i.type === "literal").map((i) => i.value))].sort(),
    };
  }
  return { kind: "other", what: a.kind === "none" ? `none (${a.reason})` : a.kind };
}
