// The classes around what a composed question linked, each with the predicates its instances have (out) and the
// predicates pointing at them (in), for the query writer (query-writer.ts). Read at run time from bounded samples of
// instances, like relation linking (no preprocessing); cached per KG and class.
//
// Decisions:
// - Seeds: the linked classes, the classes of linked vertices, and the classes of the things that carry a linked value
//   or a ranked predicate. Then one hop: the classes their predicates lead to or come from (a join through a
//   link table is two classes away from the question's words). At most MAX_CARDS cards, seeds first.
// - Label predicates stay (a name column is often what is asked); other bookkeeping predicates are left out.
// - A card is a help, not a fact: a query that fails or times out leaves that card out (the writer sees fewer IRIs).
import { toAppError } from "@/lib/errors";
import { iri, isSafeIri } from "@/lib/kg/escape";
import type { KnowledgeGraph, Term } from "@/lib/kg/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import { isBookkeeping } from "@/lib/pipeline/common/bookkeeping";
import { cardPredicateQuery } from "@/lib/pipeline/common/schema-cards";
import type { ChattyState } from "../state";

/** Cards shown at most (seeds first). */
export const MAX_CARDS = 8;
/** Instances sampled per class. */
export const CARD_SAMPLE = 300;
/** Predicates shown per card and direction. */
export const CARD_PREDICATES = 30;

export interface CardEdge {
  iri: string;
  /** out: the class or datatype of the values ("" = other IRIs); in: the class of the things pointing here */
  other: string;
  /** a sample value (out, literals only) */
  example?: string;
}

export interface ClassCard {
  iri: string;
  out: CardEdge[];
  in: CardEdge[];
}

const cache = new WeakMap<KnowledgeGraph, Map<string, Promise<ClassCard | undefined>>>();

type CardStage = "query-generation" | "query-selection" | "execution";

async function select(ctx: AgentContext, purpose: string, query: string, stage: CardStage = "query-generation"): Promise<Record<string, Term>[]> {
  try {
    const r = await ctx.sparql(stage, purpose, query);
    return r.kind === "SELECT" ? r.results.bindings : [];
  } catch (e) {
    if (toAppError(e).code === "aborted" || ctx.signal?.aborted) throw e;
    return [];
  }
}

const subjects = (cls: string, type: string) => `{ SELECT ?s WHERE { ?s ${iri(type)} ${iri(cls)} } LIMIT ${CARD_SAMPLE} }`;

/** Edges into the sampled instances, grouped by the predicate and the class of the thing they come from. */
export function incomingQuery(cls: string, type: string): string {
  return `SELECT ?p ?k (COUNT(*) AS ?n) WHERE { ${subjects(cls, type)} ?x ?p ?s . OPTIONAL { ?x ${iri(type)} ?xc FILTER(isIRI(?xc)) } BIND(IF(BOUND(?xc), STR(?xc), "") AS ?k) } GROUP BY ?p ?k`;
}

function edges(rows: Record<string, Term>[], ctx: AgentContext, withExample: boolean): CardEdge[] {
  const out: CardEdge[] = [];
  const seen = new Set<string>();
  const sorted = [...rows].sort((a, b) => Number(b.n?.value ?? 0) - Number(a.n?.value ?? 0));
  for (const r of sorted) {
    const p = r.p?.value;
    if (r.p?.type !== "uri" || !p || !isSafeIri(p) || ctx.kg.profile.typePredicates.includes(p) || (isBookkeeping(p, ctx) && !ctx.kg.profile.labelPredicates.includes(p))) continue;
    const k = r.k?.value ?? "";
    const other = k === "_iri" || k === "_bnode" ? "" : k;
    const key = `${p} ${other}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const example = withExample && r.ex?.type === "literal" ? r.ex.value.slice(0, 40) : undefined;
    out.push({ iri: p, other, ...(example !== undefined ? { example } : {}) });
  }
  return out.slice(0, CARD_PREDICATES);
}

async function buildCard(ctx: AgentContext, cls: string, type: string, stage: CardStage): Promise<ClassCard | undefined> {
  const [outRows, inRows] = await Promise.all([
    select(ctx, "query writer: predicates of a class", cardPredicateQuery(subjects(cls, type), type), stage),
    select(ctx, "query writer: predicates into a class", incomingQuery(cls, type), stage),
  ]);
  if (outRows.length === 0 && inRows.length === 0) return undefined;
  return { iri: cls, out: edges(outRows, ctx, true), in: edges(inRows, ctx, false) };
}

function cardOf(ctx: AgentContext, cls: string, type: string, stage: CardStage): Promise<ClassCard | undefined> {
  let perKg = cache.get(ctx.kg);
  if (!perKg) cache.set(ctx.kg, (perKg = new Map()));
  let p = perKg.get(cls);
  if (!p) {
    p = buildCard(ctx, cls, type, stage);
    perKg.set(cls, p);
    // a cancelled turn must not leave a rejected promise for the next one
    p.catch(() => perKg?.delete(cls));
  }
  return p;
}

/** The classes of the linked vertices, and of the things carrying linked values or ranked predicates. */
async function seedClasses(state: ChattyState, ctx: AgentContext, type: string, stage: CardStage): Promise<string[]> {
  const seeds = Object.values(state.classes ?? {}).map((c) => c.iri);
  const vertices = [...new Set(Object.values(state.vertices ?? {}).map((v) => v.iri))].filter(isSafeIri);
  if (vertices.length) {
    const rows = await select(ctx, "query writer: classes of the linked vertices", `SELECT DISTINCT ?c WHERE { VALUES ?v { ${vertices.map(iri).join(" ")} } ?v ${iri(type)} ?c FILTER(isIRI(?c)) } LIMIT 50`, stage);
    seeds.push(...rows.map((r) => r.c?.value).filter((x): x is string => !!x));
  }
  const predicates = [...new Set([...Object.values(state.literals ?? {}).flatMap((l) => l.carriers), ...Object.values(state.relationPredicates ?? {}).flatMap((ps) => ps.map((p) => p.iri))])].filter(isSafeIri);
  if (predicates.length) {
    const q = `SELECT DISTINCT ?c WHERE { { SELECT ?s WHERE { VALUES ?p { ${predicates.slice(0, 40).map(iri).join(" ")} } ?s ?p ?o } LIMIT 2000 } ?s ${iri(type)} ?c FILTER(isIRI(?c)) } LIMIT 50`;
    const rows = await select(ctx, "query writer: classes using the ranked predicates", q, stage);
    seeds.push(...rows.map((r) => r.c?.value).filter((x): x is string => !!x));
  }
  return [...new Set(seeds)].filter(isSafeIri);
}

/** The cards of the seeds, then of the classes one hop away, at most MAX_CARDS; with the labels of what they name. */
export async function classCards(state: ChattyState, ctx: AgentContext, stage: CardStage = "query-generation"): Promise<{ cards: ClassCard[]; labels: Map<string, string> }> {
  const type = ctx.kg.profile.typePredicates[0];
  if (!type) return { cards: [], labels: new Map() };
  const seeds = (await seedClasses(state, ctx, type, stage)).slice(0, MAX_CARDS);
  const cards = (await Promise.all(seeds.map((c) => cardOf(ctx, c, type, stage)))).filter((c): c is ClassCard => !!c);
  const near = [...new Set(cards.flatMap((c) => [...c.out, ...c.in].map((e) => e.other)))].filter((c) => c.startsWith("http") && !c.startsWith("http://www.w3.org/2001/XMLSchema#") && !seeds.includes(c) && isSafeIri(c));
  const more = (await Promise.all(near.slice(0, Math.max(0, MAX_CARDS - cards.length)).map((c) => cardOf(ctx, c, type, stage)))).filter((c): c is ClassCard => !!c);
  const all = [...cards, ...more];
  const iris = [...new Set(all.flatMap((c) => [c.iri, ...[...c.out, ...c.in].flatMap((e) => [e.iri, e.other])]).filter((x) => x.startsWith("http") && isSafeIri(x)))];
  const labels = await fetchLabels(ctx, stage, iris, "query writer: labels");
  for (const i of iris) if (!labels.has(i)) labels.set(i, localNameWords(i));
  return { cards: all, labels };
}
