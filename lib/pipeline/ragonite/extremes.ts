// Superlative facts for verbalization: for every class and every numeric or date predicate of its members, which
// member has the highest and the lowest value, in the whole class and within each group of members sharing a
// categorical value (an object or literal that many members share). Text search cannot rank values; a passage that
// says "X has the highest weight among Product with category Y" can be found for "the heaviest Y".
import type { Term } from "@/lib/kg/types";
import { inferSqlType } from "./induce-schema";
import { resourceKey, type KgFacts } from "./kg-facts";
import type { Triple } from "./kg-triples";

export interface ExtremePassage {
  /** the group's value (a category) or the class */
  subject: string;
  label: string;
  text: string;
  /** the facts holding the values (member → value, or member → value node) and the members' links */
  facts: Triple[];
}

export interface ExtremeOptions {
  /** a grouping predicate may have at most this many distinct values among a class's members */
  maxGroups?: number;
  /** and its groups must hold at least this many members on average */
  minGroupSize?: number;
  /** more members than this sharing an extreme value is no extreme worth stating */
  maxTies?: number;
  /** single-valued links stated per member */
  maxLinks?: number;
}

/** facts (besides type and label) a value node may have */
const MAX_VALUE_NODE_FACTS = 2;
const tokensOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

const DEFAULTS: Required<ExtremeOptions> = { maxGroups: 200, minGroupSize: 3, maxTies: 3, maxLinks: 4 };

interface Value {
  n: number;
  shown: string;
  fact: Triple;
  /** the value node's predicate holding the number ("amount" of a price node) */
  via?: string;
}

/** subject → predicate → its one orderable value; a value node (a resource only this subject points at, with one
 *  numeric fact, e.g. a price node with an amount) stands for that number. */
function orderableValues(facts: KgFacts): { values: Map<string, Map<string, Value>>; dates: Set<string>; ranked: Set<string> } {
  const skip = (p: string) => facts.typePredicates.has(p) || facts.labelPredicates.has(p);
  const literalsByPredicate = new Map<string, Term[]>();
  for (const t of facts.triples) {
    if (t.o.type !== "literal" || skip(t.p)) continue;
    const list = literalsByPredicate.get(t.p);
    if (list) list.push(t.o);
    else literalsByPredicate.set(t.p, [t.o]);
  }
  const numeric = new Set<string>();
  const dates = new Set<string>();
  for (const [p, terms] of literalsByPredicate) {
    const type = inferSqlType(terms);
    if (type === "BIGINT" || type === "DOUBLE") numeric.add(p);
    else if (type === "DATE" || type === "TIMESTAMP") dates.add(p);
  }
  const literalValue = (p: string, o: Term): number | undefined => {
    if (numeric.has(p)) return Number(o.value);
    if (dates.has(p)) return Date.parse(o.value);
    return undefined;
  };
  /** the single orderable literal of a value node, if it is one */
  const nodeValue = (key: string): { n: number; via: string; shown: string } | undefined => {
    if ((facts.byObject.get(key) ?? []).length !== 1) return undefined;
    // a value node says little besides its number (a price: amount and currency); an entity says more
    const own = (facts.bySubject.get(key) ?? []).filter((t) => !skip(t.p));
    if (own.length > MAX_VALUE_NODE_FACTS) return undefined;
    const numbers = own.filter((t) => t.o.type === "literal" && literalValue(t.p, t.o) !== undefined);
    if (numbers.length !== 1) return undefined;
    const [t] = numbers;
    return { n: literalValue(t.p, t.o)!, via: t.p, shown: facts.hasLabel(key) ? facts.label(key) : t.o.value };
  };

  const values = new Map<string, Map<string, Value>>();
  const several = new Set<string>();
  const ranked = new Set<string>();
  for (const [s, own] of facts.bySubject) {
    for (const t of own) {
      if (skip(t.p)) continue;
      const key = resourceKey(t.o);
      const node = key ? nodeValue(key) : undefined;
      const n = key ? node?.n : literalValue(t.p, t.o);
      if (n === undefined || !Number.isFinite(n)) continue;
      const id = `${s}\u0001${t.p}`;
      if (several.has(id)) continue;
      const mine = values.get(s) ?? values.set(s, new Map()).get(s)!;
      if (mine.has(t.p)) {
        // several values for one predicate: which one would rank is unclear, so none does
        mine.delete(t.p);
        several.add(id);
        continue;
      }
      mine.set(t.p, { n, shown: node ? node.shown : t.o.value, fact: t, ...(node ? { via: node.via } : {}) });
      ranked.add(t.p);
    }
  }
  return { values, dates, ranked };
}

/** The categorical values of a member: objects and short literals of predicates other than the ranked ones. */
interface GroupKey {
  p: string;
  /** the IRI, or the literal's text */
  value: string;
  shown: string;
  literal: boolean;
}

function groupKeys(facts: KgFacts, subject: string, ranked: Set<string>): GroupKey[] {
  const out: GroupKey[] = [];
  for (const t of facts.bySubject.get(subject) ?? []) {
    if (facts.typePredicates.has(t.p) || facts.labelPredicates.has(t.p) || ranked.has(t.p)) continue;
    const key = resourceKey(t.o);
    if (key) out.push({ p: t.p, value: key, shown: facts.label(key), literal: false });
    else if (t.o.value.length <= 60) out.push({ p: t.p, value: t.o.value, shown: t.o.value, literal: true });
  }
  return out;
}

/** One passage per ranked group and predicate: the members with the lowest and the highest value, each with its
 *  single-valued links (so "who supplies the most reliable X" finds the supplier next to the ranking). */
export function extremePassages(facts: KgFacts, options: ExtremeOptions = {}): ExtremePassage[] {
  const o = { ...DEFAULTS, ...options };
  const { values, dates, ranked } = orderableValues(facts);
  // "has weight" reads "the highest weight"
  const noun = (p: string) => facts.label(p).replace(/^(has|is|was)\s+/i, "");
  const out: ExtremePassage[] = [];

  const members = new Map<string, string[]>();
  for (const [s, classes] of facts.types) for (const c of classes) (members.get(c) ?? members.set(c, []).get(c)!).push(s);

  /** what else a member is linked to, one value per predicate */
  const links = (s: string): { text: string; fact: Triple }[] => {
    const own = facts.bySubject.get(s) ?? [];
    const count = new Map<string, number>();
    for (const t of own) count.set(t.p, (count.get(t.p) ?? 0) + 1);
    return own
      .filter((t) => t.o.type !== "literal" && count.get(t.p) === 1 && !facts.typePredicates.has(t.p) && !ranked.has(t.p))
      .slice(0, o.maxLinks)
      .map((t) => ({ text: `${noun(t.p)} ${facts.label(resourceKey(t.o)!)}`, fact: t }));
  };

  /** a passage per predicate ranked in this group */
  const rank = (group: string[], where: string, about: string) => {
    const byPredicate = new Map<string, { s: string; v: Value }[]>();
    for (const s of group) for (const [p, v] of values.get(s) ?? []) (byPredicate.get(p) ?? byPredicate.set(p, []).get(p)!).push({ s, v });
    for (const [p, list] of byPredicate) {
      if (list.length < 2) continue;
      let [lo, hi] = [Infinity, -Infinity];
      for (const x of list) [lo, hi] = [Math.min(lo, x.v.n), Math.max(hi, x.v.n)];
      if (lo === hi) continue;
      const [low, high] = dates.has(p) ? ["earliest", "latest"] : ["lowest", "highest"];
      // a value node's number is named by both predicates ("price amount"), unless the first one says it all
      const via = list[0].v.via;
      const what = via && !tokensOf(noun(p)).some((w) => tokensOf(noun(via)).includes(w)) ? `${noun(p)} ${noun(via)}` : noun(p);
      const title = `${what} among ${where}`;
      const sentences: string[] = [];
      const stated: Triple[] = [];
      for (const [n, word] of [[lo, low], [hi, high]] as const) {
        const at = list.filter((x) => x.v.n === n);
        if (at.length > o.maxTies) continue;
        for (const { s, v } of at) {
          const l = links(s);
          sentences.push(`${facts.label(s)} has the ${word} ${what} (${v.shown})${l.length ? `; it has ${l.map((x) => x.text).join(", ")}` : ""}.`);
          stated.push(v.fact, ...l.map((x) => x.fact));
        }
      }
      if (stated.length) out.push({ subject: about, label: `${low} and ${high} ${title}`, text: `The ${low} and ${high} ${title}: ${sentences.join(" ")}`, facts: stated });
    }
  };

  for (const [c, group] of members) {
    if (group.length < 2) continue;
    const className = facts.label(c);
    rank(group, `all ${className}`, c);
    // groups by a categorical value: few distinct values, each shared by several members on average
    const groups = new Map<string, GroupKey & { members: string[] }>();
    const distinct = new Map<string, number>();
    const total = new Map<string, number>();
    for (const s of group) {
      for (const g of groupKeys(facts, s, ranked)) {
        const id = `${g.p}\u0001${g.literal ? "L" : "R"}${g.value}`;
        let entry = groups.get(id);
        if (!entry) {
          entry = { ...g, members: [] };
          groups.set(id, entry);
          distinct.set(g.p, (distinct.get(g.p) ?? 0) + 1);
        }
        if (entry.members.at(-1) !== s) {
          entry.members.push(s);
          total.set(g.p, (total.get(g.p) ?? 0) + 1);
        }
      }
    }
    const categorical = new Set([...distinct].filter(([p, d]) => d >= 2 && d <= o.maxGroups && (total.get(p) ?? 0) / d >= o.minGroupSize).map(([p]) => p));
    for (const g of groups.values()) {
      if (categorical.has(g.p) && g.members.length >= 2) rank(g.members, `${className} with ${noun(g.p)} ${g.shown}`, g.literal ? c : g.value);
    }
  }
  return out;
}
