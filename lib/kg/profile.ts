// KG profiles: which predicates hold labels/types/descriptions, display prefixes, label-search adapter; presets per endpoint.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { isLangTag, isSafeIri } from "./escape";
import type { KgProfile } from "./types";

export const NS = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
  owl: "http://www.w3.org/2002/07/owl#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  schema: "http://schema.org/",
  foaf: "http://xmlns.com/foaf/0.1/",
  dcterms: "http://purl.org/dc/terms/",
  dbo: "http://dbpedia.org/ontology/",
  dbr: "http://dbpedia.org/resource/",
  wd: "http://www.wikidata.org/entity/",
  wdt: "http://www.wikidata.org/prop/direct/",
} as const;

const iriSchema = z.string().refine(isSafeIri, { message: "must be an absolute IRI without spaces or <>\"{}|^`\\" });

/** A question with a SPARQL query that answers it on this KG: few-shot material for strategies that learn from examples (Triad). */
export const queryExampleSchema = z
  .object({
    question: z.string().trim().min(1).max(1000),
    sparql: z.string().trim().min(1).max(10_000),
  })
  .strict();
const examplesSchema = z.array(queryExampleSchema).max(50);

export const LABEL_SEARCH_KINDS = ["index", "contains", "virtuoso", "qlever", "wikidata"] as const;

export const kgProfileSchema = z
  .object({
    labelPredicates: z.array(iriSchema).min(1),
    language: z.string().refine(isLangTag, { message: "must be a language tag such as en or pt-BR" }),
    prefixes: z.record(z.string().regex(/^[A-Za-z][\w.-]*$|^$/), iriSchema),
    labelSearch: z.enum(LABEL_SEARCH_KINDS),
    typePredicates: z.array(iriSchema),
    descriptionPredicates: z.array(iriSchema),
    entitySearchUrl: z.url({ protocol: /^https?$/ }).optional(),
    examples: examplesSchema.optional(),
  })
  .refine((p) => p.labelSearch !== "wikidata" || p.entitySearchUrl !== undefined, {
    message: 'labelSearch "wikidata" needs entitySearchUrl',
    path: ["entitySearchUrl"],
  }) satisfies z.ZodType<KgProfile>;

/** A partial profile as users or presets write it; prefixes are merged over the defaults. */
export const kgProfilePartialSchema = z.object({
  labelPredicates: z.array(iriSchema).min(1).optional(),
  language: z.string().refine(isLangTag).optional(),
  prefixes: z.record(z.string(), iriSchema).optional(),
  labelSearch: z.enum(LABEL_SEARCH_KINDS).optional(),
  typePredicates: z.array(iriSchema).optional(),
  descriptionPredicates: z.array(iriSchema).optional(),
  entitySearchUrl: z.url({ protocol: /^https?$/ }).optional(),
  examples: examplesSchema.optional(),
});
export type KgProfilePartial = z.infer<typeof kgProfilePartialSchema>;

export const DEFAULT_PROFILE: KgProfile = Object.freeze({
  labelPredicates: [
    `${NS.rdfs}label`,
    `${NS.skos}prefLabel`,
    `${NS.schema}name`,
    `${NS.foaf}name`,
    `${NS.dcterms}title`,
    `${NS.skos}altLabel`,
  ],
  language: "en",
  prefixes: { ...NS },
  labelSearch: "contains",
  typePredicates: [`${NS.rdf}type`],
  descriptionPredicates: [`${NS.rdfs}comment`, `${NS.schema}description`, `${NS.dcterms}description`],
}) as KgProfile;

/** Fills a partial profile from the defaults (prefixes merged, lists replaced) and validates the result. */
export function resolveProfile(partial: KgProfilePartial | undefined = {}, base: KgProfile = DEFAULT_PROFILE): KgProfile {
  const p = kgProfilePartialSchema.safeParse(partial ?? {});
  if (!p.success) throw profileError(p.error);
  const merged = {
    ...base,
    ...stripUndefined(p.data),
    prefixes: { ...base.prefixes, ...(p.data.prefixes ?? {}) },
  };
  const full = kgProfileSchema.safeParse(merged);
  if (!full.success) throw profileError(full.error);
  return full.data;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function profileError(error: z.ZodError): AppError {
  const first = error.issues[0];
  const path = first?.path.join(".") || "profile";
  return new AppError("bad_request", `Invalid KG profile: ${path} ${first?.message ?? "is invalid"}.`, {
    details: { issues: error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
  });
}

export interface ProfilePreset {
  /** matches the endpoint URL (host + path) */
  match: RegExp;
  profile: KgProfilePartial;
}

/** Known public endpoints and the adapter that searches their labels well. */
export const PROFILE_PRESETS: Record<string, ProfilePreset> = {
  wikidata: {
    match: /(^|\.)wikidata\.org\b|qlever\.[^/]+\/api\/wikidata/i,
    profile: {
      labelSearch: "wikidata",
      entitySearchUrl: "https://www.wikidata.org/w/api.php",
      labelPredicates: [`${NS.rdfs}label`, `${NS.skos}altLabel`],
      typePredicates: [`${NS.wdt}P31`],
      descriptionPredicates: [`${NS.schema}description`],
      prefixes: {
        p: "http://www.wikidata.org/prop/",
        ps: "http://www.wikidata.org/prop/statement/",
        pq: "http://www.wikidata.org/prop/qualifier/",
        wikibase: "http://wikiba.se/ontology#",
      },
    },
  },
  dbpedia: {
    match: /(^|\.)dbpedia\.org\b/i,
    profile: {
      labelSearch: "virtuoso",
      labelPredicates: [`${NS.rdfs}label`, `${NS.foaf}name`],
      descriptionPredicates: [`${NS.rdfs}comment`, `${NS.dbo}abstract`],
      prefixes: { dbp: "http://dbpedia.org/property/" },
    },
  },
  dblp: {
    match: /(^|\.)dblp\.(org|uni-trier\.de)\b|qlever\.[^/]+\/api\/dblp/i,
    profile: {
      labelSearch: "qlever",
      labelPredicates: [`${NS.rdfs}label`, "https://dblp.org/rdf/schema#title", "https://dblp.org/rdf/schema#creatorName"],
      prefixes: { dblp: "https://dblp.org/rdf/schema#" },
    },
  },
  yago: {
    // YAGO 4.x: labels are rdfs:label, types rdf:type, descriptions rdfs:comment.
    match: /(^|\.)yago-knowledge\.org\b|qlever\.[^/]+\/api\/yago/i,
    profile: {
      labelSearch: "qlever",
      labelPredicates: [`${NS.rdfs}label`, `${NS.schema}alternateName`],
      descriptionPredicates: [`${NS.rdfs}comment`, `${NS.schema}description`],
      prefixes: { yago: "http://yago-knowledge.org/resource/" },
    },
  },
  // A Virtuoso with its free-text index built (scripts/virtuoso.ts does that): chosen by name only, since bif:contains
  // finds nothing on a Virtuoso without the index and a URL does not tell whether it has one.
  virtuoso: {
    match: /(?!)/,
    profile: { labelSearch: "virtuoso" },
  },
  // Any other QLever instance (its URL names the engine): same adapter, default predicates.
  qlever: {
    match: /qlever/i,
    profile: { labelSearch: "qlever" },
  },
};

/** The preset whose pattern matches the endpoint URL, if any (first match in declaration order). */
export function presetForUrl(url: string): { name: string; profile: KgProfilePartial } | undefined {
  const hostAndPath = url.replace(/^[a-z][a-z0-9+.-]*:\/\/([^@/]*@)?/i, "");
  for (const [name, preset] of Object.entries(PROFILE_PRESETS)) {
    if (preset.match.test(hostAndPath)) return { name, profile: preset.profile };
  }
  return undefined;
}

/** Display form: prefix:local when a namespace matches and the rest is a valid local name, else <iri>. */
export function compactIri(value: string, prefixes: Record<string, string>): string {
  let best: [string, string] | undefined;
  for (const [prefix, ns] of Object.entries(prefixes)) {
    if (ns && value.startsWith(ns) && (!best || ns.length > best[1].length)) best = [prefix, ns];
  }
  if (best) {
    const local = value.slice(best[1].length);
    if (/^[\p{L}\p{N}_]([\p{L}\p{N}_.-]*[\p{L}\p{N}_-])?$|^$/u.test(local)) return `${best[0]}:${local}`;
  }
  return `<${value}>`;
}

/** The part after the last # or / (or : for URNs), percent-decoded, underscores kept; the whole IRI if nothing follows. */
export function localName(value: string): string {
  const trimmed = value.replace(/[#/]+$/, "");
  const cut = Math.max(trimmed.lastIndexOf("#"), trimmed.lastIndexOf("/"));
  let local = cut >= 0 ? trimmed.slice(cut + 1) : trimmed.slice(trimmed.lastIndexOf(":") + 1);
  if (!local) return value;
  try {
    local = decodeURIComponent(local);
  } catch {
    // malformed %-escapes: show them raw
  }
  return local;
}
