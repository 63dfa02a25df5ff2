// One call (the TEXT2SPARQL'26 winner's recipe): the Chat agent routes the turn; its KG tool retrieves solved examples
// and schema cards, makes ONE generation call, validates the query against the KG, runs it, and sends concrete
// problems (validation, a failed run, no rows) back for at most `oneCallRepairs` repairs; else the KG has no answer.
import { translationStage } from "@/lib/pipeline/common/translation";
import type { DerivationEvent, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { runChatAgent } from "@/lib/pipeline/common/chat-agent";
import { buildDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import { createStageRunner, type StageRunner } from "@/lib/pipeline/common/stage-runner";
import { runQuery, writeAndValidate, type AttemptOutcome, type PromptParts } from "./attempts";
import { ONE_CALL_INFO } from "./info";
import { retrievalStage, STAGE as RETRIEVAL, type Retrieved } from "./retrieval";
import { createCardCache, type CardCache, type CardLimits } from "@/lib/pipeline/common/schema-cards";
import { summarizeOneCallStage, type OneCallState } from "./state";
import { buildTurnResult, kgToolSummary } from "./turn-result";

export interface OneCallOptions {
  cardCache?: CardCache;
  cardLimits?: CardLimits;
}

async function kgPipeline(run: StageRunner<OneCallState>, ctx: AgentContext, deps: StrategyDeps, options: Required<Pick<OneCallOptions, "cardCache">> & OneCallOptions): Promise<void> {
  let retrieved: Retrieved | undefined;
  await run.run(RETRIEVAL, async (s) => {
    const out = await retrievalStage(s, ctx, { cardCache: options.cardCache, cardLimits: options.cardLimits, experience: deps.experience, kgNotes: deps.kgNotes });
    retrieved = out.retrieved;
    return out.patch;
  });
  if (run.state.failure || !retrieved) return;
  const r = retrieved;
  const s0 = run.state;
  const question = s0.standaloneQuestion ?? s0.question;
  const parts: PromptParts = {
    question,
    ...(question.trim() !== s0.question.trim() ? { asked: s0.question } : {}),
    context: buildDialogueContext(s0.dialogue, { answerLimit: ctx.config.answerLimit, mode: ctx.config.mode }),
  };
  const attempts = 1 + ctx.config.oneCallRepairs;
  let previous: AttemptOutcome | undefined;
  for (let n = 1; n <= attempts && !run.state.failure && !run.state.answer; n++) {
    let outcome: AttemptOutcome | undefined;
    await run.run("query-generation", async (s) => {
      outcome = await writeAndValidate(ctx, r, parts, n, previous);
      return { attempts: [...(s.attempts ?? []), outcome.attempt] };
    });
    if (run.state.failure || !outcome) return;
    const current = outcome;
    if (current.guarded && current.attempt.problems.length === 0) {
      const guarded = current.guarded;
      await run.run("execution", async (s) => {
        const started = ctx.now();
        const ran = await runQuery(ctx, guarded, n);
        if (ran.kind === "fatal") return { failure: { stage: "execution", code: ran.code, message: ran.message } };
        const ms = ctx.now() - started;
        const attempt = { ...current.attempt, ms, ...(ran.kind === "answer" ? { rows: ran.rows } : { problems: [ran.problem], rows: 0 }) };
        const attemptsSoFar = [...(s.attempts ?? []).slice(0, -1), attempt];
        current.attempt = attempt;
        return ran.kind === "answer" ? { attempts: attemptsSoFar, answer: ran.answer, sparql: guarded.sparql } : { attempts: attemptsSoFar, sparql: guarded.sparql };
      });
    }
    previous = current;
  }
  if (run.state.failure || run.state.answer) return;
  const lastProblems = previous?.attempt.problems ?? [];
  run.patch({ answer: { kind: "none", reason: `The KG has no answer to this question: no query in ${attempts} attempt(s) found one (last: ${lastProblems.join(" ")})` } });
}

async function runTurn(input: StrategyInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void, options: Required<Pick<OneCallOptions, "cardCache">> & OneCallOptions): Promise<TurnResult> {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  const run = createStageRunner<OneCallState>({ question: input.question, dialogue: input.dialogue, config: input.config }, ctx, summarizeOneCallStage);
  let asked = false;
  await run.run("chat", async (s) => {
    const outcome = await runChatAgent(s, ctx, {
      askKg: async (args) => {
        asked = true;
        run.patch({ route: "kg", standaloneQuestion: args.question, language: args.language });
        await kgPipeline(run, ctx, deps, options);
        return { summary: kgToolSummary(run.state) };
      },
    });
    return outcome.route === "reply" ? { route: "reply", reply: outcome.reply } : { route: "kg" };
  });
  // the Chat agent never called its KG tool: the question is translated here (lib/pipeline/common/translation.ts)
  if (run.state.route === "kg" && !asked && !run.state.failure) {
    await run.run("translate", (s) => translationStage(s, ctx));
    if (!run.state.failure) await kgPipeline(run, ctx, deps, options);
  }
  return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
}

export function createOneCallStrategy(options: OneCallOptions = {}): Strategy {
  const resolved = { ...options, cardCache: options.cardCache ?? createCardCache() };
  return { id: "one-call", ...ONE_CALL_INFO, run: (input, deps) => streamEvents((emit) => runTurn(input, deps, emit, resolved)) };
}

/** The registered strategy; its card cache (a WeakMap keyed by the KG object) lives as long as the module. */
export const oneCallStrategy = createOneCallStrategy();
