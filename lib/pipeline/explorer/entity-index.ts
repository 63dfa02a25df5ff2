// The explorer's entity index, next to the profile's label-search adapter: the KG lexicon (lib/kg/lexicon), so names
// in any name-like predicate the data uses (of any language or none) and every IRI's decoded local name are
// searchable, and a hit says which name matched. Built once per KG from bounded queries and cached.
import type { KnowledgeGraph } from "@/lib/kg/types";
import { compactIri } from "@/lib/kg/profile";
import { DEFAULT_LEXICON_LIMITS, describeSource, type Lexicon, type LexiconLimits, type WordCorrection } from "@/lib/kg/lexicon";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { getLexicon } from "@/lib/pipeline/common/lexicon";
import { cachedPerKg } from "@/lib/pipeline/common/per-kg-cache";

export type EntityIndexLimits = LexiconLimits;

/** A text that reads as an id (a code or uuid, whole or its first part): one token of 6+ characters with a digit. */
export const isIdLike = (text: string) => /^(?=.*\d)[\p{L}\p{N}][\p{L}\p{N}_:.-]{5,}$/u.test(text.trim());
export const DEFAULT_ENTITY_INDEX_LIMITS: EntityIndexLimits = DEFAULT_LEXICON_LIMITS;

export interface EntityIndexHit {
  iri: string;
  /** the name that matched */
  label: string;
  lang?: string;
  score: number;
  /** the match is the IRI's own local name (no name literal matched) */
  fromIri: boolean;
  /** where the matched name came from: a predicate (compact) or "IRI local name" */
  via: string;
  /** the name to show for the IRI (may be a name literal although the local name matched); undefined for a nameless IRI */
  display?: string;
}

/** A class or property of the KG's vocabulary (declared, used as a type or as a predicate) whose name matched. */
export interface SchemaIndexHit {
  iri: string;
  kind: "class" | "property";
  /** the name that matched, and the name to show */
  label: string;
  display: string;
  /** 0..1; 1 = a whole name equals the text (case, accents and inflection folded) */
  score: number;
}

export interface EntityIndex {
  search(text: string, limit: number): EntityIndexHit[];
  /** things an id written shortened or whole points to (IRI's last segment or a name starting with it); see isIdLike */
  searchIdPrefix(text: string, limit: number): EntityIndexHit[];
  /** classes and properties by name: the KG's whole vocabulary, not only the classes the schema summary describes */
  searchSchema(text: string, limit: number): SchemaIndexHit[];
  /** the text with words no name of those kinds (default entities and classes) uses replaced by close ones (typos), or undefined */
  correctWords(text: string, kinds?: ("entity" | "class" | "property")[]): { text: string; corrections: WordCorrection[] } | undefined;
  /** The lexicon's best name literal for an IRI (labels, then discovered name predicates, then ids), if it has one. */
  nameOf(iri: string): string | undefined;
  /** entries indexed (names) */
  size: number;
  /** a bound was hit: part of the KG is not indexed */
  truncated: boolean;
  buildMs: number;
}

export type EntityIndexCache = WeakMap<KnowledgeGraph, Promise<EntityIndex>>;
export const createEntityIndexCache = (): EntityIndexCache => new WeakMap();

/** The KG's entity index from `cache`, built on first use; a failed build is not cached. */
export async function getEntityIndex(cache: EntityIndexCache, ctx: AgentContext, stage: Stage, _labelLike: string[] = [], limits: EntityIndexLimits = DEFAULT_ENTITY_INDEX_LIMITS): Promise<EntityIndex> {
  return (await cachedPerKg(cache, ctx.kg, ctx.signal, () => buildEntityIndex(ctx, stage, _labelLike, limits))).value;
}

/** The index over the KG's lexicon (entities and classes). `_labelLike` is kept for callers: the lexicon finds its own. */
export async function buildEntityIndex(ctx: AgentContext, stage: Stage, _labelLike: string[] = [], limits: EntityIndexLimits = DEFAULT_ENTITY_INDEX_LIMITS): Promise<EntityIndex> {
  const { lexicon, stats } = await getLexicon(ctx, stage, limits);
  return entityIndexOf(lexicon, { size: stats.names, truncated: stats.truncated, buildMs: stats.buildMs }, ctx.kg.profile.prefixes);
}

export function entityIndexOf(lexicon: Lexicon, stats: { size: number; truncated: boolean; buildMs: number }, prefixes: Record<string, string>): EntityIndex {
  const show = (p: string) => compactIri(p, prefixes);
  return {
    ...stats,
    correctWords: (text, kinds = ["entity", "class"]) => lexicon.correctWords(text, kinds),
    nameOf: (value) => lexicon.namesOf(value).find((n) => n.source.kind === "predicate")?.text,
    searchIdPrefix: (text, limit) =>
      lexicon.searchIdPrefix(text, limit).map(({ iri, matched }) => ({
        iri,
        label: matched === "iri" ? iri : matched.text,
        score: 1,
        fromIri: matched === "iri",
        via: matched === "iri" ? "the IRI" : describeSource(matched.source, show),
        ...(lexicon.namesOf(iri).some((n) => n.source.kind === "predicate") ? { display: lexicon.displayName(iri) } : {}),
      })),
    searchSchema: (text, limit) =>
      lexicon
        .search(text, { limit, kinds: ["class", "property"] })
        .map((h) => ({ iri: h.iri, kind: h.kind === "class" ? "class" : "property", label: h.matched.text, display: h.display, score: h.score })),
    search(text, limit) {
      return lexicon.search(text, { limit, kinds: ["entity", "class"] }).map((h) => ({
        iri: h.iri,
        label: h.matched.text,
        ...(h.matched.lang ? { lang: h.matched.lang } : {}),
        score: h.score,
        fromIri: h.matched.source.kind === "local-name",
        via: describeSource(h.matched.source, show),
        ...(lexicon.namesOf(h.iri).some((n) => n.source.kind === "predicate") ? { display: h.display } : {}),
      }));
    },
  };
}
