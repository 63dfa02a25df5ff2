// Reads the KG's schema facts with bounded queries (each has a LIMIT; the counting one reads a LIMITed sample) so it
// runs on endpoints as on embedded stores. Enumerations are owl:oneOf lists, or classes with a few instances that
// carry no links of their own (at most a name and a comment) and are used as values or are a property's range.
import { iri, isSafeIri } from "@/lib/kg/escape";
import { NS } from "@/lib/kg/profile";
import type { Bindings, KgProfile } from "@/lib/kg/types";
import { KgSchema, type SchemaFacts } from "./kg-schema";

export type SchemaSelect = (purpose: string, sparql: string) => Promise<Bindings[]>;

export interface SchemaLimits {
  /** schema statements read (all kinds together) */
  statements: number;
  /** type assertions sampled to find small classes */
  sampleTypes: number;
  /** at most this many instances for a class to be an enumeration */
  maxMembers: number;
  /** small classes examined */
  candidates: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { statements: 20_000, sampleTypes: 200_000, maxMembers: 40, candidates: 300 };

const REL = {
  [`${NS.rdfs}subClassOf`]: "subClassOf",
  [`${NS.rdfs}subPropertyOf`]: "subPropertyOf",
  [`${NS.owl}inverseOf`]: "inverseOf",
  [`${NS.rdfs}domain`]: "domain",
  [`${NS.rdfs}range`]: "range",
} as const;
const BATCH = 300;

export async function readKgSchema(select: SchemaSelect, profile: Pick<KgProfile, "typePredicates">, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): Promise<KgSchema> {
  const facts: SchemaFacts = { subClassOf: [], subPropertyOf: [], inverseOf: [], domain: [], range: [], enumerations: [], truncated: false };
  const rows = await select(
    "schema: hierarchy, domains, ranges, inverses",
    `SELECT DISTINCT ?a ?r ?b WHERE { VALUES ?r { ${Object.keys(REL).map(iri).join(" ")} } ?a ?r ?b . FILTER(isIRI(?a) && isIRI(?b)) } LIMIT ${limits.statements}`,
  );
  facts.truncated = rows.length >= limits.statements;
  for (const b of rows) {
    const kind = REL[b.r?.value as keyof typeof REL];
    if (kind && b.a && b.b) facts[kind].push([b.a.value, b.b.value]);
  }

  const enums = new Map<string, string[]>();
  const oneOf = await select(
    "schema: enumerations (owl:oneOf)",
    `SELECT ?c ?m WHERE { ?c ${iri(`${NS.owl}oneOf`)} ?list . ?list ${iri(`${NS.rdf}rest`)}*/${iri(`${NS.rdf}first`)} ?m . FILTER(isIRI(?c) && isIRI(?m)) } LIMIT ${limits.statements}`,
  );
  for (const b of oneOf) if (b.c && b.m) enums.set(b.c.value, [...(enums.get(b.c.value) ?? []), b.m.value]);

  const type = (profile.typePredicates.find(isSafeIri) ?? `${NS.rdf}type`) as string;
  const small = await select(
    "schema: small classes (enumeration candidates)",
    `SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { { SELECT ?x ?c WHERE { ?x ${iri(type)} ?c } LIMIT ${limits.sampleTypes} } FILTER(isIRI(?x) && isIRI(?c)) } GROUP BY ?c HAVING (COUNT(DISTINCT ?x) <= ${limits.maxMembers}) LIMIT ${limits.candidates}`,
  );
  const candidates = small.map((b) => b.c?.value).filter((c): c is string => !!c && isSafeIri(c) && !enums.has(c) && !c.startsWith(NS.owl) && !c.startsWith(NS.rdfs) && !c.startsWith(NS.rdf));
  const membersOf = new Map<string, string[]>();
  for (let i = 0; i < candidates.length; i += BATCH) {
    const batch = candidates.slice(i, i + BATCH);
    const m = await select("schema: members of small classes", `SELECT ?c ?x WHERE { VALUES ?c { ${batch.map(iri).join(" ")} } ?x ${iri(type)} ?c . FILTER(isIRI(?x)) } LIMIT ${batch.length * limits.maxMembers}`);
    for (const b of m) if (b.c && b.x && isSafeIri(b.x.value)) membersOf.set(b.c.value, [...(membersOf.get(b.c.value) ?? []), b.x.value]);
  }
  const allMembers = [...new Set([...membersOf.values()].flat())];
  // members with data of their own (links, numbers, dates: anything but their type and texts such as names and
  // comments) are things, not values
  const linked = new Set<string>();
  const used = new Set<string>();
  for (let i = 0; i < allMembers.length; i += BATCH) {
    const batch = allMembers.slice(i, i + BATCH).map(iri).join(" ");
    const own = await select(
      "schema: links of enumeration candidates",
      `SELECT DISTINCT ?x WHERE { VALUES ?x { ${batch} } ?x ?p ?o . FILTER(?p != ${iri(type)} && (!isLiteral(?o) || (LANG(?o) = "" && DATATYPE(?o) != ${iri(`${NS.xsd}string`)}))) } LIMIT ${BATCH}`,
    );
    for (const b of own) if (b.x) linked.add(b.x.value);
    const asValue = await select("schema: enumeration candidates used as values", `SELECT DISTINCT ?x WHERE { VALUES ?x { ${batch} } ?s ?p ?x . FILTER(?p != ${iri(type)}) } LIMIT ${BATCH}`);
    for (const b of asValue) if (b.x) used.add(b.x.value);
  }
  const ranges = new Set(facts.range.map(([, c]) => c));
  for (const [c, members] of membersOf) {
    if (members.length < 2 || members.some((m) => linked.has(m))) continue;
    if (ranges.has(c) || members.some((m) => used.has(m))) enums.set(c, members);
  }
  facts.enumerations = [...enums.entries()].map(([c, m]) => [c, [...new Set(m)]]);
  return new KgSchema(facts);
}
