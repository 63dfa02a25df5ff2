// Gold answers: from raw SPARQL JSON results, by running the gold query on the KG, and in TEXT2SPARQL's flattened format.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { KnowledgeGraph, QueryResult } from "@/lib/kg/types";
import type { AnswerItem } from "@/lib/pipeline/types";
import type { GoldAnswer } from "./types";

/** A SPARQL 1.1 JSON result as datasets store it (Virtuoso's "typed-literal" included). */
export const sparqlJsonSchema = z.union([
  z.object({ head: z.unknown().optional(), boolean: z.boolean() }),
  z.object({
    head: z.object({ vars: z.array(z.string()).optional() }).loose().optional(),
    results: z.object({
      bindings: z.array(
        z.record(
          z.string(),
          z.object({ type: z.string(), value: z.string(), datatype: z.string().optional(), "xml:lang": z.string().optional() }).loose(),
        ),
      )
      // why: QALD-9 has an answer with `"results": {}` (q124): an empty result
      .default([]),
    }).loose(),
  }),
]);
export type SparqlJson = z.infer<typeof sparqlJsonSchema>;

type JsonTerm = { type: string; value: string; datatype?: string; "xml:lang"?: string };

function termItem(t: JsonTerm): AnswerItem | null {
  if (t.type === "uri") return { type: "uri", value: t.value };
  if (t.type === "literal" || t.type === "typed-literal") {
    return { type: "literal", value: t.value, ...(t.datatype ? { datatype: t.datatype } : {}), ...(t["xml:lang"] ? { lang: t["xml:lang"] } : {}) };
  }
  return null; // blank nodes name nothing outside the result set
}

/** Every value of every variable, in row order then head order (the official flattening keeps the same set). */
export function goldFromSparqlJson(result: SparqlJson): GoldAnswer {
  if ("boolean" in result) return { kind: "boolean", value: result.boolean };
  const vars = result.head?.vars;
  const items: AnswerItem[] = [];
  for (const row of result.results.bindings) {
    const names = vars && vars.length > 0 ? vars : Object.keys(row);
    for (const v of names) {
      const item = row[v] ? termItem(row[v]) : null;
      if (item) items.push(item);
    }
  }
  return { kind: "items", items };
}

export function goldFromQueryResult(result: QueryResult): GoldAnswer {
  if (result.kind === "ASK") return { kind: "boolean", value: result.boolean };
  if (result.kind === "SELECT") return goldFromSparqlJson(result);
  throw new AppError("bad_request", `A gold query must be SELECT or ASK, not ${result.kind}.`);
}

/**
 * Engine-portability fixes applied to gold queries before running them. Oxigraph rejects the `xsd:int(…)` cast
 * (CK25 q37, q42); `xsd:integer(…)` gives the same values.
 */
export function portableGoldSparql(sparql: string): string {
  return sparql.replace(/\bxsd:int\(/g, "xsd:integer(").replace(/<http:\/\/www\.w3\.org\/2001\/XMLSchema#int>\(/g, "<http://www.w3.org/2001/XMLSchema#integer>(");
}

/** Runs a gold query (read-only guard applies inside kg.query) and returns its answer. */
export async function computeGold(kg: KnowledgeGraph, sparql: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<GoldAnswer> {
  return goldFromQueryResult(await kg.query(portableGoldSparql(sparql), options));
}

/** TEXT2SPARQL's flattened result set: every value a key (value 1); ASK as {"true": 1|0}. */
export type FlatResult = Record<string, number>;

export function flattenGold(gold: GoldAnswer): FlatResult {
  if (gold.kind === "boolean") return { true: gold.value ? 1 : 0 };
  if (gold.kind === "count") return { [String(gold.count)]: 1 };
  return Object.fromEntries(gold.items.map((i) => [i.value, 1]));
}

/** Same keys (and the same ASK flag): how the official scorer compares result sets. */
export function sameFlat(a: FlatResult, b: FlatResult): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const isAsk = (f: FlatResult) => Object.keys(f).length === 1 && "true" in f;
  if (isAsk(a) || isAsk(b)) return isAsk(a) && isAsk(b) && a.true === b.true;
  return ka.every((k) => k in b);
}

/** Reads a flattened entry back as gold: absolute IRIs become IRIs, everything else an untyped literal. */
export function goldFromFlat(flat: FlatResult): GoldAnswer {
  const keys = Object.keys(flat);
  if (keys.length === 1 && keys[0] === "true" && (flat.true === 0 || flat.true === 1)) return { kind: "boolean", value: flat.true === 1 };
  return {
    kind: "items",
    items: keys.map((k): AnswerItem => (/^(https?|urn|ftp|mailto):\S+$/i.test(k) ? { type: "uri", value: k } : { type: "literal", value: k })),
  };
}
