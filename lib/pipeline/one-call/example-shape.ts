// What kind of query a question asks for, read from its words, and what kind a solved example's query is, read from
// its operators — so that retrieval prefers an example of the same kind ("how many … for each" ↔ COUNT … GROUP BY)
// over one that merely shares the question's nouns. English cue words only: other languages rank by words as before.
// "value": the question names a value (a number, a quoted text, a capitalised name after its first word) and the query
// holds a constant (a literal or an individual's IRI, read from its template) — a lookup, not a listing; "values": it
// names two or more and the query holds two or more constants (both filters of "the comets of Orla seen from Vela").
import { queryTemplate } from "@/lib/kg/onboarding/template";
import { NS } from "@/lib/kg/profile";

const STANDARD = [NS.rdf, NS.rdfs, NS.owl, NS.xsd];

export type ShapeFeature = "count" | "group" | "aggregate" | "superlative" | "order" | "sortKey" | "descending" | "compare" | "negation" | "ask" | "distinct" | "value" | "number" | "values";

const QUESTION_CUES: [ShapeFeature, RegExp][] = [
  ["count", /\b(how many|numbers? of|count)\b/i],
  // "the average price of different types" and "the types and the count" ask per group; "the number of different
  // types" counts values (distinct)
  ["group", /\b(each|per|for every|(?<!numbers? |count )(for|of|by|across) (the )?different|corresponding|grouped|(and|with) (the|their|its) (count|number)s?(?! of))\b/i],
  ["aggregate", /\b(average|mean|total|sum|maximum|minimum|max|min|avg)\b/i],
  ["superlative", /\b(most|least|top|fewest|\w{3,}est)\b/i],
  // "order" as a noun ("order date", "order id") asks for no order: the word must be phrased as one
  ["order", /\b(in (\w+ ){0,2}order|order(ed|ing)? by|sort(ed|ing)?|ascending|descending|alphabetical(ly)?)\b/i],
  // sorted by something other than what is listed ("names in ascending order of price", "sorted … using age")
  ["sortKey", /\b((order|sort)(ed|ing)? ((in|into) (\w+ ){0,3})?(by|using|on)|order (of|by|using))\b(?! (the )?(alphabetical|ascending|descending|increasing|decreasing|reverse)\b)/i],
  ["descending", /\b(descending|decreasing|highest first|largest first|most recent first|from (the )?(highest|largest|most|newest|latest)\b)/i],
  ["compare", /\b(more|less|greater|fewer|larger|smaller|higher|lower|above|below|at least|at most|older|younger|longer|shorter|than|before|after|between)\b/i],
  ["negation", /\b(not|no|without|never|neither|nor|except)\b|n't\b/i],
  ["ask", /^\s*(is|are|was|were|does|do|did|has|have|had|can)\b/i],
  // a count of different values; "the distinct names" alone is a listing
  ["distinct", /\b(how many|numbers? of|count of)\s+(distinct|different|unique)\b/i],
];

/**
 * The features a question's words ask for. `schemaWord` tells a word of the KG's class and predicate names: written
 * with a capital inside the question ("the day Numbers") it names a column, not a value.
 */
export function questionShape(question: string, schemaWord: (word: string) => boolean = () => false): Set<ShapeFeature> {
  const out = new Set(QUESTION_CUES.filter(([, re]) => re.test(question)).map(([f]) => f));
  // "the stadium with the maximum capacity" asks for a thing at the top, not for the maximum itself
  if (/\b(with|has|have|had) (the )?(maximum|minimum|max|min)\b/i.test(question)) {
    out.add("superlative");
    if (!/\b(average|mean|total|sum)\b/i.test(question)) out.delete("aggregate");
  }
  const rest = question.trim().replace(/^\S+\s*/, "");
  const names = capitalisedValues(question, schemaWord);
  if (/\d|["“”]|(^|\s)'[^']+'/u.test(` ${rest}`) || names.length > 0) out.add("value");
  // a number on its own ("customer 10", "after 2015"), not a code that holds digits
  if (/(^|[\s(])[-+]?\d+([.,:]\d+)*(?=[\s?.!,;)]|$)/.test(rest)) out.add("number");
  // two values named ("the comets of Orla seen from Vela") ask for a query that holds two constants
  if (valueMentions(question, schemaWord) >= 2) out.add("values");
  return out;
}

const NAME_PARTICLES = /^(of|the|de|la|le|du|da|del|der|den|van|von|di|y|&)$/;
/** How many values a question names: each quoted text, number, and run of capitalised value words counts once. */
function valueMentions(question: string, schemaWord: (word: string) => boolean): number {
  const quoted = question.match(/["“][^"“”]*["”]|(^|\s)'[^']+'/gu) ?? [];
  const rest = question.replace(/["“][^"“”]*["”]|(^|\s)'[^']+'/gu, " , ");
  const numbers = rest.match(/(^|[\s(])[-+]?\d+([.,:]\d+)*(?=[\s?.!,;)]|$)/g) ?? [];
  const names = new Set(capitalisedValues(rest, schemaWord));
  const words = rest.trim().split(/\s+/);
  let runs = 0;
  words.forEach((w, i) => {
    // one name may hold a particle between its capitalised words ("Vale of Orla", "Nova de Vela")
    const joined = i > 0 && (names.has(words[i - 1]) || (i > 1 && NAME_PARTICLES.test(words[i - 1]) && names.has(words[i - 2])));
    if (names.has(w) && !joined) runs++;
  });
  return quoted.length + numbers.length + runs;
}

/**
 * The capitalised words of a question that name values: not the first word of a sentence ("… by type? List the type
 * and …") and no word of the KG's class and predicate names.
 */
export function capitalisedValues(question: string, schemaWord: (word: string) => boolean = () => false): string[] {
  const words = question.trim().split(/\s+/);
  return words.filter((w, i) => i > 0 && !/[.?!:]$/.test(words[i - 1]) && /^\p{Lu}/u.test(w) && !schemaWord(w.replace(/[^\p{L}\p{N}]+/gu, "")));
}

const read = new Map<string, { shape: Set<ShapeFeature>; names: string[] }>();
const SHAPE_CACHE = 20_000;

function readQuery(sparql: string): { shape: Set<ShapeFeature>; names: string[] } {
  const known = read.get(sparql);
  if (known) return known;
  const shape = operatorShape(sparql);
  const template = queryTemplate(sparql) ?? "";
  if (/<IRI>|\b(STR|NUM|DATE|BOOL|LIT)\b/.test(template)) shape.add("value");
  if (/\b(NUM|DATE)\b/.test(template)) shape.add("number");
  if ((template.match(/<IRI>|\b(STR|NUM|DATE|BOOL|LIT)\b/g) ?? []).length >= 2) shape.add("values");
  // the template keeps classes and predicates and turns individuals into <IRI>: their names are the KG's schema words
  const names = [...template.matchAll(/<([^<>\s]+)>/g)]
    .map((m) => m[1])
    .filter((iri) => iri !== "IRI" && !STANDARD.some((ns) => iri.startsWith(ns)))
    .map((iri) => iri.slice(Math.max(iri.lastIndexOf("#"), iri.lastIndexOf("/")) + 1));
  if (read.size >= SHAPE_CACHE) read.clear();
  const out = { shape, names };
  read.set(sparql, out);
  return out;
}

/** The features of a query, from its operators (comments and string literals aside); cached per query text. */
export function queryShape(sparql: string): Set<ShapeFeature> {
  return readQuery(sparql).shape;
}

/** The local names of the classes and predicates a query names ("booking_status", "Switch.normalOpen"). */
export function querySchemaNames(sparql: string): string[] {
  return readQuery(sparql).names;
}

function operatorShape(sparql: string): Set<ShapeFeature> {
  const q = sparql
    .replace(/#[^\n]*/g, " ")
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/^\s*(PREFIX|BASE)[^\n]*\n/gim, "");
  const out = new Set<ShapeFeature>();
  if (/\bCOUNT\s*\(/i.test(q)) out.add("count");
  if (/\bGROUP\s+BY\b/i.test(q)) out.add("group");
  if (/\b(AVG|SUM|MAX|MIN)\s*\(/i.test(q)) out.add("aggregate");
  const ordered = /\bORDER\s+BY\b/i.test(q);
  if (ordered && /\bLIMIT\s+\d+/i.test(q)) out.add("superlative");
  else if (ordered) {
    out.add("order");
    if (sortedByUnlisted(q)) out.add("sortKey");
    if (/\bORDER\s+BY\s+DESC\b/i.test(q)) out.add("descending");
  }
  if (/FILTER\s*\([^)]*[<>]/i.test(q) || /\bHAVING\b/i.test(q)) out.add("compare");
  if (/\b(NOT\s+EXISTS|MINUS)\b/i.test(q)) out.add("negation");
  if (/^\s*ASK\b/i.test(q)) out.add("ask");
  // distinct values counted, not things: the counted variable is the object of a triple ("how many different colours")
  const counted = /\bCOUNT\s*\(\s*DISTINCT\s+\?(\w+)\s*\)/i.exec(q)?.[1];
  const body = q.slice(q.search(/\bWHERE\b/i) + 5);
  if (counted && !/\bGROUP\s+BY\b/i.test(q) && new RegExp(`[\\w:>]\\s+\\?${counted}\\b`).test(body)) out.add("distinct");
  return out;
}

/** The first ORDER BY key is a variable the query does not project (sorted by one column, listing another). */
function sortedByUnlisted(q: string): boolean {
  const key = /\bORDER\s+BY\s+(?:(?:ASC|DESC)\s*\(\s*)?\?(\w+)/i.exec(q)?.[1];
  const head = /\bSELECT\b([\s\S]*?)\bWHERE\b/i.exec(q)?.[1] ?? "";
  if (!key || /^\s*(DISTINCT\s+|REDUCED\s+)?\*/i.test(head)) return false;
  return !new RegExp(`\\?${key}\\b`).test(head);
}

/** Agreement of two shapes in [-1, 1]: features both have count for, features only one has against. */
export function shapeAgreement(asked: Set<ShapeFeature>, example: Set<ShapeFeature>): number {
  let agree = 0;
  let differ = 0;
  for (const f of new Set([...asked, ...example])) {
    // a value written in lower case has no cue ("gates of kind or"): a question without one says nothing either way
    if (f === "value" && !asked.has(f)) continue;
    // a number or a name: which kind of value, only where the question names one
    if (f === "number" && !asked.has("value")) continue;
    if (f === "values" && !asked.has("value")) continue;
    if (asked.has(f) && example.has(f)) agree++;
    else differ++;
  }
  return agree + differ === 0 ? 0 : (agree - differ) / (agree + differ);
}
