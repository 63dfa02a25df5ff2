// The KG's triples indexed in memory for induction and verbalization: facts per subject (and per object, for the
// reverse direction), types per subject, and one display label per IRI (profile label predicates, else local name).
import type { KgProfile, Term } from "@/lib/kg/types";
import { langRank, localNameWords } from "@/lib/pipeline/common/labels";
import type { Triple } from "./kg-triples";

export interface KgFacts {
  triples: Triple[];
  /** subject key → its triples, in read order */
  bySubject: Map<string, Triple[]>;
  /** object key (IRI or blank node) → triples pointing at it */
  byObject: Map<string, Triple[]>;
  /** subject key → class IRIs (objects of the profile's type predicates) */
  types: Map<string, string[]>;
  /** every IRI and blank-node key that occurs as subject or object */
  resources: Set<string>;
  typePredicates: Set<string>;
  labelPredicates: Set<string>;
  /** preferred label of an IRI (profile language first), or the words of its local name */
  label(key: string): string;
  /** true when the KG itself labels this IRI */
  hasLabel(key: string): boolean;
}

/** A term as it is stored and matched: the IRI itself, "_:id" for a blank node; literals have no key. */
export function resourceKey(t: Term): string | undefined {
  if (t.type === "uri") return t.value;
  if (t.type === "bnode") return `_:${t.value}`;
  return undefined;
}

export function indexFacts(triples: Triple[], profile: Pick<KgProfile, "typePredicates" | "labelPredicates" | "language">): KgFacts {
  const typePredicates = new Set(profile.typePredicates);
  const labelPredicates = new Set(profile.labelPredicates);
  const bySubject = new Map<string, Triple[]>();
  const byObject = new Map<string, Triple[]>();
  const types = new Map<string, string[]>();
  const resources = new Set<string>();
  const best = new Map<string, { text: string; rank: number }>();
  const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };

  for (const t of triples) {
    const s = resourceKey(t.s);
    if (!s) continue;
    resources.add(s);
    push(bySubject, s, t);
    const o = resourceKey(t.o);
    if (o) {
      resources.add(o);
      push(byObject, o, t);
      if (typePredicates.has(t.p) && t.o.type === "uri") push(types, s, t.o.value);
    } else if (labelPredicates.has(t.p) && t.o.type === "literal" && t.o.value.trim()) {
      // rank: language first (preferred, sub-tag, untagged, other), then the order of the label predicates
      const rank = langRank(t.o["xml:lang"], profile.language) * 100 + profile.labelPredicates.indexOf(t.p);
      const prev = best.get(s);
      if (!prev || rank < prev.rank) best.set(s, { text: t.o.value.trim().replace(/\s+/g, " "), rank });
    }
  }
  return {
    triples,
    bySubject,
    byObject,
    types,
    resources,
    typePredicates,
    labelPredicates,
    label: (key) => best.get(key)?.text ?? (key.startsWith("_:") ? key : localNameWords(key) || key),
    hasLabel: (key) => best.has(key),
  };
}
