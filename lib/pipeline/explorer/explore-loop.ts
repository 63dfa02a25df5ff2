// The explorer's loop (mKGQAgent's plan / act / feedback, GRASP's tools): one forced `plan` call, then AI SDK tool
// calling where every tool result (capped text) goes back to the model, until `finish` or `cannot_answer` is accepted
// or a budget (tool calls, tokens) runs out. Every model call and tool call is reported to the derivation.
import { generateText, isStepCount, tool, ToolChoiceViolationError, wrapLanguageModel, type ModelMessage, type StopCondition, type ToolSet } from "ai";
import { toAppError } from "@/lib/errors";
import { mapProviderError } from "@/lib/llm/errors";
import { createRecordId, retryRunnerOf, ROLE_HEADER } from "@/lib/llm/gateway";
import type { LlmCallRecord } from "@/lib/llm/types";
import type { Stage } from "@/lib/pipeline/types";
import { Render } from "./render";
import { EXPLORE_STAGE, type ExplorerTool, type ToolEnv } from "./tool-env";
import { CANNOT_ANSWER, cannotAnswerTool, FINISH, finishTool, PLAN, planInput, type ExploreOutcome, type FinalAttempt, type FinishState } from "./tools/finish";
import { EXECUTE_SPARQL } from "./tools/execute-sparql";
import { EXPLORATION_TOOLS } from "./tools";

/** ms one model call may take (the gateway's retries included) */
const CALL_TIMEOUT_MS = 90_000;
/** times the model is reminded to end with finish / cannot_answer after answering with plain text */
const MAX_NUDGES = 2;
/** with this many tool calls left, only the tools that end the exploration (and a last test query) stay offered */
const ENDGAME = 2;

export interface ExploreRequest {
  system: string;
  prompt: string;
  maxSteps: number;
  maxTokens: number;
}

export type ExploreStop = { reason: "steps" | "tokens" | "no-finish"; message: string };

export interface ExploreResult {
  plan?: string[];
  outcome?: ExploreOutcome;
  /** why the exploration ended without an outcome */
  stop?: ExploreStop;
  toolCalls: number;
  tokens: number;
  attempts: FinalAttempt[];
}

interface Budget {
  maxSteps: number;
  maxTokens: number;
  steps: number;
  tokens: number;
  /** calls of the exploring tools (searches, describes, queries), not of finish / cannot_answer */
  explored: number;
}

const left = (b: Budget) => Math.max(0, b.maxSteps - b.steps);

export interface Exploration {
  /** mKGQAgent's plan step: one forced `plan` tool call; undefined when the model wrote none */
  plan(): Promise<string[] | undefined>;
  /** act / feedback until an accepted finish or cannot_answer, or a budget runs out */
  run(): Promise<ExploreResult>;
}

/** One question's exploration: the plan call first, then the tool loop, continuing the same messages. */
export function createExploration(req: ExploreRequest, env: ToolEnv): Exploration {
  const { ctx } = env;
  const budget: Budget = { maxSteps: req.maxSteps, maxTokens: req.maxTokens, steps: 0, tokens: 0, explored: 0 };
  const state: FinishState = {
    attempts: [],
    emptyOnce: new Set(),
    explored: () => budget.explored,
    warn: (message) => ctx.emit({ type: "warning", stage: EXPLORE_STAGE, message }),
  };
  const messages: ModelMessage[] = [{ role: "user", content: req.prompt }];
  const caller = createCaller(env, req.system, budget);
  let plan: string[] | undefined;

  return {
    async plan() {
      const planTools: ToolSet = {
        [PLAN]: tool({
          description: "Write down the steps you will take to answer the question.",
          inputSchema: planInput,
          execute: async ({ steps }) => {
            plan = steps;
            ctx.emit({ type: "tool-call", stage: "plan", tool: PLAN, input: { steps }, output: "noted", ms: 0 });
            return "Plan noted. Carry it out with the tools.";
          },
        }),
      };
      const planned = await caller.run("plan", messages, planTools, { toolChoice: { type: "tool", toolName: PLAN } });
      if (plan) messages.push(...planned.responseMessages);
      else ctx.emit({ type: "warning", stage: "plan", message: "The model wrote no plan; exploring without one." });
      return plan;
    },

    async run() {
      const tools = buildTools(env, state, budget);
      const done: StopCondition<ToolSet> = () => state.outcome !== undefined;
      const outOfSteps: StopCondition<ToolSet> = () => budget.steps >= budget.maxSteps;
      const outOfTokens: StopCondition<ToolSet> = () => budget.tokens >= budget.maxTokens;
      for (let nudges = 0; ; nudges++) {
        // the plan call (or a reminder) may already have used the token budget: no further model call then
        if (budget.tokens >= budget.maxTokens) break;
        const ran = await caller.run(EXPLORE_STAGE, messages, tools, {
          toolChoice: "required",
          stopWhen: [done, outOfSteps, outOfTokens, isStepCount(budget.maxSteps + 1)],
          // near the end of the budget only the ways to end (and one more test query) stay offered
          prepareStep: () => (left(budget) <= ENDGAME ? { activeTools: [FINISH, CANNOT_ANSWER, EXECUTE_SPARQL] } : {}),
        });
        messages.push(...ran.responseMessages);
        const base = { plan, toolCalls: budget.steps, tokens: budget.tokens, attempts: state.attempts };
        if (state.outcome) return { ...base, outcome: state.outcome };
        if (budget.steps >= budget.maxSteps) {
          return { ...base, stop: { reason: "steps", message: `The exploration used all ${budget.maxSteps} tool calls without an accepted final query.` } };
        }
        if (budget.tokens >= budget.maxTokens) {
          return { ...base, stop: { reason: "tokens", message: `The exploration used its token budget (${budget.tokens} of ${budget.maxTokens} tokens) without an accepted final query.` } };
        }
        if (nudges >= MAX_NUDGES) {
          return { ...base, stop: { reason: "no-finish", message: "The model stopped calling tools without a final query or a reason why the KG cannot answer." } };
        }
        ctx.emit({ type: "warning", stage: EXPLORE_STAGE, message: `The model answered without a tool (reminder ${nudges + 1}/${MAX_NUDGES}).` });
        messages.push({ role: "user", content: `Do not answer in text. Continue with the tools, then call ${FINISH} with the final query, or ${CANNOT_ANSWER} with the reason.` });
      }
      return {
        plan,
        toolCalls: budget.steps,
        tokens: budget.tokens,
        attempts: state.attempts,
        stop: { reason: "tokens", message: `The exploration used its token budget (${budget.tokens} of ${budget.maxTokens} tokens) without an accepted final query.` },
      };
    },
  };
}

/** The exploration tools, each wrapped: budget check, timing, trace event, known IRIs, "calls left" footer. */
function buildTools(env: ToolEnv, state: FinishState, budget: Budget): ToolSet {
  const all = [...EXPLORATION_TOOLS, finishTool(state), cannotAnswerTool(state)] as unknown as ExplorerTool<unknown>[];
  return Object.fromEntries(
    all.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: t.input,
        execute: async (input: unknown) => {
          if (state.outcome) return "The exploration has already ended.";
          if (budget.steps >= budget.maxSteps) return "No tool calls left: the exploration ends now.";
          if (budget.tokens >= budget.maxTokens) return "The token budget is used up: the exploration ends now.";
          budget.steps++;
          if (t.name !== FINISH && t.name !== CANNOT_ANSWER) budget.explored++;
          const render = new Render(env.shape.prefixes);
          const started = env.ctx.now();
          let text: string;
          let data: unknown;
          let error: string | undefined;
          try {
            ({ text, data } = await t.run(input, env, render));
          } catch (e) {
            const err = toAppError(e);
            if (err.code === "aborted") throw err;
            error = err.message;
            text = `The tool failed: ${err.message}`;
          }
          env.known.add(render.shown);
          const fresh = [...render.prefixesUsed].filter((p) => !env.declaredPrefixes.has(p) && env.shape.prefixes[p] !== undefined);
          for (const p of fresh) env.declaredPrefixes.add(p);
          if (fresh.length) text += `\n(prefixes: ${fresh.map((p) => `${p}: <${env.shape.prefixes[p]}>`).join(", ")})`;
          env.ctx.emit({ type: "tool-call", stage: EXPLORE_STAGE, tool: t.name, input, output: data ?? text, ms: Math.round(env.ctx.now() - started), ...(error ? { error } : {}) });
          return state.outcome ? text : `${text}\n[${left(budget)} tool call(s) left]`;
        },
      }),
    ]),
  );
}

interface CallOptions {
  toolChoice: Parameters<typeof generateText>[0]["toolChoice"];
  stopWhen?: StopCondition<ToolSet>[];
  prepareStep?: () => { activeTools?: string[] };
}

/**
 * Runs generateText with the gateway's retry policy per provider request (429/5xx), the turn's abort signal, and one
 * trace record per model call (only the messages new since the previous call, so long explorations stay small).
 */
function createCaller(env: ToolEnv, system: string, budget: Budget) {
  const { ctx } = env;
  const resolved = ctx.llm.resolve("explorer");
  const withRetry = retryRunnerOf(ctx.llm);
  let recordedMessages = 0;
  let callNumber = 0;
  return {
    async run(stage: Stage, messages: ModelMessage[], tools: ToolSet, opts: CallOptions): Promise<{ responseMessages: ModelMessage[] }> {
      const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS * (opts.stopWhen ? Math.max(1, budget.maxSteps) : 1));
      const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
      const mapError = (e: unknown) => mapProviderError(e, { timedOut: timeout.aborted, aborted: ctx.signal?.aborted === true && !timeout.aborted });
      const model = wrapLanguageModel({
        model: resolved.model as Parameters<typeof wrapLanguageModel>[0]["model"],
        middleware: {
          wrapGenerate: ({ doGenerate }) =>
            withRetry(async () => await doGenerate(), {
              signal,
              timeoutMs: CALL_TIMEOUT_MS,
              mapError,
              onFailure: (err, { willRetry, waitMs }) => report(pending(), { error: { code: err.code, message: willRetry ? `${err.message} (retrying in ${Math.round(waitMs)} ms)` : err.message } }),
            }),
        },
      });
      let current: LlmCallRecord | undefined;
      const invalidCalls = new Set<string>();
      const pending = () => current ?? (current = newRecord(messages));
      const newRecord = (sent: ModelMessage[]): LlmCallRecord => {
        callNumber++;
        const fresh = sent.slice(recordedMessages);
        const shown: ModelMessage[] =
          recordedMessages === 0 ? [{ role: "system", content: system }, ...fresh] : [{ role: "user", content: `(the ${recordedMessages} earlier messages are in the previous calls)` }, ...fresh];
        recordedMessages = sent.length;
        return { id: createRecordId(), role: "explorer", provider: resolved.provider, model: resolved.modelId, messages: shown, rawOutput: "", attempt: callNumber, startedAt: ctx.now(), latencyMs: 0, tokensIn: 0, tokensOut: 0 };
      };
      const report = (record: LlmCallRecord, patch: Partial<LlmCallRecord>) => {
        Object.assign(record, patch, { latencyMs: ctx.now() - record.startedAt });
        ctx.llm.record(record);
        ctx.emit({ type: "llm-call", stage, call: record });
        if (current === record) current = undefined;
      };
      try {
        const result = await generateText({
          model,
          system,
          messages,
          tools,
          toolChoice: opts.toolChoice,
          temperature: 0,
          maxRetries: 0,
          abortSignal: signal,
          headers: { [ROLE_HEADER]: "explorer" },
          stopWhen: opts.stopWhen ?? isStepCount(1),
          ...(opts.prepareStep ? { prepareStep: opts.prepareStep } : {}),
          onLanguageModelCallStart: (event) => {
            current = newRecord([...event.messages].filter((m) => m.role !== "system"));
          },
          // a call of a tool that does not exist (or is not offered now) or with invalid input still costs a tool call
          onStepEnd: (step) => {
            for (const part of step.content) {
              if (part.type !== "tool-error" || !invalidCalls.has(part.toolCallId)) continue;
              budget.steps++;
              const error = part.error instanceof Error ? part.error.message : String(part.error);
              ctx.emit({ type: "tool-call", stage, tool: part.toolName, input: part.input, error, ms: 0 });
            }
          },
          onLanguageModelCallEnd: (event) => {
            for (const p of event.content) if (p.type === "tool-call" && p.invalid) invalidCalls.add(p.toolCallId);
            const calls = event.content.flatMap((p) => (p.type === "tool-call" ? [{ toolCall: { name: p.toolName, input: p.input } }] : []));
            const text = event.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
            const tokensIn = event.usage.inputTokens ?? 0;
            const tokensOut = event.usage.outputTokens ?? 0;
            budget.tokens += tokensIn + tokensOut;
            report(pending(), { rawOutput: calls.length ? JSON.stringify(calls) : text, tokensIn, tokensOut });
          },
        });
        return { responseMessages: result.response.messages };
      } catch (e) {
        // the model ignored "a tool is required" and wrote text: the loop reminds it (or gives up) like after a text reply
        if (ToolChoiceViolationError.isInstance(e)) {
          const text = e.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
          return { responseMessages: text ? [{ role: "assistant", content: text }] : [] };
        }
        throw mapError(e);
      }
    },
  };
}
