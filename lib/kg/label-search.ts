// Label-search adapters for SPARQL endpoints (contains / virtuoso / qlever) and the Wikidata entity-search API.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { escapeRegex, iri, literal, wellFormed } from "./escape";
import { httpCall } from "./remote-http";
import type { KgProfile, KnowledgeGraph, LabelHit, LabelSearchOptions, Term } from "./types";

export const DEFAULT_LABEL_SEARCH_TIMEOUT_MS = 15_000;
/** Rows fetched per wanted hit: several predicates and languages can repeat one entity. */
const OVERFETCH = 4;
const MAX_ROWS = 1000;

export interface LabelSearchDeps {
  /** injected for tests; defaults to the global fetch (used by the wikidata adapter only) */
  fetch?: typeof fetch;
}

/** Finds vertices whose label matches `text` with the adapter named by kg.profile.labelSearch. */
export async function sparqlLabelSearch(
  kg: Pick<KnowledgeGraph, "select" | "profile">,
  text: string,
  options: LabelSearchOptions,
  deps: LabelSearchDeps = {},
): Promise<LabelHit[]> {
  const needle = normalizeText(text);
  const limit = Math.max(0, Math.floor(options.limit));
  if (!needle || limit === 0) return [];
  const kind = kg.profile.labelSearch;
  if (kind === "index") {
    throw new AppError("bad_request", 'Label search "index" is answered by the embedded store itself, not over SPARQL.');
  }
  if (kind === "wikidata") return wikidataSearch(kg.profile, needle, { ...options, limit }, deps);
  const rows = async (query: string) =>
    (await kg.select(query, { timeoutMs: options.timeoutMs, signal: options.signal })).results.bindings.map((b) => ({ s: b.s, label: b.label, p: b.p }));
  const hits = rankHits(await rows(buildLabelQuery(kind, kg.profile, needle, limit, options.questionLanguage)), needle, kg.profile, limit);
  // Every word must match (AND); a mention with a word no label has ("Ms. Brant", "Mr Radcliffe") then finds nothing,
  // where the embedded index still ranks the labels holding the other words. So: each word alone (one query per word,
  // so a frequent short word cannot crowd out the others' matches), ranked together by how much of the text they hold.
  const words = kind === "virtuoso" ? (virtuosoTextPattern(needle)?.split(" AND ") ?? []) : [];
  if (hits.length > 0 || words.length < 2) return hits;
  const each = await Promise.all(words.map((w) => rows(buildLabelQuery(kind, kg.profile, w.slice(1, -1), limit, options.questionLanguage))));
  return rankHits(each.flat(), needle, kg.profile, limit);
}

/** Trims, collapses whitespace and repairs lone surrogates; the search text as adapters see it. */
export function normalizeText(text: string): string {
  return wellFormed(text).replace(/\s+/g, " ").trim();
}

/** The SELECT a SPARQL adapter sends; exported so tests can parse and inspect it. */
export function buildLabelQuery(kind: "contains" | "virtuoso" | "qlever", profile: KgProfile, text: string, limit: number, questionLanguage?: string): string {
  const needle = normalizeText(text);
  const rows = Math.min(MAX_ROWS, Math.max(limit, 1) * OVERFETCH);
  const values = profile.labelPredicates.map(iri).join(" ");
  // the profile's language, and the question's when it differs: a mention left in the question's language finds its label
  const langs = [...new Set([profile.language, ...(questionLanguage && /^[a-z]{2,3}$/i.test(questionLanguage) ? [questionLanguage.toLowerCase()] : [])])];
  const langFilter = `FILTER(isLiteral(?label) && (LANG(?label) = "" || ${langs.map((l) => `LANGMATCHES(LANG(?label), ${literal(l)})`).join(" || ")}))`;
  let prologue = "";
  let match: string;
  if (kind === "virtuoso") {
    const pattern = virtuosoTextPattern(needle);
    if (pattern === undefined) return buildLabelQuery("contains", profile, needle, limit, questionLanguage);
    // Virtuoso predefines bif:, but standard parsers (and our guard) need the declaration; Virtuoso accepts it.
    prologue = "PREFIX bif: <bif:>\n";
    match = `?label bif:contains ${literal(pattern)} .`;
  } else if (kind === "qlever") {
    // A "^prefix" REGEX with no other metacharacters is turned into a vocabulary range scan by QLever,
    // so it is fast on billions of triples; it is standard SPARQL and runs on any engine.
    match = `FILTER(REGEX(STR(?label), ${literal(`^${escapeRegex(needle)}`)}, "i"))`;
  } else {
    match = `FILTER(CONTAINS(LCASE(STR(?label)), ${literal(needle.toLowerCase())}))`;
  }
  // ORDER BY length: an exact match is the shortest label containing the text, so it survives the LIMIT.
  return `${prologue}SELECT DISTINCT ?s ?p ?label WHERE {
  VALUES ?p { ${values} }
  ?s ?p ?label .
  ${match}
  ${langFilter}
}
ORDER BY STRLEN(STR(?label))
LIMIT ${rows}`;
}

// Words Virtuoso's free-text index treats as noise; an expression made only of them fails there.
const VIRTUOSO_NOISE = new Set(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on", "or", "the", "to", "with"]);
const VIRTUOSO_OPERATORS = new Set(["and", "or", "not", "near"]);

/**
 * Virtuoso free-text expression: each word double-quoted, joined by AND ('"harry" AND "potter"').
 * Words are runs of letters/digits, so quotes, wildcards, parentheses and operators in user text never reach the
 * text-query parser. Returns undefined when no usable word remains (the caller falls back to CONTAINS).
 */
export function virtuosoTextPattern(text: string): string | undefined {
  const kept = (normalizeText(text).match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => !VIRTUOSO_NOISE.has(w.toLowerCase()) && !VIRTUOSO_OPERATORS.has(w.toLowerCase()))
    .filter((w, i, all) => all.findIndex((x) => x.toLowerCase() === w.toLowerCase()) === i)
    .slice(0, 8);
  if (kept.length === 0) return undefined;
  return kept.map((w) => `"${w}"`).join(" AND ");
}

interface LabelRow {
  s?: Term;
  label?: Term;
  p?: Term;
}

/** Relevance of a label for the search text: exact > prefix > whole word > substring, shorter labels first. */
export function scoreLabel(label: string, text: string): number {
  const l = normalizeText(label).toLowerCase();
  const t = normalizeText(text).toLowerCase();
  if (!t || !l) return 0;
  const brevity = Math.min(1, t.length / l.length) * 0.1;
  if (l === t) return 1;
  if (l.startsWith(t)) return 0.7 + brevity;
  const at = l.indexOf(t);
  if (at >= 0) {
    const wordStart = !/[\p{L}\p{N}]/u.test(l[at - 1] ?? " ");
    return (wordStart ? 0.5 : 0.3) + brevity;
  }
  // Token matches (virtuoso's AND of words): fraction of the words present.
  const words = t.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const present = words.filter((w) => l.includes(w)).length;
  return words.length ? 0.25 * (present / words.length) + brevity / 2 : 0;
}

function rankHits(rows: LabelRow[], text: string, profile: KgProfile, limit: number): LabelHit[] {
  const byIri = new Map<string, LabelHit & { rank: number }>();
  const lang = profile.language.toLowerCase();
  for (const row of rows) {
    if (row.s?.type !== "uri" || row.label?.type !== "literal") continue;
    const tag = row.label["xml:lang"];
    const predRank = row.p ? profile.labelPredicates.indexOf(row.p.value) : -1;
    // Small tie-breaking penalties for a less preferred predicate or an untagged/other-language label (max score stays 1).
    const penalty = (predRank >= 0 ? (0.01 * predRank) / profile.labelPredicates.length : 0.01) + (tag?.toLowerCase().startsWith(lang) ? 0 : 0.005);
    const score = Math.max(0, Math.round((scoreLabel(row.label.value, text) - penalty) * 1e6) / 1e6);
    const prev = byIri.get(row.s.value);
    if (!prev || score > prev.score) {
      byIri.set(row.s.value, { iri: row.s.value, label: row.label.value, ...(tag ? { lang: tag } : {}), score, rank: byIri.size });
    }
  }
  return [...byIri.values()]
    .sort((a, b) => b.score - a.score || a.label.length - b.label.length || a.rank - b.rank)
    .slice(0, limit)
    .map(({ rank: _rank, ...hit }) => hit);
}

const wbSearchSchema = z.object({
  search: z.array(
    z.object({
      id: z.string(),
      concepturi: z.string().optional(),
      label: z.string().optional(),
      description: z.string().optional(),
      match: z.object({ type: z.string().optional(), language: z.string().optional(), text: z.string().optional() }).optional(),
    }),
  ),
});
const wbErrorSchema = z.object({ error: z.object({ code: z.string().optional(), info: z.string().optional() }) });

const WIKIDATA_ENTITY = "http://www.wikidata.org/entity/";

/** Wikidata's wbsearchentities API (labels and aliases, ranked by Wikidata); IRIs as http://www.wikidata.org/entity/Qxx. */
async function wikidataSearch(profile: KgProfile, text: string, options: LabelSearchOptions, deps: LabelSearchDeps): Promise<LabelHit[]> {
  if (!profile.entitySearchUrl) throw new AppError("bad_request", 'Label search "wikidata" needs profile.entitySearchUrl.');
  const url = new URL(profile.entitySearchUrl);
  const params: Record<string, string> = {
    action: "wbsearchentities",
    format: "json",
    search: text,
    language: profile.language,
    uselang: profile.language,
    type: "item",
    limit: String(Math.min(50, options.limit)),
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const reply = await httpCall({
    url: url.toString(),
    method: "GET",
    // Wikimedia asks API clients to identify themselves.
    headers: { accept: "application/json", "user-agent": "Chatty-KG/0.1 (knowledge-graph chat; label search)" },
    timeoutMs: options.timeoutMs ?? DEFAULT_LABEL_SEARCH_TIMEOUT_MS,
    signal: options.signal,
    maxBytes: 5 * 1024 * 1024,
    fetch: deps.fetch,
    what: "entity search API",
  });
  const host = url.host;
  let json: unknown;
  try {
    json = JSON.parse(reply.text);
  } catch (e) {
    throw new AppError("kg_bad_response", `The entity search API at ${host} did not return JSON.`, { cause: e, details: { host } });
  }
  const apiError = wbErrorSchema.safeParse(json);
  if (apiError.success) {
    throw new AppError("kg_http", `The entity search API at ${host} reported an error: ${apiError.data.error.info ?? apiError.data.error.code ?? "unknown"}.`, {
      details: { host, apiCode: apiError.data.error.code },
    });
  }
  const parsed = wbSearchSchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError("kg_bad_response", `The entity search API at ${host} returned an unexpected shape (no "search" list).`, {
      details: { host },
    });
  }
  const hits: LabelHit[] = [];
  const seen = new Set<string>();
  parsed.data.search.forEach((item, i) => {
    if (!/^[QPL]\d+$/.test(item.id) || seen.has(item.id)) return;
    seen.add(item.id);
    const label = item.label ?? item.match?.text ?? item.id;
    const lang = item.match?.type === "label" || item.match?.type === "alias" ? item.match.language : undefined;
    // Wikidata's order is a good ranking; exact label/alias matches are lifted to the top.
    const exact = [item.label, item.match?.text].some((l) => l !== undefined && l.toLowerCase() === text.toLowerCase());
    const score = Math.round(((exact ? 1 : 0.6) - i * 0.005) * 1e6) / 1e6;
    hits.push({ iri: `${WIKIDATA_ENTITY}${item.id}`, label, ...(lang ? { lang } : {}), score });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, options.limit);
}
