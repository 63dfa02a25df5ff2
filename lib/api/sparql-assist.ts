// What the SPARQL workbench asks the server while someone types: the KG's vocabulary (prefixes, classes, predicates,
// a class's predicates), hover facts about one IRI, diagnostics of a query, and the query formatted.
import { z } from "zod";
import { idSchema as id } from "./shared";
import { sparqlRequestSchema } from "./kg-requests";

// GET /api/sparql/vocabulary?kgId=            → VocabularyResponse
// GET /api/sparql/vocabulary?kgId=&class=IRI  → ClassPredicatesResponse
export const vocabularyQuerySchema = z.object({
  kgId: id,
  class: z.string().min(1).max(4000).optional(),
});

export interface VocabularyTerm {
  iri: string;
  /** the KG's label, when it has one */
  label?: string;
  /** uses within the bounded sample the server counted */
  count: number;
}

export interface VocabularyResponse {
  /** prefix → namespace: the KG profile's and one for each namespace its classes and predicates use */
  prefixes: Record<string, string>;
  classes: VocabularyTerm[];
  predicates: VocabularyTerm[];
  /** the counts come from a sample (a bounded number of triples), not the whole KG */
  sampled: boolean;
  /** where the vocabulary came from */
  source: "profile" | "queries";
}

export interface ClassPredicatesResponse {
  class: string;
  /** predicates that sampled instances of the class use, most used first */
  predicates: VocabularyTerm[];
  /** instances sampled */
  instances: number;
}

// GET /api/sparql/hover?kgId=&iri=
export const hoverQuerySchema = z.object({
  kgId: id,
  iri: z.string().min(1).max(4000),
});

/** A count that stopped at the server's bound is `capped` ("10,000 or more"). */
export interface BoundedCount {
  n: number;
  capped: boolean;
}

export interface HoverResponse {
  iri: string;
  /** the KG's names for the IRI (labels in several languages, lexicon names), best first */
  names: string[];
  types: { iri: string; label: string }[];
  description?: string;
  /** triples with the IRI as subject, as object, as predicate; instances when it is a class */
  counts: { subject: BoundedCount; object: BoundedCount; predicate: BoundedCount; instances: BoundedCount };
}

// POST /api/sparql/check {kgId, query} → CheckResponse
export const checkRequestSchema = sparqlRequestSchema;

export interface Diagnostic {
  /** 1-based line and column of the start; end (exclusive) when known */
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  severity: "error" | "warning" | "info";
  /** syntax: the parser; read-only: the guard (would be refused); kg: the names and patterns checked on the KG */
  source: "syntax" | "read-only" | "kg";
  message: string;
}

export interface CheckResponse {
  diagnostics: Diagnostic[];
  /** the KG checks ran to the end (false: some were skipped for time; no problem found is then no guarantee) */
  complete: boolean;
}

// POST /api/sparql/format {kgId, query} → FormatResponse
export const formatRequestSchema = sparqlRequestSchema;

export interface FormatResponse {
  query: string;
  /** what formatting changed besides layout (e.g. comments it could not keep) */
  note?: string;
}
