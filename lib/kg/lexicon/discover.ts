// Which literal-valued predicates name their subjects, found from the data rather than only the profile's list: short
// text values, about one per subject, mostly distinct across subjects (names, titles, codes), unlike descriptions
// (long), categories (repeated) or measurements (numbers, dates). Bounded: a LIMITed sample of triples finds the
// candidates, a LIMITed sample of each candidate's values decides.
import { iri, isSafeIri } from "@/lib/kg/escape";
import type { Bindings, KgProfile } from "@/lib/kg/types";
import { localPart, splitWords } from "./names";

/** Runs one bounded SELECT and returns its rows; the caller reports it to the trace. */
export type LexiconSelect = (purpose: string, sparql: string) => Promise<Bindings[]>;

/** label: a profile label predicate; name: discovered, its values read as names; id: discovered, its values are codes. */
export type NameRole = "label" | "name" | "id";

export interface NamePredicate {
  predicate: string;
  role: NameRole;
  /** why it was taken, for the derivation ("profile", or the sample's figures) */
  why: string;
}

export interface DiscoverLimits {
  /** triples sampled to find literal-valued predicates */
  sampleTriples: number;
  /** literal-valued predicates examined (most used first) */
  candidates: number;
  /** values sampled per candidate */
  valuesPerPredicate: number;
}

export const DEFAULT_DISCOVER_LIMITS: DiscoverLimits = { sampleTriples: 200_000, candidates: 80, valuesPerPredicate: 400 };

const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";
const RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";
/** Local names that say "this names its subject": the rule is about the word, in any vocabulary. */
const NAME_WORD = /(^|\s)(name|names|label|labels|title|titles|caption|alias|nickname|designation)$/i;
/** Local names that say "this describes", not "this names". */
const PROSE_WORD = /(^|\s)(description|comment|note|notes|remark|summary|abstract|definition|text)$/i;
/** A number with a fractional part written as text ("43.6047"): a measurement, not an id. */
const DECIMAL = /^[+-]?\d+[.,]\d+$/;
const ID_VALUE = /^(?:[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|[_-]?[0-9a-f-]{12,}|[A-Za-z]{0,3}[-_ ]?\d[\d\s./-]*)$/i;

/** Subjects of a candidate checked for names of their own. */
const SUBJECTS_CHECKED = 50;

/** The predicate's local name ends in a word for a name ("callName", "title", "Object.name"). */
const saysName = (predicate: string) => NAME_WORD.test(splitWords(localPart(predicate)));

export interface ValueStats {
  rows: number;
  subjects: number;
  distinct: number;
  /** share of values that are plain or language-tagged strings */
  textShare: number;
  /** share of values holding a word (two letters in a row) */
  wordShare: number;
  /** share of values shaped like an id (UUID, hex, digits with a short prefix) */
  idShare: number;
  /** share of values that are decimal numbers written as text */
  numberShare: number;
  meanLength: number;
}

export function valueStats(rows: { s: string; value: string; datatype?: string; lang?: string }[]): ValueStats {
  const n = rows.length || 1;
  const subjects = new Set(rows.map((r) => r.s)).size;
  const distinct = new Set(rows.map((r) => r.value.trim().toLowerCase())).size;
  const text = rows.filter((r) => r.lang || !r.datatype || r.datatype === XSD_STRING || r.datatype === RDF_LANG_STRING).length;
  const wordy = rows.filter((r) => /\p{L}{2}/u.test(r.value)).length;
  const ids = rows.filter((r) => ID_VALUE.test(r.value.trim()) && !DECIMAL.test(r.value.trim())).length;
  const numbers = rows.filter((r) => DECIMAL.test(r.value.trim())).length;
  const length = rows.reduce((a, r) => a + r.value.length, 0);
  return { rows: rows.length, subjects, distinct, textShare: text / n, wordShare: wordy / n, idShare: ids / n, numberShare: numbers / n, meanLength: length / n };
}

/** Decides from a value sample whether a predicate names its subjects, and how; undefined when it does not. */
export function classifyPredicate(predicate: string, st: ValueStats): NameRole | undefined {
  if (st.rows === 0 || st.textShare < 0.9 || st.meanLength > 80 || st.numberShare > 0.5) return undefined;
  const perSubject = st.rows / Math.max(1, st.subjects);
  const unique = st.distinct / st.rows;
  if (PROSE_WORD.test(splitWords(localPart(predicate)))) return undefined;
  const nameWord = saysName(predicate);
  // several values per subject are fine for names in several languages or aliases, not for a list of tags
  if (perSubject > (nameWord ? 6 : 3)) return undefined;
  // short numbers in strings ("3", "12") are values, not ids
  if (st.idShare >= 0.8) return unique >= 0.9 && st.rows >= 2 && st.meanLength >= 4 ? "id" : undefined;
  if (st.wordShare < 0.5) return undefined;
  if (nameWord) return unique >= 0.3 ? "name" : undefined;
  // a predicate whose name does not say so must look like a name on a sample big enough to tell it from an attribute
  // that merely varies (on ten subjects, ten countries are all distinct)
  return st.rows >= 20 && unique >= 0.9 && st.meanLength <= 60 ? "name" : undefined;
}

/** The profile's label predicates, then the discovered ones (names before ids, most used first). */
export async function discoverNamePredicates(select: LexiconSelect, profile: Pick<KgProfile, "labelPredicates" | "descriptionPredicates" | "typePredicates">, limits: DiscoverLimits = DEFAULT_DISCOVER_LIMITS): Promise<NamePredicate[]> {
  const out: NamePredicate[] = profile.labelPredicates.filter(isSafeIri).map((p) => ({ predicate: p, role: "label", why: "profile" }));
  const skip = new Set([...profile.labelPredicates, ...profile.descriptionPredicates, ...profile.typePredicates]);
  const counted = await select(
    "lexicon: literal-valued predicates",
    // text values only (plain, xsd:string or language-tagged): numbers and dates never name anything
    `SELECT ?p (COUNT(*) AS ?n) WHERE { { SELECT ?p ?o WHERE { ?s ?p ?o } LIMIT ${limits.sampleTriples} } FILTER(isLiteral(?o) && (DATATYPE(?o) = ${iri(XSD_STRING)} || LANG(?o) != "")) } GROUP BY ?p ORDER BY DESC(?n) LIMIT ${limits.candidates}`,
  );
  const candidates = counted.map((b) => b.p?.value).filter((p): p is string => !!p && isSafeIri(p) && !skip.has(p));
  const found: (Omit<NamePredicate, "role"> & { role: NameRole | "rejected"; order: number; nameWord: boolean; subjects: string[] })[] = [];
  // a few at a time: each is one small query
  for (let i = 0; i < candidates.length; i += 4) {
    const batch = candidates.slice(i, i + 4);
    const samples = await Promise.all(
      batch.map((p) => select(`lexicon: values of ${p}`, `SELECT ?s ?o WHERE { ?s ${iri(p)} ?o . FILTER(isLiteral(?o)) } LIMIT ${limits.valuesPerPredicate}`)),
    );
    batch.forEach((p, j) => {
      const rows = samples[j]
        .filter((b) => b.s && b.o?.type === "literal")
        .map((b) => {
          const o = b.o as { value: string; datatype?: string; "xml:lang"?: string };
          return { s: (b.s as { value: string }).value, value: o.value, datatype: o.datatype, lang: o["xml:lang"] };
        });
      const st = valueStats(rows);
      const role = classifyPredicate(p, st);
      if (role) {
        const why = `${st.rows} values sampled: ${Math.round((st.distinct / Math.max(1, st.rows)) * 100)}% distinct, ${(st.rows / Math.max(1, st.subjects)).toFixed(1)} per subject, ${Math.round(st.meanLength)} characters on average`;
        found.push({ predicate: p, role, why, order: i + j, nameWord: saysName(p), subjects: [...new Set(rows.map((r) => r.s))].slice(0, SUBJECTS_CHECKED) });
      }
    });
  }
  // A text attribute that merely looks like a name (a city, an e-mail address) on things that already have names is
  // an attribute: only subjects without a name of their own take it as their name.
  const names = [...out.map((p) => p.predicate), ...found.filter((f) => f.role === "name" && f.nameWord).map((f) => f.predicate)];
  for (const f of found.filter((x) => x.role === "name" && !x.nameWord)) {
    if (!names.length || !f.subjects.length) continue;
    const named = await select(
      `lexicon: do the subjects of ${f.predicate} have names already?`,
      `SELECT DISTINCT ?s WHERE { VALUES ?s { ${f.subjects.filter(isSafeIri).map(iri).join(" ")} } VALUES ?p { ${names.map(iri).join(" ")} } ?s ?p ?l } LIMIT ${SUBJECTS_CHECKED}`,
    );
    if (named.length >= f.subjects.length / 2) f.role = "rejected";
  }
  found.sort((a, b) => (a.role === b.role ? a.order - b.order : a.role === "name" ? -1 : 1));
  return [...out, ...found.filter((f) => f.role !== "rejected").map(({ predicate, role, why }) => ({ predicate, role: role as NameRole, why }))];
}
