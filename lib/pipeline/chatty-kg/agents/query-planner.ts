// Query planning agent (paper Algorithm 3): generate candidates, let the LLM keep the relevant predicates, run those queries.
//
// Decisions:
// - Q' runs the candidates whose predicates were all selected (Pred(ψ) ⊆ P'), else those sharing one with P'
//   (the paper's rule; see selectCandidates).
// - Q' is not run all at once (see planRuns). The LLM chooses predicates, not wirings; the generator places every
//   chosen predicate in every direction and join it was found in, so Q' also holds WRONGLY WIRED queries that use the
//   right predicates (CK25 q7: "?person hasManager ?x" next to "?x hasManager ?person"; q10: "areaOfExpertise" made
//   to stand for the "name" relation too). Merging their rows buried the right answer. The rule:
//   1. Group Q' by predicate set. Different sets stay separate groups and their answers are merged: founder /
//      founders / foundedBy or starring / starredIn are synonyms or inverses of ONE relation, chosen on purpose.
//   2. A group whose set is a strict subset of another group's set is held back: one selected predicate stands for
//      two QIR relations there, while another group gives each relation a predicate of its own. It runs only when
//      no group of the full sets answers (tier 2).
//   3. Within a group, the wirings (a COUNT and its plain SELECT are one wiring) are tried one at a time in order of
//      preference: fewest QIR triples placed against the QIR's subject → object reading, then best mean
//      similarity, then candidate order. The next wiring runs only when the preferred one returned no rows (no
//      binding, count 0, ASK false) or failed. Limit: the preference trusts the QIR's direction; a QIR that states
//      a relation the other way round ("?m manager of X" for "X hasManager ?m") gets the inverse rows when there
//      are any.
// - P keeps candidate order (best mean score first); predicates are shown to the LLM as numbered labels.
//   The Query validator maps numbers, the exact text an option is shown with, labels (a shared label selects every
//   predicate carrying it) or IRIs back to P,
//   drops unknown items and rejects an empty result (retried ≤ θ; exhaustion is a failure, never "run everything"),
//   unless the model says explicitly that none fits (none_fit): then nothing runs and the answer is kind "none".
// - |P| = 1: no LLM call, the only predicate is selected (|P| = 0 fails the stage).
// - Answers are the union of the rows of the executed queries (the predicates were chosen as meaning the asked
//   relation), deduplicated. Booleans: true if ANY executed ASK is true. Counts: the number of distinct answers of the
//   plain SELECT variants (the largest COUNT when they found nothing or reached the row limit), unless those are
//   numeric literals: the KG stores the number itself (e.g. 223 pages), one value is the count, several are listed as
//   items. Nothing found → kind "none", never a guess.
// - ExecutedQuery.rows counts the rows that SUPPORT the answer, so `rows > 0` lists the queries behind it
//   (TurnResult.sparql): SELECT = its bindings; ASK = 1 when its result equals the final yes/no; COUNT = 1 when its
//   count (> 0) is the source of the answer. A failed query is recorded with its error; it does not fail the turn
//   unless every query failed.
import { z } from "zod";
import { toAppError } from "@/lib/errors";
import { compactIri } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";
import { dedupeTerms, isNumericLiteral, labelItems, reportRowLimit } from "@/lib/pipeline/common/answer-from-result";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import type { Answer } from "@/lib/pipeline/types";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { CandidateQuery, ChattyState, ExecutedQuery, StageFailure } from "../state";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import { workingQuestion } from "./matching-agent";
import { generateQueries } from "./query-generator";
import { describeConstraints } from "../qir-describe";
import { localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";

/** Queries run at once against the KG. */
export const EXECUTION_CONCURRENCY = 4;
export const NO_ANSWER: Answer = { kind: "none", reason: "The KG has no answer to this question." };

const selectionSchema = z.object({
  reasoning: z.string().optional(),
  predicates: z.array(z.union([z.string(), z.number()])),
  /** the model's explicit "none of these fit": the KG does not hold the asked relation (only with an empty list) */
  none_fit: z.boolean().optional(),
});
type SelectionReply = z.infer<typeof selectionSchema>;

export interface PredicateOption {
  n: number;
  iri: string;
  label: string;
  /** candidate ids using it (PredToQuery) */
  queries: number[];
  /** the option's text in the prompt after its number: the label, plus the compact IRI when a twin shares the label */
  shown?: string;
}

function failure(stage: StageFailure["stage"], message: string): Partial<ChattyState> {
  return { failure: { stage, code: "pipeline_failed", message } };
}

/** Algorithm 3 lines 1–2: the truncated candidate set Q. */
export async function queryGenerationAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (!state.qir || !state.vertices || !state.relationPredicates) return failure("query-generation", "Entities and relations must be linked first.");
  // the QIR can state constraints (qir-constraints.ts) the generator does not build yet: say so instead of ignoring them
  const unsupported = describeConstraints(state.qir);
  if (unsupported.length) return failure("query-generation", `The query generator cannot express these constraints yet: ${unsupported.join("; ")}.`);
  let candidates: CandidateQuery[];
  try {
    candidates = generateQueries({
      qir: state.qir,
      vertices: state.vertices,
      relationPredicates: state.relationPredicates,
      queryNum: ctx.config.queryNum,
      topPredicates: ctx.config.topPredicates,
      rowLimit: ctx.config.rowLimit,
    });
  } catch (e) {
    return failure("query-generation", `Could not build a query: ${toAppError(e).message}`);
  }
  if (candidates.length === 0) return failure("query-generation", "Could not build a query from the linked entities and predicates.");
  return { candidates };
}

/** P with its PredToQuery index, in candidate order. */
export function predicateOptions(candidates: CandidateQuery[], state: Pick<ChattyState, "relationPredicates">): PredicateOption[] {
  const labels = new Map<string, string>();
  for (const list of Object.values(state.relationPredicates ?? {})) for (const p of list) if (!labels.has(p.iri)) labels.set(p.iri, p.label);
  const byIri = new Map<string, PredicateOption>();
  for (const c of candidates) {
    for (const iri of c.predicates) {
      let o = byIri.get(iri);
      if (!o) byIri.set(iri, (o = { n: byIri.size + 1, iri, label: labels.get(iri) ?? localNameWords(iri), queries: [] }));
      o.queries.push(c.id);
    }
  }
  return [...byIri.values()];
}

/** Algorithm 3 lines 11–16: P' ⊆ P chosen by the LLM and checked by the Query validator (skipped when |P| ≤ 1). */
export async function querySelectionAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const options = predicateOptions(state.candidates ?? [], state);
  if (options.length === 0) return failure("query-selection", "No candidate query to choose from.");
  if (options.length === 1) return { selectedPredicates: [options[0].iri] };
  const shown = withShownText(options, ctx.kg.profile.prefixes);
  const result = await validatedCall(ctx, {
    stage: "query-selection",
    role: "predicates",
    schema: selectionSchema,
    prompt: (feedback) => renderSelectionPrompt(state, shown, ctx, feedback),
    validate: (reply) => validateSelection(reply, shown),
  });
  if (!result.ok) return failure("query-selection", `Could not choose the predicates to query: ${result.reason}`);
  // "none fit" is an answer, not a failure: the KG has no such relation around the linked entities
  if (result.value.length === 0) return { selectedPredicates: [], answer: noneFitAnswer(state, options.length) };
  return { selectedPredicates: result.value };
}

/** "The KG has no "mayor" for Hogsmeade (none of its 6 candidate predicates fits)." */
export function noneFitAnswer(state: Pick<ChattyState, "qir" | "vertices">, options: number): Answer {
  const relations = [...new Set(state.qir?.relations ?? [])].map((r) => JSON.stringify(r)).join(" or ") || "such relation";
  const entities = [...new Set(Object.values(state.vertices ?? {}).map((v) => v.label))].join(" and ") || "the entities asked about";
  return { kind: "none", reason: `The KG has no ${relations} for ${entities} (none of its ${options} candidate predicates fits the question).` };
}

/** The options with the text the prompt shows for each (`N. <shown>`): twins that share a label get their compact IRI. */
export function withShownText(options: PredicateOption[], prefixes: Record<string, string>): PredicateOption[] {
  const counts = new Map<string, number>();
  for (const o of options) counts.set(normalizeLabel(o.label), (counts.get(normalizeLabel(o.label)) ?? 0) + 1);
  return options.map((o) => {
    // same label, different predicates: show the compact IRI so the model sees they differ
    const twin = (counts.get(normalizeLabel(o.label)) ?? 0) > 1 ? ` (${compactIri(o.iri, prefixes)})` : "";
    return { ...o, shown: `${o.label}${twin}` };
  });
}

export function renderSelectionPrompt(state: ChattyState, options: PredicateOption[], ctx: AgentContext, feedback?: string) {
  const lines = withShownText(options, ctx.kg.profile.prefixes).map((o) => `${o.n}. ${o.shown}`);
  const relations = [...new Set(state.qir?.triples.map((t) => t.relation) ?? [])].map((r) => JSON.stringify(r)).join(", ") || "(none)";
  return renderPromptPair("predicate-selection", {
    question: workingQuestion(state),
    relations,
    predicates: lines.join("\n"),
    feedback: feedback ? `\n\n${feedback}` : "",
  });
}

/**
 * Query validator: well-formed (schema) and a non-empty subset of P after dropping unknown items; or an explicit
 * "none fit" (empty list + none_fit: true) → []. An empty list WITHOUT none_fit stays invalid (paper §5.2.3: retried).
 */
export function validateSelection(reply: SelectionReply, options: PredicateOption[]): Validation<string[]> {
  if (reply.none_fit === true) {
    if (reply.predicates.length === 0) return { ok: true, value: [] };
    return { ok: false, reason: `"none_fit" is true but predicates were listed; either list the fitting predicates with "none_fit": false, or give an empty list with "none_fit": true` };
  }
  const chosen = new Set<string>();
  const unknown: string[] = [];
  for (const item of reply.predicates) {
    const hits = resolveItem(item, options);
    if (hits.length === 0) unknown.push(String(item).slice(0, 60));
    for (const h of hits) chosen.add(h.iri);
  }
  if (chosen.size === 0) {
    const why = unknown.length ? `none of ${unknown.map((u) => JSON.stringify(u)).join(", ")} is in the list` : "no predicate was chosen";
    return { ok: false, reason: `${why}; choose at least one predicate by its number (1–${options.length}), or say "none_fit": true with an empty list if none carries the asked relation` };
  }
  // keep P's order
  return { ok: true, value: options.filter((o) => chosen.has(o.iri)).map((o) => o.iri) };
}

/**
 * One listed item → the options it names: its number (7, "7", "7.", "#7", "7. label"), the exact text shown after a
 * number ("phone number", or "founder (ex:founder)" for one of two twins), its IRI, or a label that several twins
 * share (→ all of them). Case, accents and surrounding quotes/punctuation are ignored.
 */
function resolveItem(item: string | number, options: PredicateOption[]): PredicateOption[] {
  const byN = (n: number) => options.filter((o) => o.n === n);
  if (typeof item === "number") return Number.isInteger(item) ? byN(item) : [];
  const text = item.trim();
  const number = /^#?(\d+)\.?$/.exec(text);
  if (number) return byN(Number(number[1]));
  const numbered = /^(\d+)[.)]\s+(.+)$/.exec(text);
  if (numbered) {
    const hit = byN(Number(numbered[1]));
    if (hit.length && normalizeLabel(numbered[2]).startsWith(normalizeLabel(hit[0].label))) return hit;
  }
  const exactIri = options.filter((o) => o.iri === text);
  if (exactIri.length) return exactIri;
  const asShown = options.filter((o) => o.shown !== undefined && normalizeLabel(o.shown) === normalizeLabel(text));
  if (asShown.length) return asShown;
  const wanted = normalizeLabel(text.replace(/\s*\([^)]*\)$/, ""));
  return options.filter((o) => normalizeLabel(o.label) === wanted);
}

interface Outcome {
  candidate: CandidateQuery;
  executed: ExecutedQuery;
  terms?: Term[];
  count?: number;
  boolean?: boolean;
}

/**
 * Q' for the selected predicates P'. The paper's rule Pred(ψ) ∩ P' ≠ ∅ is right for one-triple queries, but for a
 * multi-triple query it would also run "member of ∧ <a rejected predicate>" and merge its junk rows into the answer
 * (CK25 q7: 190 items instead of 1). So the queries whose predicates were ALL selected (Pred(ψ) ⊆ P') are run; only
 * when no candidate qualifies (the model kept predicates of one relation only) does the paper's rule apply.
 */
export function selectCandidates(candidates: CandidateQuery[], selectedPredicates: string[]): CandidateQuery[] {
  const selected = new Set(selectedPredicates);
  const all = candidates.filter((c) => c.predicates.every((p) => selected.has(p)));
  return all.length > 0 ? all : candidates.filter((c) => c.predicates.some((p) => selected.has(p)));
}

/** One wiring: the candidates of one graph pattern (a COUNT and its plain SELECT), run together. */
export type Wiring = CandidateQuery[];
/** The wirings of one predicate set, preferred first (see the file comment). */
export interface WiringGroup {
  predicates: string[];
  wirings: Wiring[];
}

const setKey = (c: CandidateQuery) => [...new Set(c.predicates)].sort().join(" ");

function isStrictSubset(a: string[], b: string[]): boolean {
  const inB = new Set(b);
  return a.length < b.length && a.every((x) => inB.has(x));
}

/** Wiring order: fewest triples against the QIR's direction, then best mean similarity, then candidate order. */
function compareWirings(a: Wiring, b: Wiring): number {
  const reversed = (w: Wiring) => Math.min(...w.map((c) => c.reversed ?? 0));
  const score = (w: Wiring) => Math.max(...w.map((c) => c.score));
  const id = (w: Wiring) => Math.min(...w.map((c) => c.id));
  return reversed(a) - reversed(b) || score(b) - score(a) || id(a) - id(b);
}

/**
 * Q' as tiers of groups of wirings (see the file comment): tier 1 the groups of maximal predicate sets, tier 2 the
 * groups whose set is a strict subset of another's (only with Pred(ψ) ⊆ P'). Groups keep candidate order.
 */
export function planRuns(candidates: CandidateQuery[], selectedPredicates: string[]): WiringGroup[][] {
  const chosen = selectCandidates(candidates, selectedPredicates);
  const selected = new Set(selectedPredicates);
  const allSelected = chosen.every((c) => c.predicates.every((p) => selected.has(p)));
  const groups = new Map<string, { predicates: string[]; wirings: Map<string, Wiring> }>();
  for (const c of chosen) {
    const key = setKey(c);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { predicates: [...new Set(c.predicates)].sort(), wirings: new Map() }));
    // a candidate without a recorded wiring (older state) is a wiring of its own
    const w = c.wiring ?? `#${c.id}`;
    g.wirings.set(w, [...(g.wirings.get(w) ?? []), c]);
  }
  const list: WiringGroup[] = [...groups.values()].map((g) => ({ predicates: g.predicates, wirings: [...g.wirings.values()].sort(compareWirings) }));
  if (!allSelected) return list.length ? [list] : [];
  const subsumed = (g: WiringGroup) => list.some((o) => isStrictSubset(g.predicates, o.predicates));
  return [list.filter((g) => !subsumed(g)), list.filter(subsumed)].filter((tier) => tier.length > 0);
}

/** True when the wiring's outcomes hold something: a binding, a count > 0, or an ASK that is true. */
function answered(outcomes: Outcome[]): boolean {
  return outcomes.some((o) => !o.executed.error && ((o.terms?.length ?? 0) > 0 || (o.count ?? 0) > 0 || o.boolean === true));
}

/**
 * Runs the plan: per tier, the preferred wiring of every group at once; a group that got nothing tries its next
 * wiring; the next tier runs only when no group of this tier answered. Returns every outcome, in run order.
 */
async function runPlan(tiers: WiringGroup[][], ctx: AgentContext): Promise<Outcome[]> {
  const all: Outcome[] = [];
  for (const tier of tiers) {
    let pending = tier.map((g) => ({ g, next: 0 }));
    let tierAnswered = false;
    while (pending.length > 0) {
      const batch = pending.map((p) => p.g.wirings[p.next]);
      const outcomes = await mapBounded(batch.flat(), EXECUTION_CONCURRENCY, (c) => execute(c, ctx));
      all.push(...outcomes);
      let at = 0;
      const still: typeof pending = [];
      pending.forEach((p, i) => {
        const mine = outcomes.slice(at, (at += batch[i].length));
        if (answered(mine)) tierAnswered = true;
        else if (p.next + 1 < p.g.wirings.length) still.push({ g: p.g, next: p.next + 1 });
      });
      pending = still;
    }
    if (tierAnswered) break;
  }
  return all;
}

/** Algorithm 3 lines 17–18: run Q' (see planRuns), merge and deduplicate the answers. */
export async function executionAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const tiers = planRuns(state.candidates ?? [], state.selectedPredicates ?? []);
  if (tiers.length === 0) return failure("execution", "No candidate query uses the selected predicates.");
  const outcomes = await runPlan(tiers, ctx);
  const ok = outcomes.filter((o) => !o.executed.error);
  if (ok.length === 0) {
    return { executed: outcomes.map((o) => o.executed), ...failure("execution", `Every query failed; first error: ${outcomes[0].executed.error}`) };
  }
  const { answer, items } = combine(state, outcomes, ctx.config.rowLimit);
  const answerItems = await labelItems(items, ctx);
  const finalAnswer: Answer = answer.kind === "items" ? { kind: "items", items: answerItems } : answer;
  return { executed: outcomes.map((o) => o.executed), answer: finalAnswer, answerItems };
}

async function execute(candidate: CandidateQuery, ctx: AgentContext): Promise<Outcome> {
  const started = ctx.now();
  const base = { id: candidate.id, sparql: candidate.sparql };
  try {
    const r = await ctx.sparql("execution", `candidate #${candidate.id} (${candidate.kind})`, candidate.sparql);
    const ms = ctx.now() - started;
    if (r.kind === "ASK") return { candidate, boolean: r.boolean, executed: { ...base, rows: r.boolean ? 1 : 0, ms } };
    if (r.kind !== "SELECT") return { candidate, terms: [], executed: { ...base, rows: 0, ms } };
    const variable = r.head.vars[0];
    if (candidate.kind === "COUNT") {
      const n = Number(r.results.bindings[0]?.[variable]?.value ?? 0);
      const count = Number.isFinite(n) ? n : 0;
      return { candidate, count, executed: { ...base, rows: count > 0 ? 1 : 0, ms } };
    }
    reportRowLimit(ctx, "execution", r.results.bindings.length, ctx.config.rowLimit);
    const terms = r.results.bindings.map((b) => b[variable]).filter((t): t is Term => !!t && t.type !== "bnode");
    return { candidate, terms, executed: { ...base, rows: terms.length, ms } };
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted") throw err;
    return { candidate, executed: { ...base, rows: 0, ms: ctx.now() - started, error: err.message } };
  }
}

/** Merges the outcomes into one answer (see the file comment) and sets each `rows` to the rows supporting it. */
function combine(state: ChattyState, outcomes: Outcome[], rowLimit: number): { answer: Answer; items: Term[] } {
  const ok = outcomes.filter((o) => !o.executed.error);
  const union = dedupeTerms(ok.flatMap((o) => o.terms ?? []));
  if (state.qir?.questionType === "boolean" || ok.every((o) => o.boolean !== undefined)) {
    const asks = ok.filter((o) => o.boolean !== undefined);
    const value = asks.some((o) => o.boolean);
    for (const o of asks) o.executed.rows = o.boolean === value ? 1 : 0;
    return { answer: { kind: "boolean", value }, items: [] };
  }
  if (state.qir?.questionType === "count") {
    const counts = ok.filter((o) => o.count !== undefined);
    if (union.length > 0 && union.every(isNumericLiteral)) {
      for (const o of counts) o.executed.rows = 0; // the KG stores the number: the COUNTs are not the answer
      const values = [...new Set(union.map((t) => Number(t.value)))];
      return values.length === 1 ? { answer: { kind: "count", count: values[0] }, items: [] } : { answer: { kind: "items", items: [] }, items: union };
    }
    const maxCount = Math.max(0, ...counts.map((o) => o.count ?? 0));
    if (union.length === 0 && maxCount === 0) return { answer: NO_ANSWER, items: [] };
    const count = union.length >= rowLimit ? Math.max(maxCount, union.length) : union.length || maxCount;
    return { answer: { kind: "count", count }, items: union };
  }
  if (union.length === 0) return { answer: NO_ANSWER, items: [] };
  return { answer: { kind: "items", items: [] }, items: union };
}

/** Algorithm 3: `{ candidates, selectedPredicates, executed, answer, answerItems }` or `{ failure }` (with what was done). */
export async function queryPlanningAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const generated = await queryGenerationAgent(state, ctx);
  if (generated.failure) return generated;
  const selection = await querySelectionAgent({ ...state, ...generated }, ctx);
  // a failure, or "none fit" (already the answer): nothing to run
  if (selection.failure || selection.answer) return { ...generated, ...selection };
  const executed = await executionAgent({ ...state, ...generated, ...selection }, ctx);
  return { ...generated, ...selection, ...executed };
}
