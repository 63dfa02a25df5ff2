// Names for the IRIs a profile mentions: the profile's own names (classes, predicates, sampled entities), else the
// compact IRI, else the local name. One lookup per profile, built once.
import type { KgOnboardingProfile, ProfilePredicate, ProfileTerm } from "@/lib/kg/onboarding/types";
import { compactIri, localName } from "@/lib/kg/profile";

export interface Names {
  /** the KG's name for the IRI (or its local name) */
  name(iri: string): string;
  /** ex:hive_n01, or <…> when no prefix fits */
  compact(iri: string): string;
  prefixes: Record<string, string>;
}

export function namesOf(profile: KgOnboardingProfile): Names {
  const names = new Map<string, string>();
  const add = (iri: string, name: string | undefined) => {
    if (name && !names.has(iri)) names.set(iri, name);
  };
  const addPredicates = (ps: ProfilePredicate[]) => {
    for (const p of ps) {
      add(p.iri, p.name);
      for (const [iri, n] of Object.entries(p.exampleNames)) add(iri, n);
    }
  };
  for (const c of profile.classes) {
    add(c.iri, c.name);
    addPredicates(c.predicates);
    for (const s of c.samples) add(s.iri, s.name);
  }
  if (profile.untyped) {
    addPredicates(profile.untyped.predicates);
    for (const s of profile.untyped.samples) add(s.iri, s.name);
  }
  for (const p of profile.otherPredicates) add(p.iri, p.name);
  const prefixes = profile.prefixes;
  return {
    name: (iri) => names.get(iri) ?? localName(iri),
    compact: (iri) => compactIri(iri, prefixes),
    prefixes,
  };
}

/** A value as the overview shows it: an entity by its name, a literal by its text (with its language). */
export function termText(t: ProfileTerm, names: Names, exampleNames: Record<string, string> = {}): string {
  if (t.type === "uri") return exampleNames[t.value] ?? names.name(t.value);
  if (t.type === "bnode") return "(blank node)";
  return t["xml:lang"] ? `${t.value} @${t["xml:lang"]}` : t.value;
}

const XSD = "http://www.w3.org/2001/XMLSchema#";
const RDF_LANG = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";

/** What a predicate's values are, in a few words: "Beekeeper", "integer", "text", "IRI", … (most frequent first). */
export function valueTypeText(p: ProfilePredicate, names: Names): string {
  const parts = p.valueTypes.slice(0, 3).map((v) => {
    if (v.kind === "class") return v.iri ? names.name(v.iri) : "entity";
    if (v.kind === "iri") return "IRI";
    if (v.kind === "bnode") return "blank node";
    if (!v.iri || v.iri === `${XSD}string`) return "text";
    if (v.iri === RDF_LANG) return "text with language";
    return v.iri.startsWith(XSD) ? v.iri.slice(XSD.length) : names.compact(v.iri);
  });
  return [...new Set(parts)].join(" or ") || "—";
}

/** An id shape with its namespace written compactly ("ap:{snake_case}") when a prefix fits. */
export function shapeText(pattern: string, names: Names): string {
  for (const [p, ns] of Object.entries(names.prefixes)) if (ns && pattern.startsWith(ns)) return `${p}:${pattern.slice(ns.length)}`;
  return pattern;
}

/** Full IRIs inside a text ("http://www.w3.org/2001/XMLSchema#date e.g. 2010") written compactly ("xsd:date e.g. 2010"). */
export function compactInText(text: string, names: Names): string {
  const namespaces = Object.entries(names.prefixes)
    .filter(([, ns]) => ns)
    .sort((a, b) => b[1].length - a[1].length);
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"]+/gi, (iri) => {
    const hit = namespaces.find(([, ns]) => iri.startsWith(ns));
    return hit && /^[\p{L}\p{N}_-]*$/u.test(iri.slice(hit[1].length)) ? `${hit[0]}:${iri.slice(hit[1].length)}` : iri;
  });
}
