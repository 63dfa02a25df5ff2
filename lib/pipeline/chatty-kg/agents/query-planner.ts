// Query planning agent (paper Algorithm 3): generate candidates, let the LLM keep the relevant predicates, run those queries.
//
// Decisions:
// - Q' runs the candidates whose predicates were all selected (Pred(ψ) ⊆ P'), else those sharing one with P'
//   (the paper's rule; see selectCandidates).
// - Q' is not run all at once (see planRuns). The LLM chooses predicates, not wirings; the generator places every
//   chosen predicate in every direction and join it was found in, so Q' also holds WRONGLY WIRED queries that use the
//   right predicates ("?person mentor ?x" next to "?x mentor ?person"; one predicate made to stand for a second
//   relation such as "name" too). Merging their rows buried the right answer. The rule:
//   1. Group Q' by predicate set. Different sets stay separate groups and their answers are merged: founder /
//      founders / foundedBy or starring / starredIn are synonyms or inverses of ONE relation, chosen on purpose.
//   2. A group whose set is a strict subset of another group's set is held back: one selected predicate stands for
//      two QIR relations there, while another group gives each relation a predicate of its own. It runs only when
//      no group of the full sets answers (tier 2).
//   3. Within a group, the wirings (a COUNT and its plain SELECT are one wiring) are tried one at a time in order of
//      preference: fewest QIR triples placed against the QIR's subject → object reading, then best mean
//      similarity, then candidate order. The next wiring runs only when the preferred one returned no rows (no
//      binding, count 0, ASK false) or failed. Limit: the preference trusts the QIR's direction; a QIR that states
//      a relation the other way round ("?m mentor of X" for "X mentor ?m") gets the inverse rows when there
//      are any.
// - P keeps candidate order (best mean score first); predicates are shown to the LLM as numbered labels.
//   The Query validator maps numbers, the exact text an option is shown with, labels (a shared label selects every
//   predicate carrying it) or IRIs back to P,
//   drops unknown items and rejects an empty result (retried ≤ θ; exhaustion is a failure, never "run everything"),
//   unless the model says explicitly that none fits (none_fit): then nothing runs and the answer is kind "none".
// - |P| = 1: no LLM call, the only predicate is selected; |P| = 0 fails the stage, unless the candidates use no
//   predicate at all (a class alone: "How many hotels are there?"), which then run as they are.
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
import type { Answer } from "@/lib/pipeline/types";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { CandidateQuery, ChattyState, StageFailure } from "../state";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import { workingQuestion } from "./matching-agent";
import { generateQueries } from "./query-generator";
import { writeQuery } from "./query-writer";
import { executionAgent } from "./query-execution";
import { localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";

export { EXECUTION_CONCURRENCY, executionAgent, NO_ANSWER } from "./query-execution";
export { planRuns, selectCandidates, type Wiring, type WiringGroup } from "./run-plan";

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
  let candidates: CandidateQuery[];
  try {
    candidates = generateQueries({
      qir: state.qir,
      vertices: state.vertices,
      relationPredicates: state.relationPredicates,
      queryNum: ctx.config.queryNum,
      topPredicates: ctx.config.topPredicates,
      rowLimit: ctx.config.rowLimit,
      literals: state.literals,
      classes: state.classes,
      excluded: state.excluded,
      among: state.among,
      typePredicate: ctx.kg.profile.typePredicates[0],
    });
  } catch (e) {
    return failure("query-generation", `Could not build a query: ${toAppError(e).message}`);
  }
  // an analytic question (QIR compose): the query writer writes it from the linked parts; the generated ones stay behind it
  if (state.qir.compose) {
    const written = await writeQuery(state, ctx, candidates);
    if (written) return { candidates: [{ ...written, id: 1 }, ...candidates.map((c, i) => ({ ...c, id: i + 2 }))] };
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
  // a written query (query-writer.ts) chose its predicates itself: no call
  const written = state.candidates?.[0]?.written ? state.candidates[0] : undefined;
  if (written) return { selectedPredicates: written.predicates };
  const options = predicateOptions(state.candidates ?? [], state);
  // a class alone ("How many hotels are there?") has no predicate to choose
  if (options.length === 0 && (state.candidates ?? []).length > 0) return { selectedPredicates: [] };
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
  // "none fit" is an answer, not a failure: the KG has no such relation around the linked entities — unless the query
  // writer, reading the classes around what was linked, finds the relation elsewhere (query-writer.ts)
  if (result.value.length === 0) {
    const written = await writeQuery(state, ctx, state.candidates ?? [], "query-selection");
    if (written) return { candidates: [{ ...written, id: 1 }, ...(state.candidates ?? []).map((c) => ({ ...c, id: c.id + 1 }))], selectedPredicates: written.predicates };
    return { selectedPredicates: [], answer: noneFitAnswer(state, options.length) };
  }
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
  const relations = [...new Set([...(state.qir?.triples ?? []), ...(state.qir?.negated ?? [])].map((t) => t.relation))].map((r) => JSON.stringify(r)).join(", ") || "(none)";
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
