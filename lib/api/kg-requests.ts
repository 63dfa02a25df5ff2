// Requests about a KG: the SPARQL/SQL console, an entity's page and label search, the provenance of an answer item,
// and the KGs a session has (list, upload, endpoint).
import { z } from "zod";
import type { Citation, StrategyId } from "@/lib/pipeline/types";
import type { QueryResult, Term } from "@/lib/kg/types";
import { idSchema as id } from "./shared";

// ---------------------------------------------------------------------------------------------------------------
// POST /api/sparql
// ---------------------------------------------------------------------------------------------------------------

export const SPARQL_ROW_CAP = 10_000;

export const sparqlRequestSchema = z.object({
  kgId: id,
  query: z.string().min(1, "Type a query.").max(100_000),
});
export type SparqlRequest = z.input<typeof sparqlRequestSchema>;

/**
 * POST /api/sql: one read-only SELECT over the database RAGONITE induced from the KG (built on first use). The 200
 * body is a SparqlResponse (cells as RDF terms: IRIs the KG holds come back as IRIs). Errors: 400 `sql_syntax`,
 * 403 `sql_forbidden` (anything but one SELECT), 504 `sql_timeout`.
 */
export const sqlRequestSchema = sparqlRequestSchema;

/**
 * 200 body. SELECT bindings / CONSTRUCT triples are cut at `rowCap` with `truncated: true`.
 * Errors: 400 `sparql_syntax` with `error.where.{line,column}`, 403 `sparql_forbidden` (updates, SERVICE),
 * 504 `kg_timeout`, 502 `kg_*`.
 */
export interface SparqlResponse {
  result: QueryResult;
  ms: number;
  truncated: boolean;
  rowCap: number;
  /** labels of IRIs in the (capped) result, where the KG has one */
  labels: Record<string, string>;
  /** present when well-known prefixes (rdfs:, xsd:, …) the query used undeclared were declared: the query as it ran */
  declared?: { query: string; prefixes: string[] };
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/entity?kgId=&iri=
// ---------------------------------------------------------------------------------------------------------------

export const ENTITY_EDGE_CAP = 50;

export const entityQuerySchema = z.object({
  kgId: id,
  iri: z.string().min(1).max(4000),
});

export interface LabeledIri {
  iri: string;
  label: string;
}

export interface EntityEdge {
  predicate: LabeledIri;
  /** for outgoing edges the object, for incoming ones the subject */
  object: Term & { label?: string };
}

export interface EntityResponse {
  iri: string;
  /** the KG's label, or the IRI's local name when it has none */
  label: string;
  types: LabeledIri[];
  description?: string;
  outgoing: EntityEdge[];
  incoming: EntityEdge[];
  /** true when outgoing or incoming hit ENTITY_EDGE_CAP */
  capped: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/entity/search?kgId=&q=: vertices by label (the KG profile's label search), to link a mention by hand
// ---------------------------------------------------------------------------------------------------------------

export const ENTITY_SEARCH_CAP = 20;

export const entitySearchQuerySchema = z.object({
  kgId: id,
  q: z.string().trim().min(1, "Type a name to search for.").max(300),
});

export interface EntitySearchResponse {
  /** best first; `types`: labelled classes, `description`: a short text, to tell same-named vertices apart */
  hits: { iri: string; label: string; score: number; types: string[]; description?: string }[];
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/turns/[id]/provenance?attempt=&index=: the KG triples (or cited rows / passages) behind one answer item
// ---------------------------------------------------------------------------------------------------------------

export const provenanceQuerySchema = z.object({
  /** the attempt whose answer is meant (default: the latest) */
  attempt: z.coerce.number().int().min(1).max(10_000).optional(),
  /** items: the item's position; table: the row's; absent for a yes/no answer */
  index: z.coerce.number().int().min(0).max(10_000_000).optional(),
});

export interface ProvenanceTriple {
  subject: Term & { label?: string };
  predicate: Term & { label?: string };
  object: Term & { label?: string };
}

export interface ProvenanceResponse {
  /** the KG triples the executed query matched for this item (deduplicated, at most PROVENANCE_CAP) */
  triples: ProvenanceTriple[];
  /** the read-only CONSTRUCT queries that found them (the query's pattern restricted to this item) */
  queries: string[];
  /** evidence the item cites, when its strategy cites (RAGONITE: SQL rows, passages) */
  citations: Citation[];
  truncated: boolean;
  /** why nothing (or not everything) is shown */
  note?: string;
}

export const PROVENANCE_CAP = 200;

// ---------------------------------------------------------------------------------------------------------------
// Knowledge graphs: GET /api/kg, POST /api/kg/upload (multipart), POST /api/kg/endpoint
// ---------------------------------------------------------------------------------------------------------------

export const KG_KINDS = ["sample", "upload", "endpoint"] as const;
export type KgKind = (typeof KG_KINDS)[number];

export interface KgListItem {
  id: string;
  name: string;
  kind: KgKind;
  triples?: number;
  /** "ready": open; "not-loaded": opens at first use (sample, uploads after a restart); "error": see `error` */
  status: "ready" | "not-loaded" | "error";
  error?: string;
  /** endpoints only: the URL without credentials or query string */
  url?: string;
  /** uploads and the default KG: "rdfs" when what the KG's own sub-class/sub-property/inverse statements imply was added */
  entailment?: "rdfs";
  /**
   * the strategy a new conversation on this KG uses unless the user picks one, and why (lib/server/default-strategy.ts:
   * the best real-model evaluation run of this KG, else the documented default); absent in older servers
   */
  defaultStrategy?: { strategy: StrategyId; reason: string; source: "eval-runs" | "documented" | "setting" };
}

export interface KgListResponse {
  kgs: KgListItem[];
  /** the KG a new conversation uses unless the user picks another */
  defaultKgId: string;
}

/** File extensions POST /api/kg/upload accepts (form field `files`, one or more). */
export const UPLOAD_EXTENSIONS = [".ttl", ".turtle", ".nt", ".ntriples", ".nq", ".nquads", ".trig", ".rdf", ".owl", ".xml"] as const;
export const DEFAULT_UPLOAD_MAX_MB = 50;

/** Form field `name` of the upload (optional; defaults to the first file name). */
export const uploadFieldsSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  /** "rdfs": materialise what the KG's own rdfs:subClassOf / rdfs:subPropertyOf / owl:inverseOf statements imply */
  entailment: z.enum(["none", "rdfs"]).optional(),
});

/** 201 body of POST /api/kg/upload and POST /api/kg/endpoint. Upload errors: 413 too_large, 422 kg_load naming file + line. */
export interface KgCreatedResponse {
  kg: KgListItem;
}

export const endpointRequestSchema = z.object({
  url: z.string().trim().min(1).max(2000),
  name: z.string().trim().min(1).max(200).optional(),
  /** a preset name (e.g. "wikidata", "dbpedia") or a partial KgProfile object */
  profile: z.union([z.string().min(1).max(100), z.record(z.string(), z.unknown())]).optional(),
});
export type EndpointRequest = z.input<typeof endpointRequestSchema>;
