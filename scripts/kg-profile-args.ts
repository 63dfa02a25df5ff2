// The KG-profile flags shared by `npm run ask` and `npm run eval`: --profile, --label-predicates, --lang, --label-search.
import { existsSync, readFileSync } from "node:fs";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseKgArg, type KgSpec } from "@/lib/kg/open-kg";
import {
  compactIri,
  kgProfilePartialSchema,
  LABEL_SEARCH_KINDS,
  NS,
  presetForUrl,
  PROFILE_PRESETS,
  type KgProfilePartial,
} from "@/lib/kg/profile";
import type { KgProfile } from "@/lib/kg/types";

/** node:util parseArgs option entries for the profile flags. */
export const KG_PROFILE_OPTIONS = {
  profile: { type: "string" },
  "label-predicates": { type: "string" },
  lang: { type: "string" },
  "label-search": { type: "string" },
  entailment: { type: "string" },
} as const;

export const KG_PROFILE_USAGE = `  --profile <name|file.json>       KG profile: a preset (${Object.keys(PROFILE_PRESETS).join(", ")}) or a JSON file of
                                   profile fields (labelPredicates, language, prefixes, labelSearch, typePredicates, …);
                                   endpoints already start from their URL's preset, files from the defaults
  --label-predicates <iri,…>       label predicates (full IRIs or prefixed names such as rdfs:label)
  --lang <code>                    preferred label language (e.g. en, pt-BR)
  --label-search <${LABEL_SEARCH_KINDS.join("|")}>
  --entailment <none|rdfs>         RDF files: also materialise what the KG's own rdfs:subClassOf, rdfs:subPropertyOf and
                                   owl:inverseOf statements imply (in the graph <urn:x-chatty-kg:entailed>); default none`;

export interface KgProfileArgs {
  profile?: string;
  "label-predicates"?: string;
  lang?: string;
  "label-search"?: string;
  entailment?: string;
}

export interface KgProfileDeps {
  readFile?: (path: string) => string;
  fileExists?: (path: string) => boolean;
}

/** The --kg spec with the partial profile the flags describe (none when no flag is given). */
export function kgSpecFromArgs(kgArg: string, args: KgProfileArgs, deps: KgProfileDeps = {}): KgSpec {
  const spec = parseKgArg(kgArg);
  // why: the URL preset is applied by openKg (createRemoteKg); here it only lends its prefixes to prefixed names
  const urlPrefixes = spec.kind === "endpoint" ? (presetForUrl(spec.url)?.profile.prefixes ?? {}) : {};
  const profile = profileFromArgs(args, urlPrefixes, deps);
  const withProfile = profile ? { ...spec, profile } : spec;
  if (args.entailment === undefined) return withProfile;
  const entailment = args.entailment.trim();
  if (entailment !== "none" && entailment !== "rdfs") throw new AppError("bad_request", `--entailment must be none or rdfs (got "${entailment}").`);
  if (withProfile.kind !== "files") {
    throw new AppError("bad_request", "--entailment applies to RDF files: an endpoint keeps its own entailment regime, the sample has no schema to entail from.");
  }
  return { ...withProfile, entailment };
}

/** Reads the flags into a validated partial profile; AppError bad_request (CLI exit 2) naming the bad field. */
export function profileFromArgs(args: KgProfileArgs, extraPrefixes: Record<string, string> = {}, deps: KgProfileDeps = {}): KgProfilePartial | undefined {
  const base = args.profile !== undefined ? loadProfileArg(args.profile, deps) : {};
  const partial: Record<string, unknown> = { ...base };
  if (args["label-predicates"] !== undefined) {
    const prefixes = { ...NS, ...extraPrefixes, ...(base.prefixes ?? {}) };
    const names = args["label-predicates"].split(",").map((s) => s.trim()).filter(Boolean);
    if (names.length === 0) throw new AppError("bad_request", "--label-predicates needs at least one IRI or prefixed name.");
    partial.labelPredicates = names.map((n) => expandName(n, prefixes));
  }
  if (args.lang !== undefined) partial.language = args.lang.trim();
  if (args["label-search"] !== undefined) {
    const kind = args["label-search"].trim();
    if (!(LABEL_SEARCH_KINDS as readonly string[]).includes(kind)) {
      throw new AppError("bad_request", `--label-search must be one of ${LABEL_SEARCH_KINDS.join(", ")} (got "${kind}").`);
    }
    partial.labelSearch = kind;
  }
  if (Object.keys(partial).length === 0) return undefined;
  const checked = kgProfilePartialSchema.safeParse(partial);
  if (!checked.success) throw invalid("profile flags", checked.error, flagNameFor);
  return checked.data;
}

/** A preset name, or a JSON file validated strictly (an unknown key is a typo, not something to ignore). */
function loadProfileArg(value: string, deps: KgProfileDeps): KgProfilePartial {
  const preset = PROFILE_PRESETS[value];
  if (preset) return preset.profile;
  const exists = deps.fileExists ?? existsSync;
  if (!exists(value)) {
    throw new AppError("bad_request", `--profile "${value}" is neither a preset (${Object.keys(PROFILE_PRESETS).join(", ")}) nor an existing JSON file.`);
  }
  const text = (deps.readFile ?? ((p: string) => readFileSync(p, "utf8")))(value);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AppError("bad_request", `Profile file ${value} is not valid JSON: ${(e as Error).message}.`, { cause: e });
  }
  const checked = kgProfilePartialSchema.strict().safeParse(json);
  if (!checked.success) throw invalid(`profile file ${value}`, checked.error, (field) => field);
  return checked.data;
}

/** rdfs:label → full IRI through the known prefixes; <iri> and absolute IRIs pass through. */
export function expandName(name: string, prefixes: Record<string, string>): string {
  const bracketed = /^<(.*)>$/.exec(name);
  if (bracketed) return bracketed[1];
  const m = /^([A-Za-z][\w.-]*)?:(.*)$/.exec(name);
  if (m) {
    const ns = prefixes[m[1] ?? ""];
    if (ns !== undefined) return ns + m[2];
    // why: an unknown prefix that looks like a scheme (http://…, urn:…) is a full IRI; anything else is a typo
    if (m[2].startsWith("//") || /^(urn|mailto|tag)$/i.test(m[1] ?? "")) return name;
  }
  throw new AppError("bad_request", `--label-predicates: "${name}" is neither an absolute IRI nor a prefixed name with a known prefix (${Object.keys(prefixes).join(", ")}).`);
}

const FLAG_FOR_FIELD: Record<string, string> = { labelPredicates: "--label-predicates", language: "--lang", labelSearch: "--label-search" };
const flagNameFor = (field: string) => FLAG_FOR_FIELD[field.split(".")[0]] ?? field;

function invalid(where: string, error: z.ZodError, name: (field: string) => string): AppError {
  const issues = error.issues.map((i) => {
    const keys = "keys" in i && Array.isArray(i.keys) ? i.keys.join(", ") : "";
    const field = i.path.join(".") || keys || "profile";
    return { field, message: i.code === "unrecognized_keys" ? `is not a profile field (known: ${Object.keys(kgProfilePartialSchema.shape).join(", ")})` : i.message };
  });
  const first = issues[0];
  return new AppError("bad_request", `Invalid ${where}: ${name(first.field)} ${first.message}.`, { details: { issues } });
}

/** The effective profile in a few lines, IRIs shortened with its own prefixes (for ask -v). */
export function describeProfile(p: KgProfile): string {
  const list = (iris: readonly string[]) => (iris.length ? iris.map((i) => compactIri(i, p.prefixes)).join(", ") : "(none)");
  return [
    `profile: label search ${p.labelSearch}${p.entitySearchUrl ? ` (${p.entitySearchUrl})` : ""} · language ${p.language}`,
    `  labels: ${list(p.labelPredicates)}`,
    `  types: ${list(p.typePredicates)}`,
    `  descriptions: ${list(p.descriptionPredicates)}`,
  ].join("\n");
}
