// The KG lexicon's in-memory part: every entity, class and property with the names it goes by (from label-like
// predicates and from its IRI's local name), searchable case-, accent- and inflection-insensitively; each hit says
// which of its names matched and where that name came from, so a derivation can show it.
import { LabelIndex, tokenize } from "@/lib/kg/label-index";
import type { NameRole } from "./discover";
import { closeWords, type WordCorrection } from "./fuzzy";
import { localNames, localPart, stem, stemmedText } from "./names";

export type TermKind = "entity" | "class" | "property";

export type NameSource = { kind: "predicate"; predicate: string; role: NameRole } | { kind: "local-name" };

export interface LexiconName {
  text: string;
  lang?: string;
  source: NameSource;
}

export interface LexiconHit {
  iri: string;
  kind: TermKind;
  /** the name that matched the search text */
  matched: LexiconName;
  /** the name to show for the IRI (its best name; may differ from the matched one) */
  display: string;
  /** 0..1, higher is better; 1 = the whole name equals the text (after case, accent and inflection folding) */
  score: number;
  /** the match needed stemming ("played" for "plays") */
  stemmed: boolean;
}

export interface LexiconSearchOptions {
  limit: number;
  /** kinds searched (all by default) */
  kinds?: TermKind[];
}

/**
 * Rank of a name's source for display and ties: labels, then discovered names (in the order discovered: name-words
 * such as "…name" first), then local names, then ids.
 */
function sourceRank(s: NameSource, order: Map<string, number>): number {
  if (s.kind === "local-name") return 2;
  const within = Math.min(0.9, (order.get(s.predicate) ?? 0) / 100);
  return (s.role === "label" ? 0 : s.role === "name" ? 1 : 3) + within;
}

/** "local name" or the predicate that gave the name (for derivations and tool outputs). */
export function describeSource(s: NameSource, show: (iri: string) => string = (v) => `<${v}>`): string {
  return s.kind === "local-name" ? "IRI local name" : show(s.predicate);
}

const MAX_SCORE = 300;
/** A single word with a digit, 6+ letters/digits: may be an id's start. */
const ID_PREFIX = /^(?=[\p{L}\d_-]*\d)[\p{L}\d][\p{L}\d_-]{5,}$/u;
/** Score of a hit whose id starts with the searched text (below a whole-name match, above the strong-match bar). */
const ID_PREFIX_SCORE = 0.9;
const KIND_BIT: Record<TermKind, number> = { entity: 1, class: 2, property: 4 };
const KINDS: TermKind[] = ["entity", "class", "property"];
/** One source object for every local name (a lexicon holds hundreds of thousands of names). */
const LOCAL_NAME: NameSource = { kind: "local-name" };

export class Lexicon {
  private readonly names = new Map<string, LexiconName[]>();
  /** kinds of each IRI as a bit set (KIND_BIT): a Set per IRI costs too much on large KGs */
  private readonly kinds = new Map<string, number>();
  private readonly indexes: Record<TermKind, LabelIndex> = { entity: new LabelIndex(), class: new LabelIndex(), property: new LabelIndex() };
  private entries = 0;
  private vocab?: { key: string; uses: Map<string, number> };

  /** @param predicateOrder the name predicates' order of preference (earlier is better) */
  constructor(
    private readonly preferredLanguage = "en",
    private readonly predicateOrder = new Map<string, number>(),
  ) {}

  /** Names indexed (each name counts once, its stemmed form aside). */
  get size(): number {
    return this.entries;
  }

  /** IRIs that have at least one name. */
  get terms(): number {
    return this.names.size;
  }

  count(kind: TermKind): number {
    let n = 0;
    for (const k of this.kinds.values()) if (k & KIND_BIT[kind]) n++;
    return n;
  }

  /** Registers an IRI as a term of `kind` and indexes its local names (none for opaque IRIs). */
  addTerm(value: string, kind: TermKind): void {
    const known = this.kinds.get(value);
    if (known !== undefined && known & KIND_BIT[kind]) return;
    this.kinds.set(value, (known ?? 0) | KIND_BIT[kind]);
    // the names it already has go into this kind's index too
    for (const n of this.names.get(value) ?? []) this.index(value, n, kind);
    if (known === undefined) for (const text of localNames(value)) this.addName(value, { text, source: LOCAL_NAME });
  }

  /** Adds a name for an IRI (an entity unless registered as something else). */
  addName(value: string, name: LexiconName): void {
    const text = name.text.replace(/\s+/g, " ").trim();
    if (!text || text.length > 300) return;
    // first seen through a name: an entity, with its local names too
    if (!this.kinds.has(value)) this.addTerm(value, "entity");
    const list = this.names.get(value) ?? [];
    if (list.some((n) => n.text === text && n.lang === name.lang)) return;
    const entry: LexiconName = name.lang ? { text, lang: name.lang, source: name.source } : { text, source: name.source };
    list.push(entry);
    this.names.set(value, list);
    const bits = this.kinds.get(value) ?? 0;
    for (const kind of KINDS) if (bits & KIND_BIT[kind]) this.index(value, entry, kind);
    this.entries++;
  }

  private index(value: string, name: LexiconName, kind: TermKind): void {
    const idx = this.indexes[kind];
    idx.add(value, name.text, name.lang);
    // the stemmed form only when stemming changed a word ("plays in club" → "play in club")
    const stemmed = stemmedText(name.text);
    if (stemmed && stemmed !== tokenize(name.text).join(" ")) idx.add(value, stemmed, name.lang);
  }

  /** Every name of an IRI, best first; an IRI the lexicon never saw still gets its local names. */
  namesOf(value: string): LexiconName[] {
    const list = this.names.get(value);
    if (!list) return localNames(value).map((text) => ({ text, source: LOCAL_NAME }));
    return [...list].sort((a, b) => sourceRank(a.source, this.predicateOrder) - sourceRank(b.source, this.predicateOrder) || this.langRank(a.lang) - this.langRank(b.lang));
  }

  /** The best name to show for an IRI, or undefined when it has none (an opaque IRI without a name literal). */
  displayName(value: string): string | undefined {
    return this.namesOf(value)[0]?.text;
  }

  kindsOf(value: string): TermKind[] {
    const bits = this.kinds.get(value) ?? 0;
    return KINDS.filter((k) => bits & KIND_BIT[k]);
  }

  /** The name an index hit's text stands for: the name itself, or the name whose stemmed form it is. */
  private nameForHit(value: string, indexed: string): { name: LexiconName; stemmed: boolean } | undefined {
    const list = this.names.get(value) ?? [];
    const exact = list.find((n) => n.text === indexed);
    if (exact) return { name: exact, stemmed: false };
    const stemmed = list.find((n) => stemmedText(n.text) === indexed);
    return stemmed ? { name: stemmed, stemmed: true } : undefined;
  }

  /** Terms with a name or IRI local part that starts with `prefix` and breaks there (end, or a "-", "_", "." …). */
  private idPrefixHits(prefix: string, kinds: TermKind[], limit: number): (LexiconHit & { rank: number })[] {
    const p = prefix.toLowerCase();
    const startsId = (name: string) => {
      const n = name.toLowerCase();
      return n.startsWith(p) && (n.length === p.length || /[^\p{L}\d]/u.test(n[p.length]));
    };
    const out: (LexiconHit & { rank: number })[] = [];
    for (const [value, bits] of this.kinds) {
      if (out.length >= limit) break;
      const kind = kinds.find((k) => bits & KIND_BIT[k]);
      if (!kind) continue;
      const named = (this.names.get(value) ?? []).find((n) => startsId(n.text));
      const local = named ? undefined : localPart(value);
      if (!named && !(local && startsId(local))) continue;
      const matched = named ?? { text: local as string, source: LOCAL_NAME };
      const whole = matched.text.length === prefix.length;
      out.push({ iri: value, kind, matched, display: this.displayName(value) ?? matched.text, score: whole ? 1 : ID_PREFIX_SCORE, stemmed: false, rank: (whole ? 1 : ID_PREFIX_SCORE) * 10 - 0.02 });
    }
    return out;
  }

  private langRank(lang: string | undefined): number {
    if (!lang) return 1;
    const l = lang.toLowerCase();
    return l === this.preferredLanguage || l.startsWith(`${this.preferredLanguage}-`) ? 0 : 2;
  }

  /**
   * Terms an id written shortened points to: the IRI's last segment (after `/`, `#` or `:`) or one of its names starts
   * with `prefix`, ignoring case ("7825e759" for `urn:uuid:7825e759-…`). A scan: for id-like texts only (the caller's
   * test); at most `limit` IRIs, in the lexicon's order.
   */
  searchIdPrefix(prefix: string, limit: number): { iri: string; matched: LexiconName | "iri" }[] {
    const p = prefix.trim().toLowerCase();
    const out: { iri: string; matched: LexiconName | "iri" }[] = [];
    if (!p) return out;
    for (const value of this.kinds.keys()) {
      if (out.length >= limit) break;
      const last = value.slice(Math.max(value.lastIndexOf("/"), value.lastIndexOf("#"), value.lastIndexOf(":")) + 1).toLowerCase();
      if (last.startsWith(p)) {
        out.push({ iri: value, matched: "iri" });
        continue;
      }
      const name = this.names.get(value)?.find((n) => n.text.toLowerCase().startsWith(p));
      if (name) out.push({ iri: value, matched: name });
    }
    return out;
  }

  /**
   * The text with each word no name uses replaced by the closest word the names of `kinds` use (see fuzzy.ts), and
   * those corrections; undefined when no word needed or found one. The caller searches the corrected text and says
   * the match was approximate.
   */
  correctWords(text: string, kinds: TermKind[] = KINDS): { text: string; corrections: WordCorrection[] } | undefined {
    const words = tokenize(text).slice(0, 12);
    const indexes = kinds.map((k) => this.indexes[k]);
    const known = (w: string) => indexes.some((idx) => idx.hasToken(w) || idx.hasToken(stem(w)));
    // the words and their uses, kept until a name is added (a large lexicon has hundreds of thousands of words)
    const vocabulary = () => {
      const key = `${kinds.join(",")} ${this.entries}`;
      if (this.vocab?.key === key) return this.vocab.uses;
      const uses = new Map<string, number>();
      for (const idx of indexes) for (const [t, n] of idx.tokenUses()) uses.set(t, (uses.get(t) ?? 0) + n);
      this.vocab = { key, uses };
      return uses;
    };
    let vocab: Map<string, number> | undefined;
    const corrections: WordCorrection[] = [];
    const out = words.map((w) => {
      if (known(w)) return w;
      vocab ??= vocabulary();
      const c = closeWords(w, vocab, known, 1)[0];
      if (!c) return w;
      corrections.push(c);
      return c.matched;
    });
    return corrections.length ? { text: out.join(" "), corrections } : undefined;
  }

  /**
   * Terms whose names match `text`: the text as typed and its stemmed form are both looked up; one hit per IRI and
   * kind, its best-matching name reported.
   */
  search(text: string, options: LexiconSearchOptions): LexiconHit[] {
    const limit = Math.max(0, Math.floor(options.limit));
    if (limit === 0 || !text.trim()) return [];
    const kinds = options.kinds ?? (["entity", "class", "property"] as TermKind[]);
    const queries = [...new Set([text, stemmedText(text)])].filter(Boolean);
    const best = new Map<string, LexiconHit & { rank: number }>();
    for (const kind of kinds) {
      for (const q of queries) {
        for (const h of this.indexes[kind].search(q, { limit: limit * 2, preferLanguage: this.preferredLanguage })) {
          const found = this.nameForHit(h.iri, h.label);
          if (!found) continue;
          const score = Math.min(1, h.score / MAX_SCORE);
          const rank = score * 10 - sourceRank(found.name.source, this.predicateOrder) * 0.01 - (found.stemmed ? 0.005 : 0);
          const key = `${kind} ${h.iri}`;
          const prev = best.get(key);
          if (prev && prev.rank >= rank) continue;
          best.set(key, { iri: h.iri, kind, matched: found.name, display: this.displayName(h.iri) ?? found.name.text, score, stemmed: found.stemmed, rank });
        }
      }
    }
    // an id quoted by its start ("f1769624" for "f1769624-9aeb-…"), as people quote hashes and GUIDs
    if (ID_PREFIX.test(text.trim())) {
      for (const h of this.idPrefixHits(text.trim(), kinds, limit)) {
        const key = `${h.kind} ${h.iri}`;
        const prev = best.get(key);
        if (!prev || prev.rank < h.rank) best.set(key, h);
      }
    }
    return [...best.values()]
      .sort((a, b) => b.rank - a.rank || a.display.length - b.display.length)
      .slice(0, limit)
      .map(({ rank: _rank, ...hit }) => hit);
  }
}
