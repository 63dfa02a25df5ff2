// The rules every question-grounded oracle follows (docs/eval.md "Oracle kinds"): the text it writes where a model
// would is a span of the asked question or an earlier tool output, or one of the reviewed normalisations below; every
// constant of its final query is grounded the same way, or dropped and counted. One module so every strategy's oracle
// (and a new strategy's) applies the same rules and reports the same counters.
import type { SparqlQuery } from "sparqljs";
import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import { numbersIn, questionSpan, tokens } from "./oracle-grounding-words";
import { normaliseNumberText, reviewedNormalisations, type Normalisation } from "./oracle-normalisations";

export * from "./oracle-grounding-words";
export { normaliseNumberText, reviewedNormalisations, REVIEWED_WORDS, type Normalisation } from "./oracle-normalisations";

// the oracle kinds live apart (oracle-kind.ts) so the eval pages' client components can label runs without loading
// the normalisations' WordNet lexicon (node:fs)
export { ORACLE_KINDS, ORACLE_KIND_LABELS, oracleKindOf, oracleLabelOf, type OracleKind } from "./oracle-kind";
import type { OracleKind } from "./oracle-kind";

// ---------------------------------------------------------------------------------------------------------------
// Grounding a text the oracle wants to write

export type Grounded = { text: string; via: "question" | "output" | "normalisation"; normalisation?: Normalisation };

/**
 * Grounds `wanted` (what the gold would have the oracle write): the question's span of it; else a text some earlier
 * tool output holds (case-insensitive); else a reviewed normalisation of a question word that yields it. Null: refused.
 */
export function ground(wanted: string, question: string, options: { outputs?: string[]; language?: string } = {}): Grounded | null {
  const span = questionSpan(wanted, question);
  if (span !== null) return { text: span, via: "question" };
  const w = wanted.trim().toLowerCase();
  const out = (options.outputs ?? []).find((o) => o.trim().toLowerCase() === w);
  if (out !== undefined) return { text: out, via: "output" };
  const n = reviewedNormalisations(question, options.language).find((x) => x.to.toLowerCase() === w || normaliseNumberText(x.to) === normaliseNumberText(wanted));
  if (n) return { text: n.to, via: "normalisation", normalisation: n };
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Constants of a final query

export type QueryConstant = { kind: "iri"; value: string } | { kind: "literal"; value: string } | { kind: "number"; value: string };

/** The query language's own IRIs (rdf:type, xsd datatypes, rdfs:label …): not KG constants a model must find. */
const STANDARD_NAMESPACES = [
  "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  "http://www.w3.org/2000/01/rdf-schema#",
  "http://www.w3.org/2001/XMLSchema#",
  "http://www.w3.org/2002/07/owl#",
];
export const isStandardIri = (iri: string) => STANDARD_NAMESPACES.some((ns) => iri.startsWith(ns));

export interface ConstantSources {
  question: string;
  language?: string;
  /** IRIs earlier tool/pipeline outputs showed */
  iris?: Iterable<string>;
  /** texts (literal values, labels) earlier tool/pipeline outputs showed */
  texts?: string[];
}

/** How a constant is grounded, or null when nothing shows it (then it is dropped or made a variable, and counted). */
export function groundConstant(c: QueryConstant, sources: ConstantSources): Grounded | null {
  if (c.kind === "iri") {
    if (isStandardIri(c.value)) return { text: c.value, via: "output" };
    for (const i of sources.iris ?? []) if (i === c.value) return { text: c.value, via: "output" };
    return null;
  }
  if (c.kind === "number") {
    const n = normaliseNumberText(c.value);
    // a number as the question writes it ("199.925", "135kV"), or one of its digit runs
    if (numbersIn(sources.question, sources.language).some((x) => normaliseNumberText(x) === n)) return { text: c.value, via: "question" };
    if (tokens(sources.question).some((t) => normaliseNumberText(t.word) === n)) return { text: c.value, via: "question" };
    if ((sources.texts ?? []).some((t) => normaliseNumberText(t) === n)) return { text: c.value, via: "output" };
    const norm = reviewedNormalisations(sources.question, sources.language).find((x) => normaliseNumberText(x.to) === n);
    return norm ? { text: c.value, via: "normalisation", normalisation: norm } : null;
  }
  const texts = sources.texts ?? [];
  if (texts.some((t) => t === c.value)) return { text: c.value, via: "output" };
  return ground(c.value, sources.question, { outputs: texts, language: sources.language });
}

// ---------------------------------------------------------------------------------------------------------------
// What an oracle run reports per question

/** One question's oracle log: what it wrote from where, and what it could not ground. */
export interface OracleLog {
  kind: OracleKind;
  /** reviewed normalisations used ("number word: three → 3") */
  normalisations: string[];
  /** constants of the final query (or QIR) grounded nowhere, dropped or made variables ("number 5", "literal \"x\"") */
  dropped: string[];
  /** texts the oracle wanted to write but refused (not a question span, no output had them) */
  refused: string[];
  /** dataset texts used where the rules allow (the gold standalone rewrite, the dataset's English version) */
  datasetTexts: string[];
}

export function createOracleLog(kind: OracleKind): OracleLog {
  return { kind, normalisations: [], dropped: [], refused: [], datasetTexts: [] };
}

const pushOnce = (list: string[], s: string) => {
  if (!list.includes(s)) list.push(s);
};

/** Records a grounding's normalisation, if any, and returns it. */
export function noteGrounded(log: OracleLog, g: Grounded): Grounded {
  if (g.normalisation) pushOnce(log.normalisations, `${g.normalisation.kind}: ${g.normalisation.from} → ${g.normalisation.to}`);
  return g;
}
/** A literal kept as query structure (lib/eval/oracle-structure.ts), logged like a normalisation. */
export const noteStructure = (log: OracleLog, reason: string, value: string) => pushOnce(log.normalisations, `structure: ${reason} ${JSON.stringify(value)}`);
export const noteDropped = (log: OracleLog, c: QueryConstant | string) => pushOnce(log.dropped, typeof c === "string" ? c : `${c.kind} ${c.kind === "literal" ? JSON.stringify(c.value) : c.value}`);
export const noteRefused = (log: OracleLog, text: string, why: string) => pushOnce(log.refused, `${JSON.stringify(text)} (${why})`);
export const noteDatasetText = (log: OracleLog, what: string) => pushOnce(log.datasetTexts, what);

/** Totals over questions' logs, for the run summary. */
export function oracleTotals(logs: (OracleLog | undefined)[]): { questions: number; dropped: number; normalisations: number; refused: number } {
  const present = logs.filter((l): l is OracleLog => !!l);
  return {
    questions: present.length,
    dropped: present.reduce((n, l) => n + l.dropped.length, 0),
    normalisations: present.reduce((n, l) => n + l.normalisations.length, 0),
    refused: present.reduce((n, l) => n + l.refused.length, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// "Equal to the gold query (normalised)"

/**
 * A query in a canonical text: parsed, variables renamed in order of first appearance, prefixes expanded, regenerated.
 * Null when it does not parse. Two queries equal under this are the same query up to variable names and layout.
 */
export function normalisedQuery(sparql: string): string | null {
  let ast: SparqlQuery;
  try {
    ast = parseSparql(sparql.replace(/\bxsd:int\(/g, "xsd:integer("), { skipValidation: true });
  } catch {
    return null;
  }
  const names = new Map<string, string>();
  const rename = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rename);
    if (typeof v !== "object" || v === null) return v;
    const o = v as Record<string, unknown>;
    if (o.termType === "Variable" && typeof o.value === "string") {
      if (!names.has(o.value)) names.set(o.value, `v${names.size + 1}`);
      return { termType: "Variable", value: names.get(o.value) };
    }
    if (o.termType) return o; // other terms (the wildcard of COUNT(*) keeps its prototype)
    return Object.fromEntries(Object.entries(o).map(([k, c]) => [k, k === "prefixes" ? {} : rename(c)]));
  };
  try {
    return stringifySparql(rename(ast) as SparqlQuery).replace(/\s+/g, " ").trim();
  } catch {
    return null;
  }
}

/** True when one of `queries` is the gold query up to variable names, prefixes and layout. */
export function equalsGold(queries: string[], gold: string | undefined): boolean {
  if (!gold) return false;
  const g = normalisedQuery(gold);
  return g !== null && queries.some((q) => normalisedQuery(q) === g);
}
