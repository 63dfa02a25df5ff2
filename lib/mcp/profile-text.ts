// The KG's onboarding profile as text for an agent (MCP describe_schema and the overview resource): classes with
// counts, their predicates with value types and examples, where names are, id shapes, the KG's own schema, the notes;
// and the generated examples as question + SPARQL pairs (the examples resource). Compact names throughout, with the
// prefixes they use declared first.
import type { GeneratedExample, KgNotes, KgOnboardingProfile, ProfilePredicate, ProfileTerm, ValueType } from "@/lib/kg/onboarding/types";
import { compactIri } from "@/lib/kg/profile";

const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";

export function profileText(profile: KgOnboardingProfile, notes?: KgNotes | null): string {
  const used = new Set<string>();
  const c = (iri: string) => {
    const s = compactIri(iri, profile.prefixes);
    if (!s.startsWith("<")) used.add(s.slice(0, s.indexOf(":")));
    return s;
  };
  const quote = (s: string) => JSON.stringify(s);
  const term = (t: ProfileTerm, names: Record<string, string>) => {
    if (t.type === "uri") return names[t.value] ? `${c(t.value)} ${quote(names[t.value])}` : c(t.value);
    if (t.type === "bnode") return "_:b";
    if (t["xml:lang"]) return `${quote(t.value)}@${t["xml:lang"]}`;
    return t.datatype && t.datatype !== XSD_STRING ? `${quote(t.value)}^^${c(t.datatype)}` : quote(t.value);
  };
  const valueType = (v: ValueType) => (v.kind === "class" || v.kind === "literal" ? (v.iri ? c(v.iri) : v.kind === "class" ? "entity" : "literal") : v.kind === "iri" ? "IRI" : "blank node");
  const predicateLine = (p: ProfilePredicate) => {
    const types = p.valueTypes.slice(0, 3).map(valueType).join(" | ") || "?";
    const each = p.perSubject > 1.05 ? `, ${p.perSubject.toFixed(1)} per subject` : "";
    const ex = p.examples.length ? `; e.g. ${p.examples.map((t) => term(t, p.exampleNames)).join(", ")}` : "";
    return `    ${c(p.iri)} ${quote(p.name)} → ${types} (${Math.round(p.coverage * 100)}%${each})${ex}`;
  };

  const body: string[] = [];
  const sampled = profile.classes.some((k) => k.countSampled);
  body.push(`KG: ${profile.kgName}${profile.triples !== undefined ? `, ${profile.triples.toLocaleString("en")} triples` : ""}${sampled ? " (some counts from a sample: lower bounds)" : ""}`);

  body.push(
    profile.namingPredicates.length
      ? `Names: ${profile.namingPredicates.map((n) => `${c(n.iri)} (${n.role})`).join(", ")}; other things are named by their IRI local names.`
      : "Names: no predicate holds names; things are named by the words of their IRI local names (snake_case, CamelCase split into words).",
  );
  if (profile.idShapes.length) {
    body.push(`Id shapes: ${profile.idShapes.map((s) => `${s.pattern}${s.opaque ? " (opaque: find these by their names, not their ids)" : ""}, e.g. ${c(s.example)}`).join("; ")}`);
  }

  body.push("Classes, most instances first. Predicates under each class, by the share of its instances having them:");
  for (const k of profile.classes) {
    const around = [k.superClasses.length ? `subclass of ${k.superClasses.map(c).join(", ")}` : "", k.subClasses.length ? `subclasses ${k.subClasses.map(c).join(", ")}` : ""].filter(Boolean).join("; ");
    body.push(`- ${c(k.iri)} ${quote(k.name)}: ${k.countSampled ? "≥ " : ""}${k.count.toLocaleString("en")} instances${around ? `; ${around}` : ""}`);
    for (const p of k.predicates) body.push(predicateLine(p));
    if (k.incoming.length) body.push(`    reached from: ${k.incoming.map(([p, s]) => `${c(s)} ${c(p)}`).join(", ")}`);
    if (k.samples.length) body.push(`    instances: ${k.samples.map((s) => (s.name ? `${c(s.iri)} ${quote(s.name)}` : c(s.iri))).join(", ")}`);
  }
  if (profile.classes.length === 0) body.push("- (none: the KG states no rdf:type)");
  if (profile.untyped) {
    body.push(`Things without a class (${profile.untyped.count.toLocaleString("en")}):`);
    for (const p of profile.untyped.predicates) body.push(predicateLine(p));
    if (profile.untyped.samples.length) body.push(`    e.g. ${profile.untyped.samples.map((s) => (s.name ? `${c(s.iri)} ${quote(s.name)}` : c(s.iri))).join(", ")}`);
  }
  if (profile.otherPredicates.length) body.push(`Other predicates: ${profile.otherPredicates.map((p) => `${c(p.iri)} (${p.count.toLocaleString("en")})`).join(", ")}`);

  const s = profile.schema;
  const schema = [
    ...s.subClassOf.map(([a, b]) => `${c(a)} rdfs:subClassOf ${c(b)}`),
    ...s.subPropertyOf.map(([a, b]) => `${c(a)} rdfs:subPropertyOf ${c(b)}`),
    ...s.domain.map(([a, b]) => `${c(a)} rdfs:domain ${c(b)}`),
    ...s.range.map(([a, b]) => `${c(a)} rdfs:range ${c(b)}`),
    ...s.inverseOf.map(([a, b]) => `${c(a)} owl:inverseOf ${c(b)}`),
    ...s.enumerations.map(([k, m]) => `${c(k)} is one of ${m.slice(0, 12).map(c).join(", ")}${m.length > 12 ? ", …" : ""}`),
  ];
  if (schema.length) body.push("The KG's own schema:", ...schema.map((l) => `- ${l}`));

  const f = profile.literalForms;
  const forms = [
    f.datatypes.length ? `datatypes ${f.datatypes.map(([d, n]) => `${c(d)} (${n})`).join(", ")}` : "",
    f.languages.length ? `languages ${f.languages.join(", ")}` : "",
    f.dateForms.length ? `dates ${f.dateForms.join("; ")}` : "",
    f.units.length ? `units ${f.units.join(", ")}` : "",
  ].filter(Boolean);
  if (forms.length) body.push(`Values: ${forms.join("; ")}`);
  if (notes?.text.trim()) body.push("KG notes:", notes.text.trim());
  if (profile.skipped.length) body.push(`Left out by the bounds: ${profile.skipped.join("; ")}`);

  // the prefixes the text used, first (the rdf/rdfs/owl words above are well known)
  const prefixes = [...used].sort().map((p) => `PREFIX ${p}: <${profile.prefixes[p]}>`);
  return [...prefixes, ...(prefixes.length ? [""] : []), ...body].join("\n");
}

export function examplesText(examples: GeneratedExample[], total: number): string {
  if (examples.length === 0) return "No generated examples yet (the KG is not prepared, or nothing could be built from it).";
  const head = `${total} solved example${total === 1 ? "" : "s"} generated from this KG's own shapes (each query was run and its answer checked)${total > examples.length ? `; the first ${examples.length}` : ""}:`;
  return [head, ...examples.map((e) => `\n# ${e.question}  [${e.shape}${e.status === "promoted" ? ", kept by a user" : ""}]\n${e.sparql.trim()}`)].join("\n");
}
