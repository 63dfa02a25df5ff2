// What crosses the worker boundary: the RDF sources a load names (checked, format resolved, paths absolute), the
// operations, the load statistics, and the worker's errors turned into AppErrors that say where.
import { basename, resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { RDF_FORMATS, formatFromPath, resolveFormat } from "./formats";

export const sourceSchema = z
  .object({
    /** file to read (the worker reads it; nothing is copied through the main thread) */
    path: z.string().min(1).optional(),
    /** inline RDF text (uploads, tests) */
    text: z.string().optional(),
    /** shown in errors; defaults to the file's base name or "inline" */
    name: z.string().min(1).optional(),
    /** short name (turtle, ntriples, nquads, trig, rdfxml) or media type; defaults to the file extension */
    format: z.string().optional(),
    /** named graph IRI to load into; the default graph when absent */
    graph: z.url().optional(),
    /** base IRI for relative IRIs; defaults to the file URL */
    baseIri: z.string().optional(),
  })
  .refine((s) => (s.path === undefined) !== (s.text === undefined), { message: "give exactly one of path or text" });
export type RdfSource = z.input<typeof sourceSchema>;

export interface LoadStats {
  triples: number;
  labels: number;
  /** whole load in the worker, including the label index */
  ms: number;
  /** parsing and inserting only */
  parseMs: number;
  /** time spent pre-growing the WASM heap */
  reserveMs: number;
  /** with entailment "rdfs": the triples inferred into their own graph (ENTAILED_GRAPH), and the time it took */
  entailed?: { added: number; ms: number; byRule: { subClassOf: number; subPropertyOf: number; inverseOf: number } };
}

/** none: the data as asserted; rdfs: plus what its own rdfs:subClassOf / rdfs:subPropertyOf / owl:inverseOf imply. */
export const ENTAILMENT_REGIMES = ["none", "rdfs"] as const;
export type Entailment = (typeof ENTAILMENT_REGIMES)[number];

export interface WireSource {
  name: string;
  path?: string;
  text?: string;
  format: string;
  graph?: string;
  baseIri?: string;
}

export interface WireError {
  code: string;
  message: string;
  source?: string;
  line?: number;
  column?: number;
}

export type Op =
  | { op: "load"; sources: WireSource[]; labelPredicates: string[]; preReserve: boolean; entailment: Entailment }
  | { op: "query"; sparql: string; kind: string; unionDefaultGraph: boolean }
  | { op: "search"; text: string; limit: number; language?: string; preferLanguage?: string };

export function toWireSource(s: z.output<typeof sourceSchema>): WireSource {
  const name = s.name ?? (s.path ? basename(s.path) : "inline");
  const format = s.format ? resolveFormat(s.format) : s.path ? formatFromPath(s.path) : undefined;
  if (!format) {
    throw new AppError(
      "kg_load",
      s.format
        ? `Unknown RDF format "${s.format}" for ${name}.`
        : `Cannot tell the RDF format of ${name} from its extension; pass format (turtle, ntriples, nquads, trig, rdfxml).`,
      { where: { source: name } },
    );
  }
  const path = s.path ? resolvePath(s.path) : undefined;
  return {
    name,
    format: RDF_FORMATS[format],
    ...(path ? { path } : { text: s.text }),
    ...(s.graph ? { graph: s.graph } : {}),
    ...(s.baseIri ? { baseIri: s.baseIri } : path ? { baseIri: pathToFileURL(path).href } : {}),
  };
}

export function wireError(e: WireError): AppError {
  if (e.code === "kg_load") {
    const at = e.line ? ` (line ${e.line}${e.column ? `, column ${e.column}` : ""})` : "";
    return new AppError("kg_load", `Could not load ${e.source ?? "RDF data"}${at}: ${e.message}`, {
      where: { source: e.source, line: e.line, column: e.column },
    });
  }
  if (e.code === "kg_query") {
    // the guard accepted it, so this is something oxigraph does not support or failed on while evaluating
    return new AppError("kg_bad_response", `The embedded store could not run the query: ${e.message}`, {
      where: { source: "query", line: e.line, column: e.column },
    });
  }
  return new AppError("internal", `Embedded KG worker: ${e.message}`);
}
