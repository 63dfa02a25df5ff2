// "One-shot text-to-SPARQL" baseline (what LangChain's GraphSparqlQAChain does): schema summary + question → one query
// by the model → guarded and run; a refused or failing query is sent back with the reason (≤ θ model calls in all).
import { toAppError, type ErrorCode } from "@/lib/errors";
import { renderPromptPair } from "@/lib/prompts";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { streamEvents } from "@/lib/pipeline/event-stream";
import type { DerivationEvent, Stage, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { ExecutedQuery } from "@/lib/pipeline/common/state";
import { buildDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import { localName } from "@/lib/kg/profile";
import { failedSummary, startBaselineTurn } from "./baseline-turn";
import { BASELINE_INFO } from "./info";
import type { BaselineState } from "./state";
import { createSchemaCache, DEFAULT_SCHEMA_LIMITS, getKgSchema, type KgSchema, type SchemaCache, type SchemaLimits } from "./kg-schema";
import { guardReply, type GuardedQuery } from "@/lib/pipeline/common/query-reply";
import { answerFromResult } from "@/lib/pipeline/common/answer-from-result";

/** Execution errors the model cannot fix by rewriting the query: fail at once instead of spending attempts. */
const NOT_RETRYABLE: ReadonlySet<ErrorCode> = new Set(["kg_unreachable", "kg_unavailable", "aborted", "internal"]);

export interface OneShotSparqlOptions {
  /** schema summaries per KG object; default: one WeakMap shared by the module's strategy */
  schemaCache?: SchemaCache;
  schemaLimits?: SchemaLimits;
}

type Note = { summary: string; output?: unknown };

interface Attempt {
  /** 1-based model call number */
  n: number;
  /** what went wrong with the previous attempt, shown to the model */
  feedback?: string;
}

function feedbackFor(previous: string | undefined, reason: string): string {
  const shown = previous ? `Your previous query was:\n\`\`\`sparql\n${previous}\n\`\`\`\n` : "";
  return `${shown}It was rejected: ${reason}. Write a corrected query.`;
}

async function runTurn(input: StrategyInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void, cache: SchemaCache, limits: SchemaLimits): Promise<TurnResult> {
  const theta = input.config.theta;
  const notes: Partial<Record<Stage, Note>> = {};
  const summarize = (stage: Stage, state: BaselineState): Note => failedSummary(stage, state) ?? notes[stage] ?? { summary: "" };
  const { ctx, run, finish } = startBaselineTurn(input, deps, emit, summarize);
  const context = buildDialogueContext(input.dialogue, { answerLimit: input.config.answerLimit, mode: input.config.mode });
  const executed: ExecutedQuery[] = [];
  let schema: { schema: KgSchema; cached: boolean } | undefined;
  let attempt: Attempt | undefined = { n: 1 };

  while (attempt && !run.state.failure) {
    const current: Attempt = attempt;
    attempt = undefined;
    let query: GuardedQuery | undefined;
    await run.run("query-generation", async () => {
      schema ??= await getKgSchema(cache, ctx, "query-generation", limits);
      const written = await writeQuery(ctx, schema.schema, input.question, context, current);
      const about = `schema of ${schema.schema.predicates.length} predicates and ${schema.schema.classes.length} classes${schema.cached ? " (cached)" : ""}`;
      if (written.ok) {
        query = written.query;
        notes["query-generation"] = { summary: `Attempt ${current.n}/${theta}: ${query.kind} query written from the ${about}`, output: { sparql: query.sparql, attempt: current.n } };
        return {};
      }
      notes["query-generation"] = { summary: `Attempt ${current.n}/${theta} refused: ${written.reason}`, output: { reason: written.reason, attempt: current.n } };
      if (current.n >= theta) {
        return { failure: { stage: "query-generation", code: "pipeline_failed", message: `No runnable query in ${theta} attempt(s); last reason: ${written.reason}` } };
      }
      attempt = { n: current.n + 1, feedback: feedbackFor(written.query, written.reason) };
      return {};
    });
    const ready = query as GuardedQuery | undefined;
    if (!ready || run.state.failure) continue;

    await run.run("execution", async () => {
      const started = ctx.now();
      try {
        const result = await ctx.sparql("execution", `one-shot query (attempt ${current.n})`, ready.sparql);
        const { answer, rows } = await answerFromResult(result, ctx, { aggregate: ready.aggregate, rowLimit: ready.kind === "SELECT" ? input.config.rowLimit : undefined });
        executed.push({ id: current.n, sparql: ready.sparql, rows, ms: ctx.now() - started });
        notes.execution = { summary: `${rows} row(s) support the answer: ${describeAnswer(answer)}`, output: [...executed] };
        return { executed: [...executed], answer };
      } catch (e) {
        const err = toAppError(e);
        if (err.code === "aborted") throw err;
        executed.push({ id: current.n, sparql: ready.sparql, rows: 0, ms: ctx.now() - started, error: err.message });
        notes.execution = { summary: `The query failed: ${err.message}`, output: [...executed] };
        if (NOT_RETRYABLE.has(err.code) || current.n >= theta) {
          const why = current.n >= theta ? ` (after ${theta} attempt(s))` : "";
          return { executed: [...executed], failure: { stage: "execution", code: err.code, message: `The query failed${why}: ${err.message}` } };
        }
        attempt = { n: current.n + 1, feedback: feedbackFor(ready.sparql, `running it failed: ${err.message}`) };
        return { executed: [...executed] };
      }
    });
  }
  return finish("kg");
}

type Written = { ok: true; query: GuardedQuery } | { ok: false; reason: string; query?: string };

/**
 * One model call and the guard. Not validatedCall: the reply is a query in a code block (not JSON, which would make
 * the model escape every quote), and the retry loop spans execution too; the trace conventions are the same.
 */
async function writeQuery(ctx: AgentContext, schema: KgSchema, question: string, context: string, attempt: Attempt): Promise<Written> {
  const { system, prompt } = renderPromptPair("baseline-one-shot-sparql", {
    kgName: ctx.kg.info.name,
    schema: schema.text,
    labelPredicates: ctx.kg.profile.labelPredicates.slice(0, 3).map((p) => localName(p)).join(", "),
    language: ctx.kg.profile.language,
    context: context ? `Conversation so far (earlier questions Q and answers A):\n${context}\n\n` : "",
    question: question.trim(),
    feedback: attempt.feedback ? `\n\n${attempt.feedback}` : "",
  });
  const result = await ctx.llm.call({ role: "baseline", system, prompt, attempt: attempt.n, signal: ctx.signal });
  const checked = result.ok ? guardReply(result.text, schema.prefixes, ctx.config.rowLimit) : ({ ok: false, reason: result.reason } as const);
  if (checked.ok) {
    ctx.emit({ type: "llm-call", stage: "query-generation", call: { ...result.record, parsed: checked.value.sparql } });
    return { ok: true, query: checked.value };
  }
  if (result.ok) ctx.llm.reject(result.record.id, checked.reason);
  ctx.emit({ type: "llm-call", stage: "query-generation", call: { ...result.record, validationError: checked.reason } });
  return { ok: false, reason: checked.reason, query: result.ok ? extractShown(result.text) : undefined };
}

/** The refused query as the model wrote it, for the feedback (bounded). */
function extractShown(text: string): string | undefined {
  const m = /```[a-zA-Z]*[^\S\n]*\n?([\s\S]*?)```/.exec(text);
  const body = (m ? m[1] : text).trim();
  return body ? body.slice(0, 4000) : undefined;
}

export function createOneShotSparqlStrategy(options: OneShotSparqlOptions = {}): Strategy {
  const cache = options.schemaCache ?? createSchemaCache();
  const limits = options.schemaLimits ?? DEFAULT_SCHEMA_LIMITS;
  return {
    id: "one-shot-sparql",
    ...BASELINE_INFO["one-shot-sparql"],
    run: (input, deps) => streamEvents((emit) => runTurn(input, deps, emit, cache, limits)),
  };
}

/** The registered strategy; its schema cache (a WeakMap keyed by the KG object) lives as long as the module. */
export const oneShotSparqlStrategy = createOneShotSparqlStrategy();
