// Built-in lexical similarity (tokens, stems, relation synonyms, char 3-grams) used when no embedding model loads.
import type { Similarity } from "./types";

export const LEXICAL_NAME = "lexical (tokens, stems, char 3-grams)";

const STOP_WORDS = new Set(
  ("a an the of in on at to for by with from as into onto about and or is are was were be been being has have had " +
    "do does did its it this that these those his her their him them he she they who whom whose which what how " +
    "also any some than then there here s").split(" "),
);

// Irregular forms → lemma(s); the lemmas are then stemmed like any other word.
const IRREGULAR: Record<string, string[]> = {
  born: ["birth", "bear"], bore: ["bear"], borne: ["bear"],
  wrote: ["write"], written: ["write"], writing: ["write"],
  died: ["die", "death"], dies: ["die"], dead: ["death"], deceased: ["death"], dying: ["die"],
  made: ["make"], built: ["build"], won: ["win"], led: ["lead"], ran: ["run"],
  spoke: ["speak"], spoken: ["speak"], began: ["begin"], begun: ["begin"], grew: ["grow"], grown: ["grow"],
  knew: ["know"], known: ["know"], took: ["take"], taken: ["take"], gave: ["give"], given: ["give"],
  sang: ["sing"], sung: ["sing"], held: ["hold"], fought: ["fight"], taught: ["teach"], bought: ["buy"],
  sold: ["sell"], went: ["go"], gone: ["go"], lost: ["lose"], met: ["meet"], paid: ["pay"], drew: ["draw"],
  drawn: ["draw"], flew: ["fly"], thought: ["think"], brought: ["bring"], founding: ["found"],
  children: ["child"], men: ["man"], women: ["woman"], people: ["person"], wives: ["wife"], lives: ["life"],
  publication: ["publish"], production: ["produce"], marriage: ["marry"], education: ["educate"],
  starring: ["star"], starred: ["star"], authored: ["author"],
};

// Compound words often found in predicate names ("birthplace", "deathdate"), split into parts.
const COMPOUNDS: Record<string, string[]> = {
  birthplace: ["birth", "place"], birthdate: ["birth", "date"], birthname: ["birth", "name"],
  deathplace: ["death", "place"], deathdate: ["death", "date"], birthyear: ["birth", "year"],
  deathyear: ["death", "year"], hometown: ["home", "town"], headquarters: ["headquarters"],
  almamater: ["alma", "mater"], runtime: ["run", "time"], homepage: ["home", "page"],
};

// Relation words that mean the same KG relation; a word may sit in several groups ("made").
const SYNONYM_GROUPS: string[][] = [
  ["born", "birth", "bear", "native"],
  ["die", "death", "dead", "deceased", "kill"],
  ["write", "writer", "author", "pen", "novelist", "screenplay"],
  ["play", "act", "actor", "actress", "star", "starring", "cast", "appear", "role", "perform", "performer"],
  ["make", "direct", "director", "film"],
  ["make", "produce", "producer", "production"],
  ["make", "create", "creator", "develop", "developer", "design", "designer", "invent", "inventor", "manufacture", "manufacturer", "build", "builder"],
  ["found", "founder", "establish", "start", "foundation", "cofounder"],
  ["release", "publish", "publication", "publisher", "issue", "launch", "premiere", "air", "out"],
  ["locate", "location", "place", "situate", "where", "based", "headquarters", "site", "city", "country"],
  ["wife", "husband", "spouse", "marry", "partner", "widow"],
  ["child", "son", "daughter", "kid", "offspring"],
  ["parent", "father", "mother"],
  ["sibling", "brother", "sister"],
  ["date", "when", "time", "year", "day"],
  ["own", "owner", "belong", "property"],
  ["work", "employ", "employer", "employee", "job", "occupation", "profession"],
  ["study", "educate", "school", "university", "alma", "graduate", "college"],
  ["member", "join", "belong", "band", "team"],
  ["speak", "language", "tongue"],
  ["citizen", "citizenship", "nationality", "national"],
  ["population", "inhabitant", "resident", "live", "people"],
  ["tall", "height", "high"],
  ["lead", "leader", "head", "president", "govern", "governor", "mayor", "chair", "ceo", "ruler"],
  ["compose", "composer", "music", "score", "song", "songwriter"],
  ["win", "award", "prize", "honour", "honor"],
  ["cost", "budget", "price", "gross", "revenue"],
  ["area", "size", "big", "large"],
  ["long", "length", "duration", "runtime", "run"],
  ["follow", "successor", "succeed", "next", "after", "sequel"],
  ["precede", "predecessor", "before", "prequel", "previous"],
  ["call", "nickname", "alias", "name", "title", "label"],
  ["genre", "type", "kind", "style", "category"],
  ["capital", "seat"],
  ["currency", "money"],
  ["origin", "home", "hometown", "town", "come"],
  ["architect", "design", "build"],
  ["narrate", "narrator", "voice"],
  ["edit", "editor"],
  ["illustrate", "illustrator", "draw", "artist", "paint", "painter"],
  ["sing", "singer", "vocal", "vocalist"],
];

/** Porter-style suffix stripping, compact: plurals, -ed/-ing, a few derivational endings, final e, y→i. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  // plurals and 3rd person
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // past tense / gerund, undoing consonant doubling (starred → star)
  if (w.endsWith("eed")) w = w.length > 4 ? w.slice(0, -1) : w;
  else if (w.endsWith("ied") && w.length > 4) w = w.slice(0, -3) + "y";
  else {
    const m = /^(.*?)(ed|ing)$/.exec(w);
    if (m && m[1].length >= 2 && /[aeiouy]/.test(m[1])) {
      w = m[1];
      if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
    }
  }
  // derivational endings (one pass, longest first)
  if (w.length > 5) {
    if (w.endsWith("ation")) w = w.slice(0, -3); // location → locat
    else if (/[ts]ion$/.test(w)) w = w.slice(0, -3); // direction → direct
    else if (w.endsWith("ment")) w = w.slice(0, -4); // employment → employ
    else if (w.endsWith("age") && w.length > 6) w = w.slice(0, -3); // marriage → marri
  }
  if (w.length >= 6 && /(er|or|ee)$/.test(w)) w = w.slice(0, -2); // founder → found, director → direct
  else if (w.length >= 5 && /[^aeiou](er|or)$/.test(w)) w = w.slice(0, -2); // actor → act
  if (w.length > 4 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  if (w.length > 3 && /[^aeiou]y$/.test(w)) w = w.slice(0, -1) + "i";
  return w;
}

interface TokenInfo {
  stem: string;
  /** stems of irregular lemmas (born → birth, bear) */
  lemmas: Set<string>;
  /** synonym group ids */
  groups: Set<number>;
  /** stems of the words a lexicon relates to this one (and to its lemmas) */
  related: Set<string>;
}

/** Where related words come from: the built-in relation synonym table, an English lexicon (WordNet), both, or none. */
export type Relatedness = "table" | "lexicon" | "both" | "none";

/** Words related to a word (synonyms, derivations, attributes): the part of an English lexicon this file uses. */
export interface RelatedWords {
  related(word: string): ReadonlySet<string>;
}

interface Analysed {
  tokens: TokenInfo[];
  grams: Set<string>;
}

/** Lower-cased word tokens: camelCase, snake_case, kebab-case and digit boundaries split; accents folded; URIs reduced to their local name. */
export function tokenize(text: string): string[] {
  let t = text;
  if (/^[a-z][\w+.-]*:\/\//i.test(t) || /^[a-z][\w-]*:[A-Za-z_]\w*$/.test(t)) t = t.slice(Math.max(t.lastIndexOf("/"), t.lastIndexOf("#"), t.lastIndexOf(":")) + 1);
  t = t.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  t = t
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])(\d)/g, "$1 $2")
    .replace(/(\d)([A-Za-z])/g, "$1 $2");
  return t.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

function buildIndexes(): { groupsByStem: Map<string, Set<number>>; lemmaStems: Map<string, string[]> } {
  const groupsByStem = new Map<string, Set<number>>();
  SYNONYM_GROUPS.forEach((group, id) => {
    for (const word of group) {
      const keys = new Set([stem(word), ...(IRREGULAR[word] ?? []).map(stem)]);
      for (const k of keys) {
        let set = groupsByStem.get(k);
        if (!set) groupsByStem.set(k, (set = new Set()));
        set.add(id);
      }
    }
  });
  const lemmaStems = new Map<string, string[]>();
  for (const [word, lemmas] of Object.entries(IRREGULAR)) lemmaStems.set(word, lemmas.map(stem));
  return { groupsByStem, lemmaStems };
}

function trigrams(words: string[]): Set<string> {
  const grams = new Set<string>();
  for (const w of words) {
    const s = ` ${w} `;
    for (let i = 0; i + 3 <= s.length; i++) grams.add(s.slice(i, i + 3));
  }
  return grams;
}

function tokenMatch(a: TokenInfo, b: TokenInfo): number {
  if (a.stem === b.stem) return 1;
  if (a.lemmas.has(b.stem) || b.lemmas.has(a.stem)) return 0.95;
  for (const l of a.lemmas) if (b.lemmas.has(l)) return 0.95;
  for (const g of a.groups) if (b.groups.has(g)) return 0.8;
  if (a.related.has(b.stem) || b.related.has(a.stem)) return 0.8;
  const [short, long] = a.stem.length <= b.stem.length ? [a.stem, b.stem] : [b.stem, a.stem];
  if (short.length >= 4 && long.startsWith(short)) return 0.7; // founding year ~ foundation
  return 0;
}

function coverage(from: TokenInfo[], to: TokenInfo[]): number {
  if (from.length === 0) return 0;
  let sum = 0;
  for (const a of from) {
    let best = 0;
    for (const b of to) {
      const m = tokenMatch(a, b);
      if (m > best) best = m;
      if (best === 1) break;
    }
    sum += best;
  }
  return sum / from.length;
}

export interface LexicalOptions {
  /** how many analysed strings to keep (predicate labels repeat across questions) */
  cacheSize?: number;
  /** default "table" */
  relatedness?: Relatedness;
  /** the lexicon for relatedness "lexicon" or "both" */
  lexicon?: RelatedWords | null;
}

/** Similarity from token overlap on stems + relation synonyms (weight 0.85) and char 3-gram Dice (0.15); scores in [0, 1]. */
export function createLexicalSimilarity(options: LexicalOptions = {}): Similarity & { score(query: string, candidate: string): number } {
  const { groupsByStem, lemmaStems } = buildIndexes();
  const relatedness = options.relatedness ?? "table";
  const useTable = relatedness === "table" || relatedness === "both";
  const lexicon = relatedness === "lexicon" || relatedness === "both" ? options.lexicon : undefined;
  const cacheSize = options.cacheSize ?? 5000;
  const cache = new Map<string, Analysed>();

  const words = new Map<string, TokenInfo>();
  const info = (word: string): TokenInfo => {
    const known = words.get(word);
    if (known) return known;
    const made = wordInfo(word);
    if (words.size >= cacheSize) words.delete(words.keys().next().value as string);
    words.set(word, made);
    return made;
  };
  const wordInfo = (word: string): TokenInfo => {
    const s = stem(word);
    const lemmas = new Set(lemmaStems.get(word) ?? []);
    const groups = new Set<number>();
    if (useTable) {
      for (const g of groupsByStem.get(s) ?? []) groups.add(g);
      for (const l of lemmas) for (const g of groupsByStem.get(l) ?? []) groups.add(g);
      for (const g of groupsByStem.get(word) ?? []) groups.add(g);
    }
    const related = new Set<string>();
    if (lexicon) for (const w of [word, ...(IRREGULAR[word] ?? [])]) for (const r of lexicon.related(w)) related.add(stem(r));
    related.delete(s);
    return { stem: s, lemmas, groups, related };
  };

  const analyse = (text: string): Analysed => {
    const hit = cache.get(text);
    if (hit) return hit;
    const raw = tokenize(text).flatMap((w) => COMPOUNDS[w] ?? [w]);
    const content = raw.filter((w) => !STOP_WORDS.has(w));
    const words = content.length > 0 ? content : raw; // "of" alone still means something
    const result = { tokens: words.map(info), grams: trigrams(words) };
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(text, result);
    return result;
  };

  const score = (query: string, candidate: string): number => {
    const q = analyse(query);
    const c = analyse(candidate);
    if (q.tokens.length === 0 || c.tokens.length === 0) return 0;
    // recall of the query's words matters most; precision stops long labels winning by containing everything
    const tok = 0.7 * coverage(q.tokens, c.tokens) + 0.3 * coverage(c.tokens, q.tokens);
    let inter = 0;
    for (const g of q.grams) if (c.grams.has(g)) inter++;
    const dice = q.grams.size + c.grams.size === 0 ? 0 : (2 * inter) / (q.grams.size + c.grams.size);
    return 0.85 * tok + 0.15 * dice;
  };

  return {
    kind: "lexical",
    name: LEXICAL_NAME,
    score,
    async scores(query: string, candidates: string[]): Promise<number[]> {
      return candidates.map((c) => score(query, c));
    },
  };
}
