// Chatty-KG (paper Fig. 2): the Chat agent routes a turn; its KG tool runs Contextual Understanding (translate →
// classify → rephrase → QIR; no LLM call for what the tool call already carries), then Query Generation & Answer
// Retrieval (entity linking → relation linking → query generation → query selection → execution), then, when on,
// the natural-language answer.
import type { DerivationEvent, RerunInput, Stage, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import type { Agent } from "./state";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { createStageRunner, type StageRunner } from "./stage-runner";
import { afterChat, answeredEarly, failed, needsClassification, needsRephrasing, needsTranslation } from "./routes";
import { chatAgent } from "./agents/chat-agent";
import { qirInToolCall, stateFromAskKgArgs } from "./agents/ask-kg-args";
import { translatorAgent } from "./agents/translator";
import { classifierAgent, classifierSkipReason } from "./agents/classifier";
import { rephraserAgent } from "./agents/rephraser";
import { qirAgent } from "./agents/qir-agent";
import { entityLinkingAgent, relationLinkingAgent } from "./agents/matching-agent";
import { executionAgent, queryGenerationAgent, querySelectionAgent } from "./agents/query-planner";
import { naturalAnswerAgent } from "./agents/answer-agent";
import { buildTurnResult, kgToolSummary } from "./turn-result";
import { planRerun } from "./rerun";

// The QIR (last step of Contextual understanding), then Query generation & answer retrieval; the first failing agent ends the turn.
const ANSWER_STEPS: [Stage, Agent<AgentContext>][] = [
  ["qir", qirAgent],
  // Matching agent (Algorithm 2): vertices first, then predicates around them.
  ["entity-linking", entityLinkingAgent],
  ["relation-linking", relationLinkingAgent],
  // Query planning agent (Algorithm 3): candidates, LLM predicate selection, execution of the selected ones.
  ["query-generation", queryGenerationAgent],
  ["query-selection", querySelectionAgent],
  ["execution", executionAgent],
];

async function kgPipeline(run: StageRunner, ctx: AgentContext): Promise<void> {
  if (needsTranslation(run.state)) await run.run("translate", (s) => translatorAgent(s, ctx));
  if (needsClassification(run.state)) await run.run("classify", (s) => classifierAgent(s, ctx));
  else run.skip("classify", classifierSkipReason(run.state) ?? "Not needed");
  if (needsRephrasing(run.state)) await run.run("rephrase", (s) => rephraserAgent(s, ctx));
  await answerSteps(run, ctx);
}

/** The answer steps from `from` on; a re-run after a user's correction starts later and may replace steps (rerun.ts). */
async function answerSteps(run: StageRunner, ctx: AgentContext, from?: Stage, replace: Partial<Record<Stage, Agent<AgentContext>>> = {}): Promise<void> {
  const start = from === undefined ? 0 : ANSWER_STEPS.findIndex(([stage]) => stage === from);
  for (const [stage, agent] of start < 0 ? [] : ANSWER_STEPS.slice(start)) {
    if (failed(run.state)) return;
    if (answeredEarly(run.state)) run.skip(stage, "Not needed: no predicate fits, so nothing is run");
    else await run.run(stage, (s) => (replace[stage] ?? agent)(s, ctx));
  }
  if (!failed(run.state) && ctx.config.naturalAnswer) await run.run("answer", (s) => naturalAnswerAgent(s, ctx));
}

/** A user's correction: the steps before it kept, the corrected one recorded (no LLM call), the later ones run again. */
async function rerunTurn(input: RerunInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void): Promise<TurnResult> {
  const plan = planRerun(input);
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  for (const e of plan.kept) emit(e); // shown again, not counted in this attempt's stats
  const run = createStageRunner(plan.state, ctx, plan.summarize);
  await run.run(plan.decided.stage, (s) => plan.decided.agent(s, ctx));
  const next = ANSWER_STEPS.findIndex(([stage]) => stage === plan.decided.stage) + 1;
  if (next > 0 && next < ANSWER_STEPS.length) await answerSteps(run, ctx, ANSWER_STEPS[next][0], plan.replace);
  else if (!failed(run.state) && ctx.config.naturalAnswer) await run.run("answer", (s) => naturalAnswerAgent(s, ctx));
  return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
}

async function runTurn(input: StrategyInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void): Promise<TurnResult> {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  const run = createStageRunner({ question: input.question, dialogue: input.dialogue, config: input.config }, ctx);

  await run.run("chat", (s) =>
    chatAgent(s, ctx, {
      askKg: async (args) => {
        // With batched context the tool's arguments carry the classification, rewrite and translation (and a QIR draft).
        run.patch(stateFromAskKgArgs(args, ctx.config.batchContext, qirInToolCall(ctx.config)));
        await kgPipeline(run, ctx);
        return { summary: kgToolSummary(run.state) };
      },
    }),
  );
  if (afterChat(run.state) === "kg" && !run.state.answer && !failed(run.state)) await kgPipeline(run, ctx);
  return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
}

export const chattyKgStrategy: Strategy = {
  id: "chatty-kg",
  label: "Chatty-KG",
  description: "Multi-agent pipeline: chat agent, classifier, rephraser, QIR, matching and query planning (Omar et al. 2025).",
  run: (input, deps) => streamEvents((emit) => runTurn(input, deps, emit)),
  rerun: {
    kinds: ["qir-triple", "vertex", "relation-predicates", "predicates", "candidate"],
    check: (input) => void planRerun(input),
    run: (input, deps) => streamEvents((emit) => rerunTurn(input, deps, emit)),
  },
};
