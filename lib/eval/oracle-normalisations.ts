// The reviewed world-knowledge normalisations a question-grounded oracle may apply to the asked question's words (a
// model knows them without reading the KG): number and ordinal words → digits, a superlative → one row, a comparison
// of the options the question lists ("which is older, A or B?") → one row, "percent" → 100, a date in words → ISO,
// and a country's name, adjective or abbreviation → its name in English, in the question's language and its ISO code.
// Written for no benchmark: country names come from the runtime's own ISO 3166 region table (Intl.DisplayNames), the
// adjectives are those of the G20 countries. Each use is logged on the question.
// Cue words (ordinals, superlatives, comparatives) match whole: as listed or in a German ending of the listed form —
// never by a shared stem, which would read "least" into "Lead", "top" into "Tops" or "last" into "Lasting".
import { loadLexicon } from "@/lib/pipeline/ragonite/wordnet";
import { tokens, questionSpan } from "./oracle-grounding-words";

export interface Normalisation {
  kind: "number word" | "ordinal" | "superlative" | "comparison" | "percent" | "date" | "country";
  /** the question's text */
  from: string;
  /** what it stands for */
  to: string;
}

const NUMBER_WORDS: Record<string, number> = {
  // English
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30,
  forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100, thousand: 1000, dozen: 12,
  // German ("ein"/"eine" are articles: left out)
  null: 0, eins: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, elf: 11, zwölf: 12,
  zwanzig: 20, dreißig: 30, vierzig: 40, fünfzig: 50, hundert: 100, tausend: 1000, dutzend: 12,
};

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  erste: 1, zweite: 2, dritte: 3, vierte: 4, fünfte: 5, sechste: 6, siebte: 7, achte: 8, neunte: 9, zehnte: 10,
};

// a superlative in the singular asks for one row (ORDER BY … LIMIT 1)
const SUPERLATIVES = new Set(
  "most least highest lowest largest smallest biggest oldest youngest newest latest earliest last longest shortest best worst fewest greatest top meisten wenigsten höchste niedrigste größte kleinste älteste jüngste neueste letzte längste kürzeste beste".split(" "),
);
// comparatives with no "-er" form to read (English, German); other English ones are read by WordNet (comparative below)
const COMPARATIVES = new Set("more less fewer better worse longer lower mehr weniger besser schlechter".split(" "));
// a question that picks one of the options it lists: which/who … A or B ("Which is older, A or B?", "Wer ist älter, A oder B?")
const CHOOSING = new Set("which who welche welcher welches welchen wer".split(" "));
// after a comparative these compare with a value ("higher than 300"), not among options; before one they make a bound ("two or more")
const THAN = new Set(["than", "als"]);
const OR = new Set(["or", "oder"]);
const PERCENT = new Set(["percent", "percentage", "prozent", "prozentsatz"]);

/** The question's word `word` is the cue `cue`: the same word, or (German) the cue's final -e with a case ending. */
export function isCueWord(cue: string, word: string): boolean {
  return word === cue || (cue.endsWith("e") && word.length === cue.length + 1 && word.startsWith(cue) && /[nrsm]$/.test(word));
}

/** An English comparative read by WordNet: "older", "larger", "higher" (an adjective's -er form, not itself a noun such as "number"). */
function comparative(word: string): boolean {
  if (COMPARATIVES.has(word)) return true;
  if (!/^[a-z]{2,}er$/.test(word)) return false;
  const lexicon = loadLexicon();
  if (!lexicon) return false;
  const bases = lexicon.baseForms(word);
  return bases.some((b) => b.pos === "a" && b.lemma !== word) && !bases.some((b) => b.pos === "n" && b.lemma === word);
}

const MONTHS: Record<string, number> = {
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
  januar: 1, februar: 2, märz: 3, mai: 5, juni: 6, juli: 7, oktober: 10, dezember: 12,
};

// adjectives (English, German stem) of the G20 countries, by ISO code
const ADJECTIVES: Record<string, string[]> = {
  AR: ["Argentine", "Argentinian", "argentinisch"], AU: ["Australian", "australisch"], BR: ["Brazilian", "brasilianisch"],
  CA: ["Canadian", "kanadisch"], CN: ["Chinese", "chinesisch"], FR: ["French", "französisch"], DE: ["German", "deutsch"],
  IN: ["Indian", "indisch"], ID: ["Indonesian", "indonesisch"], IT: ["Italian", "italienisch"], JP: ["Japanese", "japanisch"],
  MX: ["Mexican", "mexikanisch"], RU: ["Russian", "russisch"], SA: ["Saudi", "saudisch"], ZA: ["South African", "südafrikanisch"],
  KR: ["South Korean", "Korean", "südkoreanisch"], TR: ["Turkish", "türkisch"], GB: ["British", "britisch"], US: ["American", "amerikanisch"],
};
// abbreviations that are not the ISO code itself
const ABBREVIATIONS: Record<string, string> = { UK: "GB", USA: "US", UAE: "AE" };

const pad = (n: number) => String(n).padStart(2, "0");

let regionTable: { code: string; names: Map<string, string> }[] | undefined;
/** Every ISO 3166 region the runtime names: code → name per language (en, de, and any other asked for). */
function regions(languages: string[]): { code: string; names: Map<string, string> }[] {
  if (!regionTable) {
    regionTable = [];
    const en = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const name = en.of(code);
        if (name && name !== code && !/unknown/i.test(name)) regionTable.push({ code, names: new Map([["en", name]]) });
      }
    }
  }
  for (const lang of languages) {
    if (regionTable[0]?.names.has(lang)) continue;
    let dn: Intl.DisplayNames;
    try {
      dn = new Intl.DisplayNames([lang], { type: "region", fallback: "code" });
    } catch {
      continue;
    }
    for (const r of regionTable) {
      const name = dn.of(r.code);
      if (name && name !== r.code) r.names.set(lang, name);
    }
  }
  return regionTable;
}

/** "3", "3.0", "03" → "3"; any other text lower-cased. */
export function normaliseNumberText(text: string): string {
  const t = text.trim();
  if (/^[+-]?\d+(\.\d+)?$/.test(t)) return String(Number(t));
  return t.toLowerCase();
}

/** Every reviewed normalisation the question's words allow (its language: a code such as "en" or "de"). */
export function reviewedNormalisations(question: string, language = "en"): Normalisation[] {
  const out: Normalisation[] = [];
  const add = (n: Normalisation) => {
    if (!out.some((x) => x.kind === n.kind && x.from === n.from && x.to === n.to)) out.push(n);
  };
  const ts = tokens(question);
  // the options the question lists: "A or B" (not "two or more"), or "which of A and B"
  const options = ts.some((t, i) => OR.has(t.word) && !comparative(ts[i + 1]?.word ?? "")) || /^\S+ of .+ and /i.test(question.trim());
  const choosing = CHOOSING.has(ts[0]?.word ?? "") && options;
  for (const [i, t] of ts.entries()) {
    const from = question.slice(t.start, t.end);
    // any superlative form after an article: "the cheapest", "die günstigste"
    // (in English a capitalised word after the article is a name: "the Forest Inn", not a superlative)
    const article = ts[i - 1]?.word;
    const name = language !== "de" && /^\p{Lu}/u.test(from);
    if ((article === "the" && /.{3}est$/.test(t.word) && !name) || (["der", "die", "das", "den", "dem"].includes(article ?? "") && /.{3}ste[nr]?$/.test(t.word))) add({ kind: "superlative", from, to: "1" });
    const num = Object.entries(NUMBER_WORDS).find(([w]) => w === t.word);
    if (num) add({ kind: "number word", from, to: String(num[1]) });
    const ord = Object.entries(ORDINALS).find(([w]) => isCueWord(w, t.word));
    if (ord) add({ kind: "ordinal", from, to: String(ord[1]) });
    if ([...SUPERLATIVES].some((w) => isCueWord(w, t.word))) add({ kind: "superlative", from, to: "1" });
    if (choosing && comparative(t.word) && !THAN.has(ts[i + 1]?.word ?? "") && !OR.has(article ?? "")) add({ kind: "comparison", from, to: "1" });
    if (PERCENT.has(t.word)) add({ kind: "percent", from, to: "100" });
  }
  if (question.includes("%")) add({ kind: "percent", from: "%", to: "100" });
  // dates in words: "16 November 2001", "November 16, 2001", "16. November 2001", "November 2001"
  const month = `(${Object.keys(MONTHS).join("|")})`;
  for (const m of question.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|\\.)?\\s+${month}\\s+(\\d{4})\\b`, "giu"))) add({ kind: "date", from: m[0], to: `${m[3]}-${pad(MONTHS[m[2].toLowerCase()])}-${pad(Number(m[1]))}` });
  for (const m of question.matchAll(new RegExp(`\\b${month}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "giu"))) add({ kind: "date", from: m[0], to: `${m[3]}-${pad(MONTHS[m[1].toLowerCase()])}-${pad(Number(m[2]))}` });
  for (const m of question.matchAll(new RegExp(`\\b${month}\\s+(\\d{4})\\b`, "giu"))) add({ kind: "date", from: m[0], to: `${m[2]}-${pad(MONTHS[m[1].toLowerCase()])}` });
  // a year's bounds ("after 2019" → after 2019-12-31, "since 2016" → from 2016-01-01)
  for (const m of question.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)) {
    add({ kind: "date", from: m[0], to: `${m[0]}-01-01` });
    add({ kind: "date", from: m[0], to: `${m[0]}-12-31` });
  }
  // countries: name (any of the languages), adjective, upper-case abbreviation → name per language and ISO code
  const languages = [...new Set(["en", "de", language])];
  const table = regions(languages);
  const country = (code: string, from: string) => {
    const r = table.find((x) => x.code === code);
    if (!r) return;
    for (const name of r.names.values()) if (name.toLowerCase() !== from.toLowerCase()) add({ kind: "country", from, to: name });
    add({ kind: "country", from, to: code });
  };
  for (const r of table) {
    for (const name of r.names.values()) {
      const span = questionSpan(name, question);
      if (span !== null) country(r.code, span);
    }
  }
  for (const [code, adjectives] of Object.entries(ADJECTIVES)) {
    for (const a of adjectives) {
      const span = questionSpan(a, question);
      if (span !== null) country(code, span);
    }
  }
  for (const m of question.matchAll(/\b[A-Z]{2,3}\b/g)) {
    const code = ABBREVIATIONS[m[0]] ?? (m[0].length === 2 ? m[0] : undefined);
    if (code) country(code, m[0]);
  }
  return out;
}

/** The list as written (for the benchmark-vocabulary test and docs): every word it maps. */
export const REVIEWED_WORDS: readonly string[] = [
  ...Object.keys(NUMBER_WORDS),
  ...Object.keys(ORDINALS),
  ...SUPERLATIVES,
  ...COMPARATIVES,
  ...PERCENT,
  ...Object.keys(MONTHS),
  ...Object.values(ADJECTIVES).flat(),
  ...Object.keys(ABBREVIATIONS),
];
