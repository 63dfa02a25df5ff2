// The one generation call and its repairs: the prompt (examples, cards, entities), the reply guarded (parses,
// read-only, SELECT/ASK) and validated against the KG; a valid query runs; validation problems, a failed run or no
// rows go back to the model as concrete problems for at most `oneCallRepairs` repairs.
import type sparqljs from "sparqljs";
import { toAppError, type ErrorCode } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { answerFromResult } from "@/lib/pipeline/common/answer-from-result";
import { kgNotesBlock } from "@/lib/pipeline/common/kg-notes";
import { guardReply, extractQuery, type GuardedQuery } from "@/lib/pipeline/common/query-reply";
import type { Answer } from "@/lib/pipeline/types";
import { promptIris, type Retrieved } from "./retrieval";
import type { OneCallAttempt } from "./state";
import { validateQuery, type ValidationEnv } from "@/lib/pipeline/common/query-validator";

/** Run errors a new query cannot fix: fail at once. */
const NOT_RETRYABLE: ReadonlySet<ErrorCode> = new Set(["kg_unreachable", "kg_unavailable", "aborted", "internal"]);
export const NO_ROWS_PROBLEM = "The query ran but returned no rows. Check each name, literal and predicate direction against the cards and the examples.";

export interface PromptParts {
  question: string;
  /** the user's own words when the standalone question differs */
  asked?: string;
  context: string;
}

function examplesText(r: Retrieved): string {
  if (r.examples.length === 0) return "";
  const items = r.examples.map((e, i) => `Example ${i + 1} (similarity ${e.score.toFixed(2)}). Question: ${e.question}\n\`\`\`sparql\n${e.sparql.trim()}\n\`\`\``);
  return `Solved questions of this KG (their queries worked):\n${items.join("\n")}\n\n`;
}

function entitiesText(r: Retrieved): string {
  if (r.entities.length === 0) return "";
  return `\nEntities whose names match words of the question:\n${r.entities.map((e) => `- <${e.iri}> "${e.label}" (for "${e.mention}")`).join("\n")}\n`;
}

export function renderOneCallPrompt(ctx: AgentContext, r: Retrieved, parts: PromptParts, feedback: string): { system: string; prompt: string } {
  return renderPromptPair("one-call", {
    kgName: ctx.kg.info.name,
    notes: kgNotesBlock(r.notes),
    examples: examplesText(r),
    cards: r.selection.text,
    entities: entitiesText(r),
    context: parts.context ? `\nConversation so far (earlier questions Q and answers A):\n${parts.context}\n\n` : "\n",
    question: parts.question.trim(),
    asked: parts.asked ? `\n(The user wrote: ${parts.asked.trim()})` : "",
    feedback,
  });
}

export function feedbackFor(previous: OneCallAttempt | undefined, written: string | undefined): string {
  if (!previous) return "";
  const shown = written ? `\n\nYour previous query:\n\`\`\`sparql\n${written.slice(0, 4000)}\n\`\`\`` : "";
  return `${shown}\nIts problems:\n${previous.problems.map((p) => `- ${p}`).join("\n")}\nWrite a corrected query.`;
}

export interface AttemptOutcome {
  attempt: OneCallAttempt;
  /** the model's query text (for the next repair's feedback) */
  written?: string;
  guarded?: GuardedQuery;
  ast?: sparqljs.SelectQuery | sparqljs.AskQuery;
}

/** One model call, the guard and the validation. A provider failure throws (the stage fails). */
export async function writeAndValidate(ctx: AgentContext, r: Retrieved, parts: PromptParts, n: number, previous: { attempt: OneCallAttempt; written?: string } | undefined): Promise<AttemptOutcome> {
  const { system, prompt } = renderOneCallPrompt(ctx, r, parts, feedbackFor(previous?.attempt, previous?.written));
  const result = await ctx.llm.call({ role: "one-call", system, prompt, attempt: n, signal: ctx.signal });
  if (!result.ok) {
    ctx.emit({ type: "llm-call", stage: "query-generation", call: { ...result.record, validationError: result.reason } });
    return { attempt: { n, problems: [result.reason], checks: 0 } };
  }
  const written = extractQuery(result.text);
  const guarded = guardReply(result.text, r.cards.prefixes, ctx.config.rowLimit);
  if (!guarded.ok) {
    ctx.llm.reject(result.record.id, guarded.reason);
    ctx.emit({ type: "llm-call", stage: "query-generation", call: { ...result.record, validationError: guarded.reason } });
    return { attempt: { n, problems: [guarded.reason], checks: 0 }, written };
  }
  const ast = parseReadOnly(guarded.value.sparql).ast as sparqljs.SelectQuery | sparqljs.AskQuery;
  const env = validationEnv(ctx, r, parts.context);
  const { problems, checks } = await validateQuery(ast, env);
  if (problems.length) ctx.llm.reject(result.record.id, problems.join(" "));
  ctx.emit({ type: "llm-call", stage: "query-generation", call: { ...result.record, parsed: guarded.value.sparql, ...(problems.length ? { validationError: problems.join(" ") } : {}) } });
  return { attempt: { n, sparql: guarded.value.sparql, problems, checks }, written, guarded: guarded.value, ast };
}

export function validationEnv(ctx: AgentContext, r: Retrieved, context: string): ValidationEnv {
  return {
    cards: r.cards,
    known: promptIris(r, context),
    typePredicates: ctx.kg.profile.typePredicates,
    labelPredicates: ctx.kg.profile.labelPredicates,
    ask: async (query) => {
      try {
        const res = await ctx.sparql("query-generation", "validation", query);
        return res.kind === "ASK" ? res.boolean : undefined;
      } catch (e) {
        const err = toAppError(e);
        if (err.code === "aborted" || ctx.signal?.aborted) throw err;
        return undefined;
      }
    },
  };
}

export type RunOutcome = { kind: "answer"; answer: Answer; rows: number } | { kind: "problem"; problem: string } | { kind: "fatal"; code: ErrorCode; message: string };

/** Runs a validated query; no rows is a problem for a repair, not yet the answer. */
export async function runQuery(ctx: AgentContext, q: GuardedQuery, n: number): Promise<RunOutcome> {
  try {
    const result = await ctx.sparql("execution", `one-call query (attempt ${n})`, q.sparql);
    const { answer, rows } = await answerFromResult(result, ctx, { aggregate: q.aggregate, rowLimit: q.kind === "SELECT" ? ctx.config.rowLimit : undefined });
    if (answer.kind === "none") return { kind: "problem", problem: NO_ROWS_PROBLEM };
    return { kind: "answer", answer, rows };
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted") throw err;
    if (NOT_RETRYABLE.has(err.code)) return { kind: "fatal", code: err.code, message: `The query could not run: ${err.message}` };
    return { kind: "problem", problem: `Running it failed: ${err.message}` };
  }
}
