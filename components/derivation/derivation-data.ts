// Pure readers of a turn's derivation events for the panel: entity candidates per mention, predicate rankings,
// which candidate queries ran (with rows), and a QIR laid out as a small graph. Events are plain JSON, so every
// reader checks shapes and drops what it does not understand instead of trusting it.
import type { DerivationEvent } from "@/lib/pipeline/types";
import type { CandidateQuery, LinkedVertex, Qir } from "@/lib/pipeline/chatty-kg/state";
import { USER_CHOICE_TOOL } from "@/lib/pipeline/corrections";
import { describeConstraints } from "@/lib/pipeline/chatty-kg/qir-describe";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export type ToolCallEvent = Extract<DerivationEvent, { type: "tool-call" }>;
export type SparqlEvent = Extract<DerivationEvent, { type: "sparql" }>;

export function isVertexMap(v: unknown): v is Record<string, LinkedVertex> {
  return isObj(v) && Object.values(v).every((x) => isObj(x) && typeof x.iri === "string" && typeof x.mention === "string");
}

export interface VertexCandidate {
  iri: string;
  label: string;
  score?: number;
  /** found through the KG lexicon: the name that matched and where it came from (a predicate, or the IRI's local name) */
  matched?: { name: string; via: string };
}

export interface MentionCandidates {
  mention: string;
  /** how many candidates the label search returned (the list shows the top few) */
  count: number;
  top: VertexCandidate[];
  error?: string;
  /** the vertex entity linking settled on, once the stage ended */
  chosen?: LinkedVertex;
}

/**
 * One entry per mention searched (label-search tool calls, and the KG lexicon's lookups when the labels found nothing),
 * joined with the chosen vertex of the stage-end output.
 */
export function entityCandidates(details: DerivationEvent[], vertices: unknown): MentionCandidates[] {
  const chosen = isVertexMap(vertices) ? Object.values(vertices) : [];
  const byMention = new Map<string, MentionCandidates>();
  for (const e of details) {
    if (e.type !== "tool-call" || (e.tool !== "label-search" && e.tool !== "lexicon-search")) continue;
    const mention = isObj(e.input) ? str(e.input.mention) : undefined;
    if (mention === undefined) continue;
    const out = isObj(e.output) ? e.output : {};
    const top = Array.isArray(out.top)
      ? out.top.flatMap((c): VertexCandidate[] =>
          isObj(c) && typeof c.iri === "string" ? [{ iri: c.iri, label: str(c.label) ?? c.iri, score: num(c.score), ...matchedOf(c.matched) }] : [],
        )
      : [];
    // a retried search for the same mention, or the lexicon's lookup after an empty label search, replaces the earlier one
    byMention.set(mention, { mention, count: num(out.count) ?? top.length, top, error: e.error });
  }
  for (const v of chosen) {
    const entry = byMention.get(v.mention) ?? [...byMention.values()].find((m) => m.mention.toLowerCase() === v.mention.toLowerCase());
    if (entry) entry.chosen = v;
    // linked without a search (from the dialogue's previous answer): still shown, with no candidate list
    else byMention.set(v.mention, { mention: v.mention, count: v.candidates, top: [], chosen: v });
  }
  return [...byMention.values()];
}

function matchedOf(v: unknown): { matched?: { name: string; via: string } } {
  return isObj(v) && typeof v.name === "string" && typeof v.via === "string" ? { matched: { name: v.name, via: v.via } } : {};
}

export interface RankedPredicateView {
  iri: string;
  label: string;
  direction: "out" | "in";
  score: number;
}

export interface PredicateRanking {
  relation: string;
  /** IRI of the linked vertex whose predicates were ranked */
  around?: string;
  /** predicates found around the vertex before keeping the top k */
  candidates?: number;
  similarity?: string;
  ranked: RankedPredicateView[];
  error?: string;
}

/** One ranking per rank-predicates tool call (a relation may be ranked around several vertices). */
export function predicateRankings(details: DerivationEvent[]): PredicateRanking[] {
  return details.flatMap((e): PredicateRanking[] => {
    if (e.type !== "tool-call" || e.tool !== "rank-predicates" || !isObj(e.input)) return [];
    const relation = str(e.input.relation);
    if (relation === undefined) return [];
    const ranked = Array.isArray(e.output)
      ? e.output.flatMap((p): RankedPredicateView[] =>
          isObj(p) && typeof p.iri === "string"
            ? [{ iri: p.iri, label: str(p.label) ?? p.iri, direction: p.direction === "in" ? "in" : "out", score: num(p.score) ?? 0 }]
            : [],
        )
      : [];
    return [{ relation, around: str(e.input.around), candidates: num(e.input.candidates), similarity: str(e.input.similarity), ranked, error: e.error }];
  });
}

export interface QueryRun {
  rows: number;
  ms: number;
  error?: string;
}

export function isCandidateList(v: unknown): v is CandidateQuery[] {
  return Array.isArray(v) && v.every((q) => isObj(q) && typeof q.sparql === "string" && typeof q.id === "number");
}

/**
 * What ran, by candidate id and by query text: the execution stage's output once it ended, else its sparql events
 * as they stream (so candidates are marked while the turn still runs).
 */
export function queryRuns(events: DerivationEvent[]): { byId: Map<number, QueryRun>; byQuery: Map<string, QueryRun> } {
  const byId = new Map<number, QueryRun>();
  const byQuery = new Map<string, QueryRun>();
  for (const e of events) {
    if (e.type === "sparql" && e.stage === "execution") byQuery.set(e.query.trim(), { rows: e.rows, ms: e.ms, error: e.error });
    if (e.type === "stage-end" && e.stage === "execution" && Array.isArray(e.output)) {
      for (const q of e.output) {
        if (!isObj(q) || typeof q.sparql !== "string") continue;
        const run: QueryRun = { rows: num(q.rows) ?? 0, ms: num(q.ms) ?? 0, error: str(q.error) };
        if (typeof q.id === "number") byId.set(q.id, run);
        byQuery.set(q.sparql.trim(), run);
      }
    }
  }
  return { byId, byQuery };
}

export function runOf(q: { id: number; sparql: string }, runs: ReturnType<typeof queryRuns>): QueryRun | undefined {
  return runs.byId.get(q.id) ?? runs.byQuery.get(q.sparql.trim());
}

// ---------------------------------------------------------------------------------------------------------------
// QIR as a graph
// ---------------------------------------------------------------------------------------------------------------

export interface QirNode {
  id: string;
  kind: "entity" | "variable";
  /** the variable the question asks for */
  target: boolean;
  x: number;
  y: number;
}

export interface QirEdge {
  from: string;
  to: string;
  label: string;
  /** 0 for the first edge between two nodes, 1, 2… for parallel ones (drawn as curves) */
  lane: number;
}

export interface QirLayout {
  nodes: QirNode[];
  edges: QirEdge[];
  width: number;
  height: number;
}

/** Node box size; a column is a box plus room for the longest edge label (so a label never sits on a box). */
export const QIR_NODE = { w: 128, h: 26 };
export const QIR_LABEL_MAX = 24;
const LABEL_CHAR_PX = 6.2;
export const QIR_ROW = 72;
export const QIR_PAD = { x: 70, y: 30 };

/** The QIR's constraints as short phrases ("?h is a hotel", "order by ?r desc", "limit 3"); none when malformed. */
export function qirConstraints(qir: Qir): string[] {
  try {
    return describeConstraints(qir);
  } catch {
    return []; // stage outputs are stored JSON: a shape this version does not know shows no constraints
  }
}

/** A candidate query's modifiers (the constraints it carries), when the strategy recorded them. */
export function candidateModifiers(c: CandidateQuery): string[] {
  return Array.isArray(c.modifiers) ? c.modifiers.filter((m): m is string => typeof m === "string") : [];
}

export function isQir(v: unknown): v is Qir {
  return isObj(v) && Array.isArray(v.triples) && v.triples.every((t) => isObj(t) && typeof t.subject === "string" && typeof t.object === "string");
}

/**
 * Layered left-to-right layout: a node's column is the longest chain of relations leading to it (cycles are cut),
 * rows in order of first appearance. QIRs have a handful of triples, so this stays readable without a layout library.
 */
export function layoutQir(qir: Pick<Qir, "triples" | "target">): QirLayout {
  const order: string[] = [];
  const seen = new Set<string>();
  for (const t of qir.triples) {
    for (const id of [t.subject, t.object]) {
      if (!seen.has(id)) {
        seen.add(id);
        order.push(id);
      }
    }
  }
  const col = new Map<string, number>(order.map((id) => [id, 0]));
  // longest path by relaxation; at most |nodes| rounds, which also stops cycles from growing forever
  for (let round = 0; round < order.length; round++) {
    let changed = false;
    for (const t of qir.triples) {
      if (t.subject === t.object) continue;
      const next = (col.get(t.subject) ?? 0) + 1;
      if (next > (col.get(t.object) ?? 0) && next < order.length) {
        col.set(t.object, next);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const longest = Math.max(0, ...qir.triples.map((t) => Math.min(t.relation.length, QIR_LABEL_MAX)));
  const colWidth = QIR_NODE.w + Math.max(56, Math.ceil(longest * LABEL_CHAR_PX) + 24);
  const rowsUsed = new Map<number, number>();
  const nodes: QirNode[] = order.map((id) => {
    const c = col.get(id) ?? 0;
    const r = rowsUsed.get(c) ?? 0;
    rowsUsed.set(c, r + 1);
    return { id, kind: id.startsWith("?") ? "variable" : "entity", target: id === qir.target, x: QIR_PAD.x + c * colWidth, y: QIR_PAD.y + r * QIR_ROW };
  });
  const pairCount = new Map<string, number>();
  const edges: QirEdge[] = qir.triples.map((t) => {
    const pair = [t.subject, t.object].sort().join("\u0000");
    const lane = pairCount.get(pair) ?? 0;
    pairCount.set(pair, lane + 1);
    return { from: t.subject, to: t.object, label: t.relation, lane };
  });
  const cols = Math.max(1, ...[...col.values()].map((c) => c + 1));
  const rows = Math.max(1, ...rowsUsed.values());
  return { nodes, edges, width: QIR_PAD.x * 2 + (cols - 1) * colWidth, height: QIR_PAD.y * 2 + (rows - 1) * QIR_ROW };
}

/** Shortens a label for a node or edge; the full text goes in its <title>. */
export function clip(text: string, max = 22): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Shortens text in the middle ("http://example.org/res…/Daniel_Radcliffe_engineer"), so an IRI keeps both the
 * namespace it starts with and the local name that tells same-named things apart; the full text goes in a title.
 */
export function middleTruncate(text: string, max = 48): string {
  if (text.length <= max) return text;
  const tail = Math.ceil((max - 1) * 0.6);
  return `${text.slice(0, max - 1 - tail)}…${text.slice(text.length - tail)}`;
}

/** The installation notes (warnings with code "setup") of some traces, once each, for the settings instead of every turn. */
export function setupNotesOf(traces: DerivationEvent[][]): string[] {
  const notes = new Set<string>();
  for (const events of traces) for (const e of events) if (isSetupWarning(e)) notes.add(e.message);
  return [...notes];
}

/** A warning about the installation rather than the question (turns stored before the code existed: by its words). */
export function isSetupWarning(e: DerivationEvent): e is Extract<DerivationEvent, { type: "warning" }> {
  return e.type === "warning" && (e.code === "setup" || (e.stage === "relation-linking" && /^Embedding model .* could not be loaded/.test(e.message)));
}

// ---------------------------------------------------------------------------------------------------------------
// Corrections (re-runs from a step): which cards were kept from the corrected attempt, and the choices a card offers
// ---------------------------------------------------------------------------------------------------------------

/** The card of the step the user corrected (its user-choice event) and the cards before it, kept from the earlier attempt. */
export function correctionMarks(groups: { key: string; details: DerivationEvent[] }[]): { decided?: string; kept: Set<string> } {
  const at = groups.findIndex((g) => g.details.some((e) => e.type === "tool-call" && e.tool === USER_CHOICE_TOOL));
  if (at < 0) return { kept: new Set() };
  return { decided: groups[at].key, kept: new Set(groups.slice(0, at).map((g) => g.key)) };
}

export interface PredicateChoice {
  iri: string;
  label: string;
  /** the executed queries could use it (query selection's output) */
  selected: boolean;
}

/**
 * The predicates query selection chose among (those of the candidate queries, in candidate order), labelled from
 * relation linking, with the ones it selected; empty when the derivation has no candidates.
 */
export function predicateChoices(events: DerivationEvent[]): PredicateChoice[] {
  const end = (stage: string) => events.findLast((e) => e.type === "stage-end" && e.stage === stage) as Extract<DerivationEvent, { type: "stage-end" }> | undefined;
  const candidates = end("query-generation")?.output;
  if (!isCandidateList(candidates)) return [];
  const labels = new Map<string, string>();
  const ranked = end("relation-linking")?.output;
  if (isObj(ranked)) for (const list of Object.values(ranked)) if (Array.isArray(list)) for (const p of list) if (isObj(p) && typeof p.iri === "string" && typeof p.label === "string") labels.set(p.iri, p.label);
  const chosen = end("query-selection")?.output;
  const selected = new Set(Array.isArray(chosen) ? chosen.filter((x): x is string => typeof x === "string") : []);
  const seen = new Set<string>();
  const out: PredicateChoice[] = [];
  for (const c of candidates) {
    for (const iri of Array.isArray(c.predicates) ? c.predicates : []) {
      if (typeof iri !== "string" || seen.has(iri)) continue;
      seen.add(iri);
      out.push({ iri, label: labels.get(iri) ?? iri.replace(/^.*[/#]/, ""), selected: selected.has(iri) });
    }
  }
  return out;
}
