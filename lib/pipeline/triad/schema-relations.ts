// D-agent, relations through the KG's own schema: a question may name a parent property ("weight") whose values the
// KG holds only under its sub-properties (`weightKg`, `weightLb` rdfs:subPropertyOf `weight`), or ask about a class
// whose instances carry no edge yet (its properties known from rdfs:domain/range). The parents of the predicates
// found in the data join the options, each covering its sub-properties (the query follows `(parent|sub1|sub2…)`),
// and when the data offers nothing, the properties the schema declares for the slot's classes are offered.
import type { KgSchema } from "@/lib/kg/schema";
import { isSafeIri } from "@/lib/kg/escape";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { getKgSchema } from "@/lib/pipeline/common/kg-schema-facts";
import { NS } from "@/lib/kg/profile";
import type { Found, Known } from "./relation-discovery";
import type { TNode, TTriple } from "./template-triples";

/** Sub-properties a parent option may stand for in one query (a wider parent is left to its children). */
export const MAX_COVERED = 50;

/** The KG's schema, or undefined when it cannot be read (the data's predicates then stand alone). */
export async function schemaOf(ctx: AgentContext): Promise<KgSchema | undefined> {
  try {
    const schema = await getKgSchema(ctx, "relation-linking");
    return schema.isEmpty ? undefined : schema;
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return undefined;
  }
}

/** `found` plus each found predicate's schema parents (in the same direction), each covering itself and its sub-properties. */
export function withParents(found: Found[], schema: KgSchema): Found[] {
  const have = new Set(found.map((f) => `${f.iri} ${f.reversed}`));
  const added: Found[] = [];
  for (const f of found) {
    for (const parent of schema.parentsOfProperty(f.iri, { transitive: true })) {
      const key = `${parent} ${f.reversed}`;
      if (have.has(key) || !isSafeIri(parent)) continue;
      const covers = schema.propertyWithDescendants(parent).filter(isSafeIri);
      if (covers.length > MAX_COVERED) continue;
      have.add(key);
      added.push({ iri: parent, reversed: f.reversed, covers });
    }
  }
  return [...found, ...added];
}

/** The classes the template gives a node: `?x a <eN>` with eN's chosen class fillers, or `?x a <C>` written out. */
export function classesOfNode(n: TNode, triples: TTriple[], known: Known): string[] {
  if (n.kind !== "var") return [];
  const out = new Set<string>();
  for (const t of triples) {
    if (t.s.kind !== "var" || t.s.name !== n.name || t.p.kind !== "iri" || t.p.iri !== `${NS.rdf}type`) continue;
    if (t.o.kind === "iri") out.add(t.o.iri);
    if (t.o.kind === "slot") for (const f of known.entities[t.o.id] ?? []) if (f.kind === "iri") out.add(f.iri);
  }
  return [...out];
}

/**
 * Properties the schema declares between the slot's typed ends: rdfs:domain on the subject's class (or rdfs:range on
 * the object's) as the template wrote the triple, the other way round reversed. Classes' ancestors count.
 */
export function declaredBetween(subjectClasses: string[], objectClasses: string[], schema: KgSchema): Found[] {
  const withAncestors = (cs: string[]) => new Set(cs.flatMap((c) => [c, ...schema.parentsOfClass(c, { transitive: true })]));
  const sub = withAncestors(subjectClasses);
  const obj = withAncestors(objectClasses);
  const out = new Map<string, Found>();
  const add = (iri: string, reversed: boolean) => isSafeIri(iri) && out.set(`${iri} ${reversed}`, { iri, reversed });
  for (const [p, c] of schema.facts.domain) {
    if (sub.has(c)) add(p, false);
    if (obj.has(c)) add(p, true);
  }
  for (const [p, c] of schema.facts.range) {
    if (obj.has(c)) add(p, false);
    if (sub.has(c)) add(p, true);
  }
  return [...out.values()];
}
