// RDF syntaxes the embedded store reads, and how a file name maps to one.
import { extname } from "node:path";

export const RDF_FORMATS = {
  turtle: "text/turtle",
  ntriples: "application/n-triples",
  nquads: "application/n-quads",
  trig: "application/trig",
  rdfxml: "application/rdf+xml",
} as const;

export type RdfFormat = keyof typeof RDF_FORMATS;
export type RdfMediaType = (typeof RDF_FORMATS)[RdfFormat];

const BY_EXTENSION: Record<string, RdfFormat> = {
  ".ttl": "turtle",
  ".turtle": "turtle",
  ".nt": "ntriples",
  ".ntriples": "ntriples",
  ".nq": "nquads",
  ".nquads": "nquads",
  ".trig": "trig",
  ".rdf": "rdfxml",
  ".owl": "rdfxml",
  ".xml": "rdfxml",
};

/** The format for a file name, or undefined when the extension is not an RDF syntax we know. */
export function formatFromPath(path: string): RdfFormat | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/** Accepts a short name ("turtle") or a media type ("text/turtle"); undefined when unknown. */
export function resolveFormat(format: string): RdfFormat | undefined {
  const f = format.trim().toLowerCase();
  if (f in RDF_FORMATS) return f as RdfFormat;
  const hit = (Object.entries(RDF_FORMATS) as [RdfFormat, string][]).find(([, mt]) => mt === f);
  if (hit) return hit[0];
  if (f === "ttl") return "turtle";
  if (f === "nt" || f === "n-triples") return "ntriples";
  if (f === "nq" || f === "n-quads") return "nquads";
  if (f === "rdf/xml" || f === "xml" || f === "rdf") return "rdfxml";
  return undefined;
}
