// The solved examples of a one-call turn: the k pairs of the KG's experience pool closest to the question, by the
// embedding model when one is loaded, by BM25 over the questions' words otherwise.
import type { Similarity } from "@/lib/embeddings/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { normalizedBm25 } from "@/lib/pipeline/common/bm25";
import { aimedExamples } from "@/lib/pipeline/common/aimed-examples";
import { readPool, type RetrievedExample } from "@/lib/pipeline/common/experience";
import type { ExperienceExample, ExperienceSource, Stage } from "@/lib/pipeline/types";
import { capitalisedValues, queryShape, querySchemaNames, questionShape, shapeAgreement } from "./example-shape";

export const DEFAULT_EXAMPLES = 5;

export type ExampleRanking = "embedding" | "bm25";

/** Which ranking a similarity gives: an embedding model's vectors, or BM25 when only the lexical fallback is there. */
export function rankingOf(similarity: Similarity): ExampleRanking {
  return similarity.kind === "lexical" ? "bm25" : "embedding";
}

export interface RankingOptions {
  /** weight of the agreement between the question's cue words and the example query's operators (0: words only) */
  shapeWeight: number;
  /** the words of the classes and predicates the example's query names join its question's words */
  schemaWords: boolean;
}
export const DEFAULT_RANKING: RankingOptions = { shapeWeight: 0.15, schemaWords: true };

// Words that say how a question is put, not what it is about: a template's fixed wording ("What are the …", "How many
// … do … have?") would otherwise outweigh the nouns a person's question shares with the right example. The kind of
// query these words ask for is read by the cue words of example-shape.ts instead.
const FUNCTION_WORDS = new Set(
  ("a an the of in on at to for by with from as into and or is are was were be been being has have had do does did it its " +
    "this that these those here what which who whom whose much any some than then we you " +
    "they i me my our your their us them show list give return find tell display ascending descending sorted sort alphabetical alphabetically").split(" "),
);

// Words for the top and bottom of a scale, as the template questions write them ("the highest capacity").
const EXTREMES: Record<string, string> = { maximum: "highest", max: "highest", largest: "highest", biggest: "highest", greatest: "highest", tallest: "highest", longest: "highest", heaviest: "highest", minimum: "lowest", min: "lowest", smallest: "lowest", shortest: "lowest", lightest: "lowest" };
// Words for a bound, as the template questions write them ("with an age greater than 35", "below the average").
const BOUNDS: Record<string, string> = { greater: "greater", above: "greater", higher: "greater", larger: "greater", bigger: "greater", below: "less", lower: "less", smaller: "less", fewer: "less" };

/** One word's stem: a plural made singular ("countries" → "country", "classes" → "class", "names" → "name"). */
function stem(word: string): string {
  if (EXTREMES[word]) return EXTREMES[word];
  if (BOUNDS[word]) return BOUNDS[word];
  if (FUNCTION_WORDS.has(word)) return word;
  // "of every aircraft" and "for all aircrafts" list the same
  if (word === "every") return "all";
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return unsuffixed(word.slice(0, -1));
  return unsuffixed(word);
}

/**
 * A word without its verb or agent ending, so "player", "played" and "plays" meet, and "published" "publisher": "-ing",
 * "-ed", "-er" go; a doubled consonant is undone ("stopped" → stop) and a short stem gets its "e" back ("named" → name).
 */
function unsuffixed(word: string): string {
  const m = /^(.{3,}?)(ing|ed|er)$/.exec(word);
  if (!m || !/[aeiouy]/.test(m[1])) return word;
  const base = m[1];
  if (/([^aeioulsz])\1$/.test(base)) return base.slice(0, -1);
  // one vowel group between consonants, ending consonant–vowel–consonant: "nam" → name, "stor" → store ("open" stays)
  return /^[^aeiouy]*[aeiouy]+[^aeiouywx]$/.test(base) ? `${base}e` : base;
}

/** The words of a text, stemmed. */
export function wordTokens(text: string): string[] {
  // "the greatest number of trains" is how "the most trains" is also put; a name abbreviates "number of" ("no of")
  return (text.toLowerCase().replace(/\b(no|num|nr)\.? of\b/g, "number of").replace(/\b(greatest|largest|highest|biggest|maximum|max|most) numbers? of\b/g, "most").replace(/\b(over|under)(?= [-+]?\d)/g, (w) => (w === "over" ? "greater" : "less")).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

/** The content words of a text, stemmed; a text of function words only keeps them (something must match). */
export function contentTokens(text: string): string[] {
  const words = wordTokens(text);
  // an order phrased ("in descending order", "ordered by") is a cue of example-shape.ts; "order date" stays a noun
  const phrased = wordTokens(text.replace(/\b(in (\w+ ){0,2}order( of)?|order(ed|ing)? by)\b/gi, " "));
  const content = phrased.filter((w) => !FUNCTION_WORDS.has(w));
  return content.length > 0 ? content : words;
}

/**
 * Two adjacent words of the question written as one, where the examples have that word: names run words together
 * ("baseprice", "onscholarship") that a person writes apart ("base price", "on scholarship"), or shorten the first
 * word to its initial ("lname", "fname" for "last name", "first name").
 */
function compoundsOf(question: string, documents: string[]): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const joined = words.slice(1).flatMap((w, i) => [stem(`${words[i]}${w}`), stem(`${words[i][0]}${w}`)]);
  if (joined.length === 0) return [];
  const known = new Set(documents.flatMap(wordTokens));
  return joined.filter((j) => known.has(j));
}

/**
 * The question without the values it names (quoted texts, numbers, capitalised words that are no word of the KG's
 * names): an example holding the same value is about the same thing, not necessarily the same ask.
 */
export function withoutValues(question: string, schemaWord: (word: string) => boolean = () => false): string {
  const unquoted = question.replace(/["“][^"“”]*["”]|(^|\s)'[^']+'/gu, " ").replace(/(^|[\s(])[-+]?\d+([.,:]\d+)*(?=[\s?.!,;)]|$)/g, " ");
  const values = new Set(capitalisedValues(unquoted, schemaWord));
  return unquoted.trim().split(/\s+/).filter((w) => !values.has(w)).join(" ");
}

const WORDING_SHARE = 0.05;
// The share of the content score that counts the question's values: half, so a value an example shares still breaks
// ties, but the nouns and columns decide ("the tail colour of comets found by 'Vela'" ↔ "the tail colour … whose
// discoverer is Orla" before "Which comets have discoverer Vela?").
const VALUE_SHARE = 0.5;
/** and the same for the values an example's question holds (its sample row's, not the person's) */
const EXAMPLE_VALUE_SHARE = 0.5;
const LEAD_WEIGHT = 0.05;
// An example whose query names columns the question never mentions asks about them too: of examples sharing the
// question's words, those whose names the question covers rank a little higher ("What comet codes do we have?" ↔ "List
// the comet code of all comets.", before "What is the comet name of the comets whose comet code is …?").
const NAMES_ASKED_WEIGHT = 0.02;
/** BM25 over the content words, with a small share over all words: the wording breaks ties between equal nouns. */
function lexicalScores(asked: string, documents: string[], schemaWord: (word: string) => boolean): number[] {
  // "Show the number of X" asks what the template questions put as "How many X …"
  const plain = asked.replace(/^\s*(show|find|return|give|list|count|what is|what are|tell)( me| us)? the (total )?numbers? of\b/i, "how many");
  const question = `${plain} ${compoundsOf(plain, documents).join(" ")}`;
  const content = normalizedBm25(question, documents, contentTokens);
  const bare = withoutValues(question, schemaWord);
  const nounsOf = bare === question ? content : normalizedBm25(bare, documents, contentTokens);
  // an example's own sample value meets the question's words by chance: half the noun score reads it without
  const nounsBare = normalizedBm25(bare, documents.map((d) => withoutValues(d, schemaWord)), contentTokens);
  const nouns = nounsOf.map((n, i) => (1 - EXAMPLE_VALUE_SHARE) * n + EXAMPLE_VALUE_SHARE * (nounsBare[i] ?? 0));
  const all = normalizedBm25(question, documents, wordTokens);
  return content.map((c, i) => (1 - WORDING_SHARE) * ((1 - VALUE_SHARE) * (nouns[i] ?? 0) + VALUE_SHARE * c) + WORDING_SHARE * (all[i] ?? 0));
}

// Words that open a question without naming what it asks for.
const OPENERS = new Set(["how", "many", "who", "where", "when", "why", "please"]);
/** The first noun of a question: what it asks for ("the founder of X", "the names of …", "How many comets …"). */
function leadWord(text: string): string | undefined {
  return contentTokens(text).find((w) => !OPENERS.has(w));
}

/** A local name in words: "booking_status" → "booking status", "Switch.normalOpen" → "Switch normal Open". */
function nameWords(name: string): string {
  return name.replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/[_.-]+/g, " ");
}

/**
 * The words of the compact names a query uses ("ex:booking_status" → "booking status", "ex:Switch.normalOpen" → "Switch
 * normal Open": a dotted name's last part is the property), the rdf/xsd vocabulary aside.
 */
function schemaWordsOf(sparql: string): string {
  const names = sparql.replace(/^\s*PREFIX[^\n]*\n/gim, "").match(/\b[A-Za-z][\w-]*:[A-Za-z_](?:[\w-]|\.(?=[\w-]))*/g) ?? [];
  return names
    .filter((n) => !/^(rdf|rdfs|owl|xsd):/.test(n))
    .map((n) => nameWords(n.slice(n.indexOf(":") + 1)))
    .join(" ");
}

/** The share of the words of the names an example's query uses (as BM25 reads them) that the question has; 1 for none. */
function namesAsked(sparql: string, askedWords: Set<string>): number {
  const own = new Set(contentTokens(schemaWordsOf(sparql)));
  return own.size === 0 ? 1 : [...own].filter((w) => askedWords.has(w)).length / own.size;
}

/**
 * The pool ranked against the question, best first, ties in pool order; pairs sharing nothing with it are dropped.
 * The score is the text similarity (plus the words of the classes and predicates an example's query names), nudged by
 * whether the question's cue words ask for the kind of query the example is (a count, a group, a superlative, …).
 */
export async function rankExamples(question: string, pool: ExperienceExample[], similarity: Similarity, k: number, options: RankingOptions = DEFAULT_RANKING): Promise<RetrievedExample[]> {
  if (pool.length === 0 || k <= 0) return [];
  // a capitalised word of the KG's class and predicate names ("the day Numbers") names a column, not a value
  const vocabulary = new Set(pool.flatMap((e) => querySchemaNames(e.sparql).flatMap((n) => wordTokens(nameWords(n)))));
  const schemaWord = (w: string) => wordTokens(w).every((t) => vocabulary.has(t));
  const scores =
    rankingOf(similarity) === "embedding"
      ? await similarity.scores(question, pool.map((e) => e.question))
      : lexicalScores(question, pool.map((e) => (options.schemaWords ? `${e.question} ${schemaWordsOf(e.sparql)}` : e.question)), schemaWord);
  const asked = questionShape(question, schemaWord);
  const lead = leadWord(question);
  const askedWords = new Set(contentTokens(`${question} ${compoundsOf(question, pool.map((e) => e.question)).join(" ")}`));
  const ranked = pool
    .map((e, i) => {
      const text = scores[i] ?? 0;
      const shaped = text > 0 && options.shapeWeight > 0 ? text + options.shapeWeight * shapeAgreement(asked, queryShape(e.sparql)) : text;
      // an example that opens on the question's first noun asks for the same thing ("the discoverer of Vela" ↔ "the
      // discoverer of the comets whose name is …", not "the mass of the comets whose discoverer is …")
      const led = text > 0 && lead !== undefined && leadWord(e.question) === lead ? shaped + LEAD_WEIGHT : shaped;
      const rank = text > 0 ? led + NAMES_ASKED_WEIGHT * namesAsked(e.sparql, askedWords) : led;
      return { ...e, score: Math.round(text * 1000) / 1000, rank };
    })
    .filter((e) => e.score > 0)
    .sort((a, b) => b.rank - a.rank);
  // the best k − 2 by score; the last two places go to examples naming what those leave out of the question
  return covering(question, ranked, k, Math.max(1, k - 2), options.schemaWords && rankingOf(similarity) === "bm25", (w) => vocabulary.has(w)).map(({ rank: _rank, ...e }) => e);
}

/**
 * The first `keep` of a ranking, then for each further place the best example that names a content word of the
 * question the places before do not (else the next best): five examples about one noun of the question leave out the
 * class or predicate its other noun asks for.
 */
function covering<T extends ExperienceExample>(question: string, ranked: T[], k: number, keep: number, schemaWords: boolean, named: (word: string) => boolean): T[] {
  const asked = new Set(contentTokens(question).filter(named));
  const words = (e: T) => new Set(contentTokens(schemaWords ? `${e.question} ${schemaWordsOf(e.sparql)}` : e.question).filter((w) => asked.has(w)));
  const out = ranked.slice(0, keep);
  const covered = new Set(out.flatMap((e) => [...words(e)]));
  const rest = ranked.slice(keep, keep + 200);
  while (out.length < k && rest.length > 0) {
    const i = Math.max(0, rest.findIndex((e) => [...words(e)].some((w) => !covered.has(w))));
    const [e] = rest.splice(i, 1);
    for (const w of words(e)) covered.add(w);
    out.push(e);
  }
  return out;
}

/**
 * The k examples for the question: ranked from the stored pool and, when the KG's onboarding profile is there, from
 * examples generated for this question (`aimed`, common/aimed-examples.ts) — both ranked together by the same measure.
 */
export async function retrieveSolvedExamples(source: ExperienceSource | undefined, ctx: AgentContext, question: string, k: number, stage: Stage, aimed = 0): Promise<{ examples: RetrievedExample[]; ranking: ExampleRanking; pool: number }> {
  const pool = await readPool(source, ctx, stage);
  const made = await aimedExamples(source, ctx, question, pool, aimed, (docs) => rankExamples(question, docs.map((d) => ({ ...d, source: "generated" as const })), ctx.similarity, docs.length), stage);
  return { examples: await rankExamples(question, [...pool, ...made], ctx.similarity, k), ranking: rankingOf(ctx.similarity), pool: pool.length };
}
