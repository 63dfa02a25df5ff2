// Opens a knowledge graph from a spec (remote endpoint, local RDF files, or the bundled sample) or a CLI argument.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { isSafeIri } from "./escape";
import { kgProfilePartialSchema, resolveProfile, type KgProfilePartial } from "./profile";
import { createRemoteKg } from "./remote";
import { formatFromPath } from "./embedded/formats";
import type { KgProfile, KnowledgeGraph } from "./types";

/** Where the bundled sample graph lives, relative to the project root. */
export const SAMPLE_KG_PATH = path.join("kg", "sample.ttl");

const graphIri = z.string().refine(isSafeIri, { message: "must be an absolute IRI" });

export const kgSpecSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("endpoint"),
    url: z.string().min(1),
    profile: kgProfilePartialSchema.optional(),
    /** extra request headers (e.g. Authorization) */
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z
    .object({
      kind: z.literal("files"),
      paths: z.array(z.string().min(1)).min(1),
      /** named graph per file, aligned with paths (null/absent: the default graph) */
      graphs: z.array(graphIri.nullable()).optional(),
      profile: kgProfilePartialSchema.optional(),
      /** rdfs: materialise what the KG's own sub-class/sub-property/inverse statements imply (in a graph of its own) */
      entailment: z.enum(["none", "rdfs"]).optional(),
    })
    .refine((s) => !s.graphs || s.graphs.length === s.paths.length, { message: "graphs must have one entry per path", path: ["graphs"] }),
  z.object({ kind: z.literal("sample"), profile: kgProfilePartialSchema.optional() }),
]);
export type KgSpec = z.infer<typeof kgSpecSchema>;

/** The embedded store's factory, as lib/kg/embedded exports it (injectable for tests). */
export interface EmbeddedSource {
  path: string;
  format?: string;
  graph?: string;
}
export type CreateEmbeddedKg = (options: {
  id?: string;
  name?: string;
  sources: EmbeddedSource[];
  profile: KgProfile;
  timeoutMs?: number;
  entailment?: "none" | "rdfs";
}) => Promise<KnowledgeGraph>;

export interface OpenKgOptions {
  /** default query timeout for the KG (ms) */
  timeoutMs?: number;
  /** project root for relative paths and the sample (default: process.cwd()) */
  rootDir?: string;
  /** injected for tests; defaults to createEmbeddedKg from lib/kg/embedded */
  createEmbeddedKg?: CreateEmbeddedKg;
  /** injected for tests; used by remote endpoints */
  fetch?: typeof fetch;
}

export async function openKg(spec: KgSpec | unknown, opts: OpenKgOptions = {}): Promise<KnowledgeGraph> {
  const checked = kgSpecSchema.safeParse(spec);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AppError("bad_request", `Invalid knowledge graph spec: ${issue?.path.join(".") || "spec"} ${issue?.message ?? "is invalid"}.`, {
      details: { issues: checked.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
    });
  }
  const s = checked.data;
  const root = opts.rootDir ?? process.cwd();
  switch (s.kind) {
    case "endpoint":
      assertHttpUrl(s.url);
      return createRemoteKg({ url: s.url, profile: s.profile, headers: s.headers, timeoutMs: opts.timeoutMs, fetch: opts.fetch });
    case "files": {
      const sources = expandRdfPaths(
        s.paths.map((p, i) => ({ path: path.resolve(root, p), ...(s.graphs?.[i] ? { graph: s.graphs[i] } : {}) })),
      );
      return openEmbedded(
        {
          id: `files:${s.paths.join(",")}`,
          name: s.paths.map((p) => path.basename(p)).join(", "),
          sources,
          ...(s.entailment ? { entailment: s.entailment } : {}),
        },
        s.profile,
        opts,
      );
    }
    case "sample":
      return openEmbedded({ id: "sample", name: "Sample KG", sources: [{ path: path.resolve(root, SAMPLE_KG_PATH) }] }, s.profile, opts);
  }
}

/**
 * A folder stands for the RDF files directly in it (by extension, sorted by name; other files are skipped), so a KG
 * split into many files (one TriG file per named graph) opens as one; a folder with none is an error, not an empty KG.
 */
export function expandRdfPaths(sources: EmbeddedSource[]): EmbeddedSource[] {
  return sources.flatMap((src) => {
    let isDir = false;
    try {
      isDir = statSync(src.path).isDirectory();
    } catch {
      // a missing file is reported by the load, with its name
    }
    if (!isDir) return [src];
    const files = readdirSync(src.path)
      .filter((f) => formatFromPath(f) !== undefined)
      .sort()
      .map((f) => ({ ...src, path: path.join(src.path, f) }));
    if (files.length === 0) throw new AppError("bad_request", `The folder ${path.basename(src.path)} holds no RDF file (.ttl, .nt, .nq, .trig, .rdf, .owl).`);
    return files;
  });
}

async function openEmbedded(
  what: { id: string; name: string; sources: EmbeddedSource[]; entailment?: "none" | "rdfs" },
  profile: KgProfilePartial | undefined,
  opts: OpenKgOptions,
): Promise<KnowledgeGraph> {
  // The embedded store answers label search from its own index unless the caller picked another adapter.
  const resolved = resolveProfile({ ...profile, labelSearch: profile?.labelSearch ?? "index" });
  // Loaded lazily: the worker/WASM machinery is only needed for local graphs.
  const create: CreateEmbeddedKg = opts.createEmbeddedKg ?? (await import("./embedded/embedded-kg")).createEmbeddedKg;
  return create({ ...what, profile: resolved, timeoutMs: opts.timeoutMs });
}

function assertHttpUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError("bad_request", `Not a valid endpoint URL: ${JSON.stringify(url.slice(0, 200))}.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new AppError("bad_request", `Only http and https SPARQL endpoints are supported, not ${parsed.protocol.replace(/:$/, "")}.`);
  }
}

/**
 * Reads the CLI's --kg argument: "sample", an http(s) endpoint URL, or one or more RDF file paths separated by commas.
 * Other URL schemes (file:, ftp:, …) are refused.
 */
export function parseKgArg(arg: string): KgSpec {
  const value = arg.trim();
  if (!value) throw new AppError("bad_request", "Empty --kg argument: give an http(s) SPARQL endpoint URL, RDF file path(s), or 'sample'.");
  if (value === "sample") return { kind: "sample" };
  if (/^https?:\/\//i.test(value)) {
    assertHttpUrl(value);
    return { kind: "endpoint", url: value };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  if (scheme) throw new AppError("bad_request", `Only http and https SPARQL endpoints are supported, not ${scheme[1]}.`);
  const paths = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (paths.length === 0) throw new AppError("bad_request", "No file paths in the --kg argument.");
  return { kind: "files", paths };
}
