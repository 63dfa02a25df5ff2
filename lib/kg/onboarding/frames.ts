// What a generated query asks, in words the verbalizer can use: the class, predicates, entities and values by the
// KG's own names. A generator builds the query and its frame together; the template verbalizer writes the question
// from the frame alone, a model is given the frame's names to use (and checked against them).
import type { Lexicon } from "@/lib/kg/lexicon";
import type { QueryBuilder } from "./query-builder";
import type { JoinSeed, Seed, SeedScope } from "./seeds";
import type { ExampleShape } from "./types";

export type FrameKind =
  | "list"
  | "list-names"
  | "list-attribute"
  | "list-two"
  | "list-ordered"
  | "count"
  | "count-with-value"
  | "count-with-attribute"
  | "count-distinct"
  | "attribute-with-value"
  | "list-sorted-by"
  | "aggregates"
  | "aggregate-per-group"
  | "above-average"
  | "value-of"
  | "value-of-by-key"
  | "with-value"
  | "numeric-filter"
  | "date-filter"
  | "count-filter"
  | "superlative"
  | "aggregate"
  | "top-k"
  | "count-per-group"
  | "group-most"
  | "group-having"
  | "chain"
  | "chain-by-key"
  | "join-filter"
  | "join-count"
  | "compare"
  | "contains"
  | "join-count-per-group"
  | "join-group-most"
  | "join-group-having"
  | "join-list-two"
  | "attribute-not-value"
  | "pair-not-value"
  | "count-either"
  | "aggregate-with-value"
  | "count-between"
  | "numeric-between"
  | "link-filter"
  | "link-aggregate"
  | "link-list-two"
  | "link-none"
  | "link-none-value"
  | "link-none-key"
  | "link-both"
  | "set-both"
  | "set-both-range"
  | "set-none"
  | "set-none-range"
  | "key-count-per-group"
  | "key-group-most"
  | "key-group-having"
  | "key-count-distinct"
  | "pair-top"
  | "pair-sorted"
  | "pair-list"
  | "pair-with-value"
  | "join-pair-most"
  | "count-aggregate-per-group"
  | "join-compare"
  | "join-compare-reverse"
  | "link-compare"
  | "join-pair-having"
  | "shared-value"
  | "yes-no";

export interface Frame {
  kind: FrameKind;
  /** class name, singular (undefined: things without a class) */
  cls?: string;
  /** predicate names */
  p?: string;
  q?: string;
  /** a third column asked beside `key` and `q` */
  also?: string;
  key?: string;
  /** the class of an object predicate's values (how a relation's other end is named: "the beekeeper X is kept by") */
  target?: string;
  /** the names of the entities the query names by IRI */
  entity?: string;
  entity2?: string;
  /** a literal or an object's name, as the question should write it */
  value?: string;
  /** a second value ("both X and Y") */
  value2?: string;
  /** across a link row: the class at the row's other end (`target` is the one asked about) */
  other?: string;
  /** a number (threshold, k) or a date */
  n?: string;
  /** the upper bound of a range (n is the lower) */
  n2?: string;
  dir?: "high" | "low";
  /** the bound itself passes ("at least", "at most") */
  inclusive?: boolean;
  agg?: "avg" | "sum" | "max" | "min";
  /** several aggregates at once */
  aggs?: ("avg" | "sum" | "max" | "min")[];
  /** the query projects names, not the entities */
  names?: boolean;
  /** yes-no: the expected answer */
  truth?: boolean;
}

export interface Candidate {
  shape: ExampleShape;
  frame: Frame;
  /** the query as stored (PREFIX lines, compact names) */
  sparql: string;
  /** the query as run (a LIMIT to tell "small" from "too big") */
  run: string;
  /** the words a question about it must contain: entity names and values, as the KG writes them */
  mentions: string[];
  /**
   * what a non-degenerate answer must not reach: rows equal to this (the unfiltered set) or counts equal to it mean the
   * filter filtered nothing
   */
  unfiltered?: number;
  /** list shapes may be longer than the usual small-answer bound */
  list?: boolean;
  /** a `LIMIT k` answer: `run` asks for k+1 rows with the sort key `v`; equal keys at rows k and k+1 cut a tie */
  tie?: { v: string; k: number; added?: boolean };
  /** filters by a value that (nearly) names one instance: an answer of one thing or 1 looks it up by its own key */
  keyed?: boolean;
}

/**
 * The answer says what the question already names, as a person reads them (case, accents, spaces and punctuation
 * aside): "hive_s03" for "hive s03", the code "K01" of "comet k01".
 */
const fold = (t: string) => t.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** The same text but for case, accents and punctuation. */
export function sameText(a: string, b: string): boolean {
  return fold(a) === fold(b);
}

export function repeats(mention: string, answer: string): boolean {
  const m = fold(mention);
  const a = fold(answer);
  return a.length >= 2 && m.length >= 2 && (m === a || (a.length >= 3 && m.includes(a)) || (m.length >= 3 && a.includes(m)));
}

export interface GeneratorEnv {
  qb: QueryBuilder;
  lexicon: Lexicon;
  /** rows above which an answer is too big (the run LIMIT is one more) */
  maxRows: number;
  /** second hops per "<predicate> <class or empty>" (readJoinSeeds) */
  joins: Map<string, JoinSeed[]>;
  /** every class's scope and seeds by class IRI (what a link row's other ends have: their naming column, attributes, values) */
  classes?: Map<string, { scope: SeedScope; seeds: Seed[] }>;
}

/** Builds a candidate: the query as stored and as run, its frame and what a non-degenerate answer is. */
export type Make = (shape: ExampleShape, frame: Frame, body: string, opts?: { mentions?: string[]; unfiltered?: number; list?: boolean; runLimit?: boolean; tie?: { v: string; k: number }; keyed?: boolean }) => Candidate;

/** Round-robin over queues: one from each in turn, so no class or generator crowds out the others. */
export function interleave<T>(queues: T[][]): T[] {
  const out: T[] = [];
  const qs = queues.map((q) => [...q]).filter((q) => q.length);
  while (qs.length) {
    for (let i = 0; i < qs.length; i++) {
      out.push(qs[i].shift() as T);
      if (qs[i].length === 0) qs.splice(i--, 1);
    }
  }
  return out;
}
