// What class and IRI linking look names up in, read from the KG once per open KG and kept while it stays open: its
// classes (with labels and local-name words) and, on small KGs, the IRIs that have no label (named by local name).
//
// Decisions:
// - Bounded queries (LIMIT); a list that reached its bound is marked `complete: false`, so a miss in it proves nothing.
// - The IRIs without labels and the predicate list are read only from small KGs (≤ SMALL_KG_TRIPLES: an embedded
//   store knows its size; an endpoint answers one bounded probe, `… OFFSET 2000000 LIMIT 1`): those queries scan
//   every triple, which large endpoints should not be asked to do.
// - Cached per KnowledgeGraph object (a WeakMap): a KG that is closed and dropped takes its lists with it. Each
//   turn's trace still says which list it used (a tool-call event).
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import type * as Sparql from "sparqljs";
import { bgp, filter, namedNode, operation, selectQuery, stringify, triple, union, valuesOf, variable } from "@/lib/pipeline/common/sparql-ast";
import { NS } from "@/lib/kg/profile";
import { isSafeIri } from "@/lib/kg/escape";
import { isBookkeeping } from "@/lib/pipeline/common/bookkeeping";

export const CLASS_LIMIT = 2000;
export const UNLABELLED_LIMIT = 5000;
export const PREDICATE_LIMIT = 2000;
/** Up to this many triples a KG counts as small enough to scan (see the file comment). */
export const SMALL_KG_TRIPLES = 2_000_000;

export interface NamedIri {
  iri: string;
  /** the KG's label, else the local name's words */
  label: string;
  /** the local name's words ("United_States" → "united states") */
  words: string;
  labelled: boolean;
}

export interface KgSchemaLists {
  classes: NamedIri[];
  classesComplete: boolean;
  /** IRIs in object position without a label (external references such as country IRIs); [] on large KGs */
  unlabelled: NamedIri[];
  unlabelledComplete: boolean;
  /** every predicate of the KG, for relation-level questions (nothing named to start from); [] on large KGs */
  predicates: string[];
}

const cache = new WeakMap<KnowledgeGraph, Promise<KgSchemaLists>>();

/** Is the KG small enough to scan? Its own triple count when it has one, else one bounded probe (a failure: no). */
async function isSmall(ctx: AgentContext): Promise<boolean> {
  if (ctx.kg.info.triples !== undefined) return ctx.kg.info.triples <= SMALL_KG_TRIPLES;
  try {
    const q = stringify({ ...selectQuery(["s"], [bgp([triple(variable("s"), variable("p"), variable("o"))])], { distinct: false, limit: 1 }), offset: SMALL_KG_TRIPLES });
    const r = await ctx.sparql("entity-linking", "is the KG small enough to scan? (read once per KG)", q, { perKgBuild: true });
    return r.kind === "SELECT" && r.results.bindings.length === 0;
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return false;
  }
}

async function readLists(ctx: AgentContext): Promise<KgSchemaLists> {
  const { typePredicates, labelPredicates } = ctx.kg.profile;
  const small = await isSmall(ctx);
  const types = typePredicates.filter(isSafeIri);
  let classIris: string[] = [];
  if (types.length) {
    // classes with instances, and classes that only have subclasses or are declared (their instances are typed below them)
    const c = variable("c");
    const declared = (cls: string) => [bgp([triple(c, namedNode(types[0]), namedNode(cls))])];
    const where = [
      union(
        [valuesOf("t", types), bgp([triple(variable("x"), variable("t"), c)])],
        [bgp([triple(variable("sub"), namedNode(`${NS.rdfs}subClassOf`), c)])],
        declared(`${NS.owl}Class`),
        declared(`${NS.rdfs}Class`),
      ),
      filter(operation("isiri", c)),
    ];
    const q = stringify(selectQuery(["c"], where, { limit: CLASS_LIMIT }));
    const r = await ctx.sparql("entity-linking", "the KG's classes (read once per KG)", q, { perKgBuild: true });
    classIris = r.kind === "SELECT" ? r.results.bindings.map((b) => b.c?.value).filter((v): v is string => !!v && isSafeIri(v)) : [];
  }
  let unlabelled: string[] = [];
  if (small && labelPredicates.length) {
    // objects with none of the profile's label predicates
    const labelled = { type: "group", patterns: [valuesOf("lp", labelPredicates.filter(isSafeIri)), bgp([triple(variable("o"), variable("lp"), variable("l"))])] } as Sparql.GroupPattern;
    const where = [bgp([triple(variable("s"), variable("p"), variable("o"))]), filter(operation("isiri", variable("o"))), filter(operation("notexists", labelled))];
    const q = stringify(selectQuery(["o", "p"], where, { limit: UNLABELLED_LIMIT }));
    const r = await ctx.sparql("entity-linking", "IRIs without a label, named by their local names (read once per KG)", q, { perKgBuild: true });
    // objects of bookkeeping predicates (owl:sameAs, rdfs:seeAlso …) and of type predicates are links out or classes, not entities
    const rows = r.kind === "SELECT" ? r.results.bindings : [];
    const skip = new Set(rows.filter((b) => b.p && (isBookkeeping(b.p.value, ctx) || typePredicates.includes(b.p.value))).map((b) => b.o?.value));
    unlabelled = [...new Set(rows.map((b) => b.o?.value).filter((v): v is string => !!v && isSafeIri(v) && !skip.has(v)))];
  }
  let predicates: string[] = [];
  if (small) {
    const q = stringify(selectQuery(["p"], [bgp([triple(variable("s"), variable("p"), variable("o"))])], { limit: PREDICATE_LIMIT }));
    const r = await ctx.sparql("entity-linking", "the KG's predicates (read once per KG)", q, { perKgBuild: true });
    predicates = r.kind === "SELECT" ? r.results.bindings.map((b) => b.p?.value).filter((v): v is string => !!v && isSafeIri(v)) : [];
  }
  const labels = await fetchLabels(ctx, "entity-linking", classIris, "class labels (read once per KG)", { perKgBuild: true });
  const named = (iri: string, label?: string): NamedIri => {
    const words = localNameWords(iri);
    return { iri, label: label ?? words, words, labelled: label !== undefined };
  };
  return {
    classes: classIris.map((c) => named(c, labels.get(c))),
    classesComplete: classIris.length < CLASS_LIMIT,
    unlabelled: unlabelled.map((o) => named(o)),
    unlabelledComplete: unlabelled.length < UNLABELLED_LIMIT,
    predicates,
  };
}

/** The KG's class list and unlabelled IRIs, read on first use and cached while the KG object lives. */
export async function kgSchemaLists(ctx: AgentContext): Promise<KgSchemaLists> {
  let p = cache.get(ctx.kg);
  const cached = p !== undefined;
  if (!p) {
    p = readLists(ctx);
    cache.set(ctx.kg, p);
    // a failed read is not kept: the next turn tries again
    p.catch(() => cache.delete(ctx.kg));
  }
  const lists = await p;
  if (cached) ctx.emit({ type: "tool-call", stage: "entity-linking", tool: "schema-lists", input: { cached: true }, output: { classes: lists.classes.length, unlabelled: lists.unlabelled.length } });
  return lists;
}
