// The contract every knowledge graph satisfies, embedded or remote. Results use the SPARQL 1.1 JSON results shape.

/** An RDF term as in the SPARQL 1.1 Query Results JSON Format. */
export type Term =
  | { type: "uri"; value: string }
  | { type: "bnode"; value: string }
  | { type: "literal"; value: string; "xml:lang"?: string; datatype?: string };

export type Bindings = Record<string, Term>;

export interface SelectResult {
  head: { vars: string[] };
  results: { bindings: Bindings[] };
  /** set when a remote endpoint cut the rows at its own cap (Virtuoso's X-SPARQL-MaxRows): more rows may exist */
  serverRowCap?: number;
}

export interface AskResult {
  head: Record<string, never>;
  boolean: boolean;
}

export interface TripleJson {
  subject: Term;
  predicate: Term;
  object: Term;
}

/** CONSTRUCT/DESCRIBE results: a list of triples (no SPARQL JSON shape exists for graphs). */
export interface GraphResult {
  triples: TripleJson[];
}

export type QueryKind = "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE";

export type QueryResult =
  | ({ kind: "SELECT" } & SelectResult)
  | ({ kind: "ASK" } & AskResult)
  | ({ kind: "CONSTRUCT" | "DESCRIBE" } & GraphResult);

export interface QueryOptions {
  /** ms before the query is cut off with AppError("kg_timeout"); each KG has a default */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** How entity mentions are looked up among labels. */
export type LabelSearchKind = "index" | "contains" | "virtuoso" | "qlever" | "wikidata";

export interface KgProfile {
  /** label predicates in order of preference (full IRIs) */
  labelPredicates: string[];
  /** preferred label language, e.g. "en"; labels without a language tag are always accepted */
  language: string;
  /** prefixes used to display IRIs compactly (prefix -> namespace IRI) */
  prefixes: Record<string, string>;
  labelSearch: LabelSearchKind;
  /** rdf:type or e.g. wdt:P31: used for "type hints" when choosing among same-named vertices */
  typePredicates: string[];
  /** short description predicates (rdfs:comment, schema:description, …) for hints */
  descriptionPredicates: string[];
  /** for labelSearch "wikidata": the wbsearchentities API URL */
  entitySearchUrl?: string;
  /** questions with a SPARQL query answering them on this KG: few-shot examples for strategies that learn from them (Triad) */
  examples?: { question: string; sparql: string }[];
}

export interface LabelHit {
  iri: string;
  label: string;
  lang?: string;
  /** adapter-specific relevance; higher is better (exact match ranks first) */
  score: number;
}

export interface LabelSearchOptions extends QueryOptions {
  limit: number;
  /**
   * the language the question was asked in: labels in it are searched too (besides the profile's language and
   * untagged ones), so a mention a translation left in that language finds the KG's label in that language
   */
  questionLanguage?: string;
}

export interface KgInfo {
  id: string;
  kind: "embedded" | "remote";
  /** human name, e.g. "Sample KG" or the endpoint host */
  name: string;
  /** triple count for embedded stores, when known */
  triples?: number;
  /** embedded stores: whether RDFS consequences of the KG's own schema were materialised on load (endpoints keep their own regime) */
  entailment?: "none" | "rdfs";
}

export interface KnowledgeGraph {
  readonly info: KgInfo;
  readonly profile: KgProfile;
  /** Runs any read-only query (parsed with sparqljs first; updates are refused). */
  query(sparql: string, options?: QueryOptions): Promise<QueryResult>;
  select(sparql: string, options?: QueryOptions): Promise<SelectResult>;
  ask(sparql: string, options?: QueryOptions): Promise<boolean>;
  construct(sparql: string, options?: QueryOptions): Promise<GraphResult>;
  /** Finds vertices whose label matches the text, through the profile's label-search adapter. */
  searchLabels(text: string, options: LabelSearchOptions): Promise<LabelHit[]>;
  close(): Promise<void>;
}
