// The pieces of a gold query's reading that parseGold (oracle-llm-gold.ts) and the constraint reader
// (oracle-llm-gold-constraints.ts) share: in their own file, so neither imports the other's module back.

/** A term of a gold triple: an IRI to be named by its label, a variable kept as is, or a literal kept as its text. */
export type GoldTerm = { kind: "iri"; value: string } | { kind: "var"; value: string } | { kind: "literal"; value: string; datatype?: string };

export interface GoldTriple {
  subject: GoldTerm;
  predicate: string;
  object: GoldTerm;
}

/**
 * Coarse tags for what a gold query needs beyond one BGP (the oracle plays what the QIR can say; the tag tells the
 * per-shape breakdown which kind of question it was).
 */
export const GOLD_SHAPES = ["bgp", "ask", "count", "path", "union", "optional", "filter", "negation", "bind", "values", "order", "aggregate", "subquery", "other"] as const;
export type GoldShape = (typeof GOLD_SHAPES)[number];
export type PathLike = { type: "path"; pathType: string; items: (PathLike | { termType: string; value: string })[] };

export interface Acc {
  triples: GoldTriple[];
  /** triples inside FILTER NOT EXISTS / MINUS */
  negated: GoldTriple[];
  /** ?c rdfs:subClassOf* <C>: the class variables and their class */
  subclassOf: Map<string, string>;
  /** OPTIONAL triples (kept when they bind a shown variable) */
  optional: GoldTriple[];
  filters: unknown[];
  features: Set<GoldShape>;
  fresh: number;
}
