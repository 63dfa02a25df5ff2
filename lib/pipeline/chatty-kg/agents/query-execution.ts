// Query execution (paper Algorithm 3 lines 17–18): run Q' in the planned order (run-plan.ts) and merge the results into
// one answer — yes/no, a count, items, or a table (several shown variables, or aggregates per group).
//
// Decisions (the rest are in query-planner.ts's header):
// - Rows of several executed queries are merged in run order, repeated rows dropped; one projected variable gives
//   items, several a table (the shared converter, lib/pipeline/common/answer-from-result.ts).
// - An aggregate over the whole answer (no group) answers with its value(s); when the hidden support count says it ran
//   over nothing, the answer is "no answer", never SUM = 0 or an empty AVG. A count question keeps its own rules
//   (COUNT and the plain SELECT of the target, query-planner.ts).
import { toAppError } from "@/lib/errors";
import type { Bindings, Term } from "@/lib/kg/types";
import type sparqljs from "sparqljs";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { answerFromResult, dedupeTerms, isNumericLiteral, labelItems, projectsAggregate, reportRowLimit } from "@/lib/pipeline/common/answer-from-result";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import type { Answer, AnswerItem } from "@/lib/pipeline/types";
import type { CandidateQuery, ChattyState, ExecutedQuery, StageFailure } from "../state";
import { SUPPORT_VAR } from "./query-modifiers";
import { planRuns, type WiringGroup } from "./run-plan";
import { writeQuery } from "./query-writer";

/** Queries run at once against the KG. */
export const EXECUTION_CONCURRENCY = 4;
export const NO_ANSWER: Answer = { kind: "none", reason: "The KG has no answer to this question." };

function failure(stage: StageFailure["stage"], message: string): Partial<ChattyState> {
  return { failure: { stage, code: "pipeline_failed", message } };
}

interface Outcome {
  candidate: CandidateQuery;
  executed: ExecutedQuery;
  /** one projected variable: its values */
  terms?: Term[];
  /** several projected variables (or aggregates): the rows */
  table?: { vars: string[]; rows: Bindings[] };
  count?: number;
  boolean?: boolean;
}

/** True when the wiring's outcomes hold something: a binding, a row, a count > 0, or an ASK that is true. */
function answered(outcomes: Outcome[]): boolean {
  return outcomes.some((o) => !o.executed.error && ((o.terms?.length ?? 0) > 0 || supported(o) || (o.count ?? 0) > 0 || o.boolean === true));
}

/** A table outcome with rows that are not an aggregate over nothing. */
function supported(o: Outcome): boolean {
  if (!o.table) return false;
  const support = o.table.vars.includes(SUPPORT_VAR);
  return o.table.rows.some((r) => (support ? Number(r[SUPPORT_VAR]?.value ?? 0) > 0 : Object.keys(r).length > 0));
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
  const [first, ...rest] = state.candidates ?? [];
  const selected = new Set(state.selectedPredicates ?? []);
  // a user who ticked other predicates (a correction) leaves the written query out when it uses one they did not tick
  if (first?.written && !first.predicates.every((p) => selected.has(p))) return runGenerated({ ...state, candidates: rest }, ctx, false);
  if (first?.written) {
    // the written query answers alone; only when it fails or finds nothing do the generated ones run
    let done = await runWritten(first, ctx);
    let ran = [done.executed];
    if (done.executed.error) {
      // an engine's error (an unsupported function, a timeout) goes back to the writer once
      const again = await writeQuery(state, ctx, rest, "execution", { sparql: first.sparql, error: done.executed.error });
      if (again) {
        done = await runWritten({ ...again, id: first.id }, ctx);
        ran = [...ran, done.executed];
      }
    }
    if (done.answer) return { executed: ran, answer: done.answer, ...(done.answerItems ? { answerItems: done.answerItems } : {}) };
    ctx.emit({ type: "warning", stage: "execution", message: `The written query ${done.executed.error ? `failed (${done.executed.error})` : "found nothing"}; the generated queries run instead.` });
    if (rest.length === 0) return done.executed.error ? { executed: ran, ...failure("execution", `The query failed: ${done.executed.error}`) } : { executed: ran, answer: NO_ANSWER };
    const after = await runGenerated({ ...state, candidates: rest }, ctx, false);
    return { ...after, executed: [...ran, ...(after.executed ?? [])] };
  }
  return runGenerated(state, ctx, true);
}

/** Q' in the planned order, merged; with `mayRescue`, a question they found nothing for goes to the query writer. */
async function runGenerated(state: ChattyState, ctx: AgentContext, mayRescue: boolean): Promise<Partial<ChattyState>> {
  const tiers = planRuns(state.candidates ?? [], state.selectedPredicates ?? []);
  if (tiers.length === 0) return failure("execution", "No candidate query uses the selected predicates.");
  const outcomes = await runPlan(tiers, ctx);
  const ok = outcomes.filter((o) => !o.executed.error);
  if (ok.length === 0) {
    const rescued = mayRescue ? await rescue(state, ctx, outcomes.map((o) => o.executed)) : undefined;
    if (rescued) return rescued;
    return { executed: outcomes.map((o) => o.executed), ...failure("execution", `Every query failed; first error: ${outcomes[0].executed.error}`) };
  }
  const { answer, items } = await combine(state, outcomes, ctx);
  if (answer.kind === "none" && mayRescue) {
    // the generated queries found nothing: the query writer gets one try from what was linked (query-writer.ts)
    const rescued = await rescue(state, ctx, outcomes.map((o) => o.executed));
    if (rescued) return rescued;
  }
  const answerItems = answer.kind === "items" && items ? await labelItems(items, ctx) : undefined;
  const finalAnswer: Answer = answerItems ? { kind: "items", items: answerItems } : answer;
  return { executed: outcomes.map((o) => o.executed), answer: finalAnswer, ...(answerItems ? { answerItems } : {}) };
}

/** The written query's answer when the generated ones found nothing, or undefined (declined, rejected, or no rows either). */
async function rescue(state: ChattyState, ctx: AgentContext, executed: ExecutedQuery[]): Promise<Partial<ChattyState> | undefined> {
  if (!state.qir) return undefined;
  const candidates = state.candidates ?? [];
  const written = await writeQuery(state, ctx, candidates, "execution");
  if (!written) return undefined;
  const candidate = { ...written, id: Math.max(0, ...candidates.map((c) => c.id)) + 1 };
  const done = await runWritten(candidate, ctx);
  if (!done.answer) return undefined;
  return { candidates: [...candidates, candidate], executed: [...executed, done.executed], answer: done.answer, ...(done.answerItems ? { answerItems: done.answerItems } : {}) };
}

/** Runs the written query: its answer through the shared converter (several columns a table, one aggregate a count). */
async function runWritten(candidate: CandidateQuery, ctx: AgentContext): Promise<{ executed: ExecutedQuery; answer?: Answer; answerItems?: AnswerItem[] }> {
  const started = ctx.now();
  const base = { id: candidate.id, sparql: candidate.sparql };
  try {
    const r = await ctx.sparql("execution", `candidate #${candidate.id} (written)`, candidate.sparql);
    // an aggregate or a computed column (a percentage, a difference): one numeric value is the number asked for
    const ast = parseReadOnly(candidate.sparql).ast as sparqljs.SelectQuery;
    const aggregate = r.kind === "SELECT" && (projectsAggregate(ast) || (ast.variables ?? []).some((v) => typeof v === "object" && "expression" in v));
    const { answer, rows } = await answerFromResult(r, ctx, { aggregate, rowLimit: r.kind === "SELECT" ? ctx.config.rowLimit : undefined });
    const executed = { ...base, rows, ms: ctx.now() - started };
    if (answer.kind === "none") return { executed };
    return { executed, answer, ...(answer.kind === "items" ? { answerItems: answer.items } : {}) };
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted") throw err;
    return { executed: { ...base, rows: 0, ms: ctx.now() - started, error: err.message } };
  }
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
    if (r.head.vars.length > 1) {
      const table = { vars: r.head.vars, rows: r.results.bindings };
      const o: Outcome = { candidate, table, executed: { ...base, rows: 0, ms } };
      o.executed.rows = supported(o) ? table.rows.length : 0;
      return o;
    }
    const terms = r.results.bindings.map((b) => b[variable]).filter((t): t is Term => !!t && t.type !== "bnode");
    return { candidate, terms, executed: { ...base, rows: terms.length, ms } };
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted") throw err;
    return { candidate, executed: { ...base, rows: 0, ms: ctx.now() - started, error: err.message } };
  }
}

/** The rows of the table outcomes merged (same columns as the first), repeats dropped, the support column removed. */
function mergedTable(tables: Outcome[]): { vars: string[]; rows: Bindings[] } {
  const vars = (tables[0].table as { vars: string[] }).vars;
  const seen = new Set<string>();
  const rows: Bindings[] = [];
  for (const o of tables) {
    if (!o.table || o.table.vars.join(" ") !== vars.join(" ") || !supported(o)) continue;
    for (const r of o.table.rows) {
      const key = vars.filter((v) => v !== SUPPORT_VAR).map((v) => JSON.stringify(r[v] ?? null)).join("\u0000");
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(Object.fromEntries(Object.entries(r).filter(([k]) => k !== SUPPORT_VAR)));
    }
  }
  return { vars: vars.filter((v) => v !== SUPPORT_VAR), rows };
}

/** Merges the outcomes into one answer (see the file comments) and sets each `rows` to the rows supporting it. */
async function combine(state: ChattyState, outcomes: Outcome[], ctx: AgentContext): Promise<{ answer: Answer; items?: Term[] }> {
  const ok = outcomes.filter((o) => !o.executed.error);
  const union = dedupeTerms(ok.flatMap((o) => o.terms ?? []));
  if (state.qir?.questionType === "boolean" || ok.every((o) => o.boolean !== undefined)) {
    const asks = ok.filter((o) => o.boolean !== undefined);
    const value = asks.some((o) => o.boolean);
    for (const o of asks) o.executed.rows = o.boolean === value ? 1 : 0;
    return { answer: { kind: "boolean", value } };
  }
  if (state.qir?.questionType === "count") {
    const counts = ok.filter((o) => o.count !== undefined);
    if (union.length > 0 && union.every(isNumericLiteral)) {
      for (const o of counts) o.executed.rows = 0; // the KG stores the number: the COUNTs are not the answer
      const values = [...new Set(union.map((t) => Number(t.value)))];
      return values.length === 1 ? { answer: { kind: "count", count: values[0] } } : { answer: { kind: "items", items: [] }, items: union };
    }
    const maxCount = Math.max(0, ...counts.map((o) => o.count ?? 0));
    if (union.length === 0 && maxCount === 0) return { answer: NO_ANSWER };
    const count = union.length >= ctx.config.rowLimit ? Math.max(maxCount, union.length) : union.length || maxCount;
    return { answer: { kind: "count", count } };
  }
  const tables = ok.filter((o) => o.table);
  if (tables.length > 0) {
    const { vars, rows } = mergedTable(tables);
    if (rows.length === 0) return { answer: NO_ANSWER };
    const aggregates = state.qir?.aggregates ?? [];
    const ungrouped = aggregates.length > 0 && !state.qir?.groupBy?.length && vars.length === aggregates.length;
    if (ungrouped) {
      // one row of aggregate values: a count when that is all it is, else the values themselves
      const values = vars.map((v) => rows[0][v]).filter((t): t is Term => !!t);
      if (values.length === 0) return { answer: NO_ANSWER };
      if (values.length === 1 && aggregates[0].fn === "count") return { answer: { kind: "count", count: Number(values[0].value) } };
      return { answer: { kind: "items", items: [] }, items: values };
    }
    const { answer } = await answerFromResult({ kind: "SELECT", head: { vars }, results: { bindings: rows } }, ctx, { aggregate: false });
    return { answer: answer.kind === "none" ? NO_ANSWER : answer };
  }
  if (union.length === 0) return { answer: NO_ANSWER };
  return { answer: { kind: "items", items: [] }, items: union };
}
