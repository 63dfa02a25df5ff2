// Full-text label index (plain JS so the oxigraph worker thread can run it without a TS loader); typed in label-index-core.d.mts.

/** Scores by tier; within a tier, coverage adds up to TIER_SPAN - 1. */
const EXACT = 300;
const ALL_TOKENS = 200;
const ALL_WITH_PREFIX = 150;
const PARTIAL = 100;
const TIER_SPAN = 50;
/** Share of the all-tokens coverage bonus a word matched only as another number ("transistors" ~ "Transistor") earns. */
const FOLDED_WEIGHT = 0.8;
/** Bounds that keep one search cheap whatever the input: prefix expansion and posting lists scanned. */
const MAX_QUERY_TOKENS = 12;
const MAX_PREFIX_TOKENS = 256;
const MAX_POSTINGS_SCANNED = 30_000;

const COMBINING = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const NON_ASCII = /[^\x20-\x7e]/;
/** English possessive "'s" / "’s" after a letter and before a word end ("Brant's" → "Brant"). */
const POSSESSIVE = /(?<=\p{L})['\u2019]s(?![\p{L}\p{N}])/gu;
const ASCII_POSSESSIVE = /(?<=[A-Za-z])'s(?![A-Za-z0-9])/g;

/**
 * Lowercases, folds accents (NFKD, combining marks dropped), drops the English possessive "'s" and splits on anything
 * that is not a letter or digit.
 * @param {string} text
 * @returns {string[]}
 */
export function tokenize(text) {
  if (typeof text !== "string" || text.length === 0) return [];
  // fast path: plain ASCII needs neither Unicode normalisation nor Unicode-aware splitting
  if (!NON_ASCII.test(text)) {
    const t = text.includes("'") ? text.replace(ASCII_POSSESSIVE, "") : text;
    return t.toLowerCase().split(ASCII_SEPARATORS).filter((w) => w.length > 0);
  }
  const folded = text.normalize("NFKD").replace(COMBINING, "").replace(POSSESSIVE, "").toLowerCase();
  return folded.split(SEPARATORS).filter((t) => t.length > 0);
}

/** Words ending in "s" that are not plurals, or whose singular is another word ("news" is not "new"). */
const NOT_PLURAL = new Set(["news", "means", "series", "species", "always", "perhaps", "whereas", "towards", "afterwards", "lens", "canvas", "atlas", "bias", "alias", "chaos", "physics", "mathematics", "economics", "politics", "ethics"]);
/** Shortest singular folding may produce: "us" → "u" or "ms" → "m" would join unrelated tokens. */
const MIN_STEM = 3;
const HAS_DIGIT = /[0-9]/;

/**
 * Singular forms a token may be the English plural of (light, rule-based: no dictionary): "batteries" → battery,
 * "switches" → switch|switche, "cases" → cas|case, "transistors" → transistor. Empty when the token does not look
 * plural ("bus", "class", "analysis", "ms", "m558s"). Index and query both use it, so the junk forms
 * ("switche", "cas") only ever meet each other.
 * @param {string} t a token from tokenize()
 * @returns {string[]}
 */
export function singulars(t) {
  const len = t.length;
  if (len < MIN_STEM + 1 || t.charCodeAt(len - 1) !== 115 /* s */ || NOT_PLURAL.has(t) || HAS_DIGIT.test(t)) return [];
  const c2 = t[len - 2];
  if (c2 === "s" || c2 === "u" || c2 === "i") {
    // -ss (class), -us (bus, status), -is (analysis): not plurals; "-sses" is handled below via "es"
    return [];
  }
  if (c2 === "e") {
    if (t[len - 3] === "i") {
      // batteries → battery|batterie, flies → fly|flie, cookies → cooky|cookie; ties → tie ("ty" is too short)
      return len >= MIN_STEM + 2 ? [`${t.slice(0, -3)}y`, t.slice(0, -1)] : [t.slice(0, -1)];
    }
    const c3 = t[len - 3];
    const c4 = t[len - 4];
    // -es after s/x/z/ch/sh/o: the singular either drops "es" (boxes, switches, buses) or just "s" (cases, niches, shoes)
    if (c3 === "s" || c3 === "x" || c3 === "z" || c3 === "o" || (c3 === "h" && (c4 === "c" || c4 === "s"))) {
      const stem = t.slice(0, -2);
      return stem.length >= MIN_STEM ? [stem, t.slice(0, -1)] : [t.slice(0, -1)];
    }
  }
  return [t.slice(0, -1)];
}

/**
 * @param {string | undefined} lang
 * @param {string | undefined} wanted
 */
function langAccepted(lang, wanted) {
  if (!wanted || !lang) return true;
  const l = lang.toLowerCase();
  const w = wanted.toLowerCase();
  return l === w || l.startsWith(`${w}-`);
}

export class LabelIndex {
  constructor() {
    /** @type {string[]} */ this.iris = [];
    /** @type {string[]} */ this.labels = [];
    /** @type {(string | undefined)[]} */ this.langs = [];
    /** @type {number[]} */ this.tokenCounts = [];
    /** @type {Map<string, number[]>} token -> entry ids */
    this.postings = new Map();
    /** @type {Map<string, number[]>} singular form -> ids of labels holding a plural of it ("transistor" -> "Transistors") */
    this.plurals = new Map();
    /** @type {Map<string, number[]>} normalised full label -> entry ids */
    this.exact = new Map();
    /** @type {string[] | null} sorted distinct tokens, rebuilt lazily after adds (for prefix search) */
    this.sortedTokens = null;
    /** @type {Uint8Array | null} */ this.matched = null;
    /** @type {Uint8Array | null} */ this.exactCount = null;
    /** @type {Uint8Array | null} */ this.foldCount = null;
    /** @type {Int32Array | null} */ this.stamp = null;
    this.stampCounter = 0;
  }

  /** Number of labels indexed. */
  get size() {
    return this.labels.length;
  }

  /**
   * @param {string} iri
   * @param {string} label
   * @param {string} [lang]
   */
  add(iri, label, lang) {
    const tokens = tokenize(label);
    if (tokens.length === 0) return;
    const id = this.labels.length;
    this.iris.push(iri);
    this.labels.push(label);
    this.langs.push(lang || undefined);
    this.tokenCounts.push(tokens.length);
    const key = tokens.join(" ");
    const ex = this.exact.get(key);
    if (ex) ex.push(id);
    else this.exact.set(key, [id]);
    let prev = "";
    for (const t of tokens.length > 1 ? [...new Set(tokens)] : tokens) {
      if (t === prev) continue;
      prev = t;
      const list = this.postings.get(t);
      if (list) list.push(id);
      else this.postings.set(t, [id]);
      for (const sg of singulars(t)) {
        const pl = this.plurals.get(sg);
        // a label may hold two plurals of one singular ("box boxes"): one entry is enough
        if (!pl) this.plurals.set(sg, [id]);
        else if (pl[pl.length - 1] !== id) pl.push(id);
      }
    }
    this.sortedTokens = null;
  }

  /**
   * Distinct indexed tokens with the number of labels holding each (typo-tolerant search scans them).
   * @returns {IterableIterator<[string, number]>}
   */
  *tokenUses() {
    for (const [t, ids] of this.postings) yield [t, ids.length];
  }

  /**
   * True when some label holds the token, as typed or as another number of it ("transistors" for "transistor").
   * @param {string} token
   */
  hasToken(token) {
    return this.postings.has(token) || this.plurals.has(token) || singulars(token).some((s) => this.postings.has(s) || this.plurals.has(s));
  }

  /** @returns {string[]} */
  tokensSorted() {
    if (!this.sortedTokens) this.sortedTokens = [...this.postings.keys()].sort();
    return this.sortedTokens;
  }

  /**
   * Distinct indexed tokens starting with `prefix` (the token itself excluded), at most MAX_PREFIX_TOKENS.
   * @param {string} prefix
   * @returns {string[]}
   */
  expandPrefix(prefix) {
    const sorted = this.tokensSorted();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    /** @type {string[]} */
    const out = [];
    for (let i = lo; i < sorted.length && out.length < MAX_PREFIX_TOKENS; i++) {
      const t = sorted[i];
      if (!t.startsWith(prefix)) break;
      if (t !== prefix) out.push(t);
    }
    return out;
  }

  /**
   * Exact label match first, then labels holding all query tokens (as typed, then some only as singular/plural), then
   * partial/prefix matches; ties go to shorter labels.
   * One hit per IRI (its best label).
   * @param {string} text
   * `language` filters (untagged labels always pass); `preferLanguage` only breaks ties in favour of that language.
   * @param {{ limit: number, language?: string, preferLanguage?: string }} options
   * @returns {{ iri: string, label: string, lang?: string, score: number }[]}
   */
  search(text, options) {
    const limit = Math.max(0, Math.floor(options?.limit ?? 10));
    const language = options?.language;
    const prefer = options?.preferLanguage;
    const allTokens = tokenize(text);
    const qTokens = [...new Set(allTokens)].slice(0, MAX_QUERY_TOKENS);
    const size = this.labels.length;
    if (limit === 0 || qTokens.length === 0 || size === 0) return [];
    const n = qTokens.length;
    this.ensureScratch(size);
    const matched = /** @type {Uint8Array} */ (this.matched);
    const exactCount = /** @type {Uint8Array} */ (this.exactCount);
    const foldCount = /** @type {Uint8Array} */ (this.foldCount);
    const stamp = /** @type {Int32Array} */ (this.stamp);
    /** @type {number[]} ids touched by this search, to reset the scratch arrays afterwards */
    const touched = [];

    // Pass 1, per query token: ids holding the token itself, then (same stamp, so counted once) ids holding another
    // number of it: its singulars ("transistors" -> transistor) and labels whose plural folds to it or to a singular.
    let scanned = 0;
    let allTokenHits = 0;
    let mark = 0;
    for (let qi = 0; qi < n; qi++) {
      const q = qTokens[qi];
      mark = ++this.stampCounter;
      const own = this.postings.get(q);
      if (own) {
        scanned += own.length;
        for (const id of own) {
          stamp[id] = mark;
          if (matched[id] === 0) touched.push(id);
          matched[id]++;
          if (++exactCount[id] + foldCount[id] === n) allTokenHits++;
        }
      }
      const sg = singulars(q);
      /** @type {(number[] | undefined)[]} */
      const lists = [this.plurals.get(q)];
      for (const f of sg) lists.push(this.postings.get(f), this.plurals.get(f));
      for (const list of lists) {
        if (!list || scanned > MAX_POSTINGS_SCANNED) continue;
        scanned += list.length;
        for (const id of list) {
          if (stamp[id] === mark) continue;
          stamp[id] = mark;
          if (matched[id] === 0) touched.push(id);
          matched[id]++;
          if (exactCount[id] + ++foldCount[id] === n) allTokenHits++;
        }
      }
    }
    const k = limit * 4 + 16;
    // Pass 2, prefixes (as when still typing), only when the better tiers cannot fill the result on their own.
    // Only the last query word is taken as a prefix (the user may still be typing it); earlier words must match whole.
    // It reuses that word's stamp, so a label already matched by the word itself or its singular is not counted twice.
    const last = qTokens[n - 1];
    // a one-letter prefix matches half the index: not selective enough to be worth it
    if (allTokenHits < k && !(last.length < 2 && last.charCodeAt(0) <= 0x7f)) {
      for (const t of this.expandPrefix(last)) {
        if (scanned > MAX_POSTINGS_SCANNED) break;
        const list = /** @type {number[]} */ (this.postings.get(t));
        scanned += list.length;
        for (const id of list) {
          if (stamp[id] === mark) continue;
          if (matched[id] === 0) touched.push(id);
          stamp[id] = mark;
          matched[id]++;
        }
      }
    }

    /** @type {Set<number>} */
    const exactIds = new Set(this.exact.get(qTokens.join(" ")) ?? []);
    for (const id of this.exact.get(allTokens.join(" ")) ?? []) exactIds.add(id);

    // Keep the best K candidates in a min-heap keyed by (score, then shorter label); K leaves room for IRI duplicates.
    const heap = new MinHeap(k);
    const consider = (/** @type {number} */ id, /** @type {number} */ s) => {
      if (!langAccepted(this.langs[id], language)) return;
      const lang = this.langs[id];
      const preferred = prefer && lang && langAccepted(lang, prefer) ? 1 : 0;
      // key orders by score, then preferred language, then shorter label
      heap.offer(Math.round(s * 1000) * 2e5 + preferred * 1e5 - Math.min(this.labels[id].length, 99_999), id);
    };
    for (const id of exactIds) consider(id, EXACT);
    for (const id of touched) {
      const m = matched[id];
      const ex = exactCount[id];
      const fo = foldCount[id];
      matched[id] = 0;
      exactCount[id] = 0;
      foldCount[id] = 0;
      if (exactIds.has(id)) continue;
      // coverage: share of the label's tokens the query accounts for (fewer extra words rank higher)
      const coverage = Math.min(1, n / this.tokenCounts[id]);
      let s;
      if (ex === n) s = ALL_TOKENS + (TIER_SPAN - 1) * coverage;
      // every word matched, some only as singular/plural: in the same tier, a little below the same label matched as typed
      else if (ex + fo === n) s = ALL_TOKENS + (TIER_SPAN - 1) * coverage * (FOLDED_WEIGHT + ((1 - FOLDED_WEIGHT) * ex) / n);
      else if (m === n) s = ALL_WITH_PREFIX + (TIER_SPAN - 1) * coverage * (0.5 + (0.5 * ex) / n);
      else s = PARTIAL + (TIER_SPAN - 1) * ((m + ex) / (2 * n)) * coverage;
      consider(id, s);
    }

    const ranked = heap.drainDescending();
    /** @type {{ iri: string, label: string, lang?: string, score: number }[]} */
    const hits = [];
    const seenIri = new Set();
    for (const { key, id } of ranked) {
      const iri = this.iris[id];
      if (seenIri.has(iri)) continue;
      seenIri.add(iri);
      const lang = this.langs[id];
      // label length is at least 1, so key / 2e5 stays strictly within half a unit of the scaled score
      const score = Math.round(key / 2e5) / 1000;
      hits.push(lang ? { iri, label: this.labels[id], lang, score } : { iri, label: this.labels[id], score });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  /** Scratch arrays sized to the index, reused across searches (no per-search allocation proportional to hits). */
  ensureScratch(/** @type {number} */ size) {
    if (this.matched && this.matched.length >= size) return;
    const cap = Math.max(1024, size * 2);
    this.matched = new Uint8Array(cap);
    this.exactCount = new Uint8Array(cap);
    this.foldCount = new Uint8Array(cap);
    this.stamp = new Int32Array(cap);
    this.stampCounter = 0;
  }
}

/** Bounded min-heap of (key, id): keeps the `cap` largest keys; ties broken by smaller id (insertion order). */
class MinHeap {
  constructor(/** @type {number} */ cap) {
    this.cap = cap;
    /** @type {number[]} */ this.keys = [];
    /** @type {number[]} */ this.ids = [];
  }

  /** a ranks below b */
  less(/** @type {number} */ i, /** @type {number} */ j) {
    return this.keys[i] < this.keys[j] || (this.keys[i] === this.keys[j] && this.ids[i] > this.ids[j]);
  }

  swap(/** @type {number} */ i, /** @type {number} */ j) {
    const k = this.keys[i];
    this.keys[i] = this.keys[j];
    this.keys[j] = k;
    const d = this.ids[i];
    this.ids[i] = this.ids[j];
    this.ids[j] = d;
  }

  offer(/** @type {number} */ key, /** @type {number} */ id) {
    const len = this.keys.length;
    if (len < this.cap) {
      this.keys.push(key);
      this.ids.push(id);
      let i = len;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.less(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (key < this.keys[0] || (key === this.keys[0] && id > this.ids[0])) return;
    this.keys[0] = key;
    this.ids[0] = id;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < len && this.less(l, m)) m = l;
      if (r < len && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  /** @returns {{ key: number, id: number }[]} best first */
  drainDescending() {
    const out = this.keys.map((key, i) => ({ key, id: this.ids[i] }));
    return out.sort((a, b) => b.key - a.key || a.id - b.id);
  }
}
