// The explorer's data shape of a KG (kg-shape.ts builds it, shape-render.ts writes it for the model): its types, the
// bounds of the queries that build it, and the vocabulary it treats specially.
import { NS } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";

export interface ShapeLimits {
  /** classes described with their properties (most instances first) */
  classes: number;
  /** instances sampled per class to find its properties and their value types */
  instancesPerClass: number;
  /** instances per class whose triples give the example values */
  exampleInstances: number;
  /** type assertions / triples read by the counting queries (keeps GROUP BYs bounded on large endpoints) */
  sampleTriples: number;
  /** predicates used by no described class, listed at the end */
  otherPredicates: number;
  /** the rendered summary's budget (≈ tokens); details are dropped to fit */
  maxTokens: number;
  /** queries at once */
  concurrency: number;
}

export const DEFAULT_SHAPE_LIMITS: ShapeLimits = {
  classes: 40,
  instancesPerClass: 300,
  exampleInstances: 4,
  sampleTriples: 200_000,
  otherPredicates: 30,
  maxTokens: 4000,
  concurrency: 4,
};

/** What the values of a property are: instances of a class, other IRIs, blank nodes, or literals of a datatype. */
export interface ShapeTarget {
  kind: "class" | "iri" | "bnode" | "literal";
  /** the class (kind "class") or the datatype (kind "literal"; rdf:langString for language-tagged text) */
  iri?: string;
  count: number;
}

export interface ShapeProperty {
  predicate: string;
  /** share of the sampled instances that have it */
  coverage: number;
  /** values per instance that has it */
  perSubject: number;
  targets: ShapeTarget[];
  examples: Term[];
}

export interface ShapeClass {
  iri: string;
  label?: string;
  /** instances (within the counted sample) */
  count: number;
  supers: string[];
  out: ShapeProperty[];
  /** properties whose values are instances of this class: [predicate, class of the subjects] */
  in: [string, string][];
}

export interface KgShape {
  kgId: string;
  prefixes: Record<string, string>;
  classes: ShapeClass[];
  /** classes named only by the hierarchy (no instances of their own, e.g. an abstract superclass) */
  abstractClasses: { iri: string; label?: string }[];
  /** predicates no described class uses: count and one example triple */
  otherPredicates: { predicate: string; count: number; example?: [Term, Term] }[];
  /** literal-valued predicates that name things (the profile's label predicates first) */
  labelLike: string[];
  /** labels and descriptions of the classes and predicates (for schema search) */
  labels: Map<string, string>;
  comments: Map<string, string>;
  /** every class and predicate IRI of the shape, and every IRI the summary shows (they count as known to the model) */
  iris: Set<string>;
  /** the summary as the model sees it */
  text: string;
  /** ≈ tokens of `text` (characters / 4) */
  tokens: number;
  /** true when a counting query hit its sample bound (counts are then lower bounds) */
  sampled: boolean;
  buildMs: number;
}

export const RDF_TYPE = `${NS.rdf}type`;
export const SUBCLASS = `${NS.rdfs}subClassOf`;
export const LANG_STRING = `${NS.rdf}langString`;
/** Vocabularies that describe schemas rather than data: their classes are listed, not described. */
export const META_NAMESPACES = [NS.rdf, NS.rdfs, NS.owl, "http://www.w3.org/ns/shacl#"];

/** ≈ tokens of a text for the model (characters / 4) */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);
