// RAGONITE (Saha Roy et al., BTW 2025): the Chat agent routes a turn; its KG tool prepares the KG's induced database
// and verbalized-fact index (first use only), lets the retrieval agent run SQL and fact searches for up to
// `ragoniteRounds` rounds, then the answer agent integrates the evidence into an answer that cites every item.
import { translationStage } from "@/lib/pipeline/common/translation";
import type { DerivationEvent, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { runChatAgent } from "@/lib/pipeline/common/chat-agent";
import { createStageRunner, type StageRunner } from "@/lib/pipeline/common/stage-runner";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { createKnowledgeCache, type KnowledgeCache, type RagoniteKnowledge } from "./knowledge";
import { prepareKnowledge } from "./prepare-knowledge";
import { retrievalAgent } from "./retrieval-agent";
import { answerAgent, refuseWithoutEvidence } from "./answer-agent";
import { summarizeStage } from "./stage-summary";
import type { RagoniteState } from "./state";
import { buildTurnResult } from "./turn-result";
import { createSqlRerun } from "./rerun";

async function kgPipeline(run: StageRunner<RagoniteState>, ctx: AgentContext, deps: StrategyDeps, cache: KnowledgeCache): Promise<void> {
  let knowledge: RagoniteKnowledge | undefined;
  await run.run("induction", async (s) => {
    const prepared = await prepareKnowledge(s, ctx, cache, deps.similarity);
    knowledge = prepared.knowledge;
    return prepared.patch;
  });
  if (!knowledge || run.state.failure) return;
  const k = knowledge;
  await run.run("retrieval", (s) => retrievalAgent(s, ctx, k));
  if (run.state.failure) return;
  await run.run("answer", (s) => refuseWithoutEvidence(s) ?? answerAgent(s, ctx, k));
}

async function runTurn(input: StrategyInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void, cache: KnowledgeCache): Promise<TurnResult> {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  const run = createStageRunner<RagoniteState>({ question: input.question, dialogue: input.dialogue, config: input.config }, ctx, summarizeStage);
  let ranPipeline = false;

  await run.run("chat", async (s) => {
    const outcome = await runChatAgent(s, ctx, {
      askKg: async (args) => {
        run.patch({ route: "kg", standaloneQuestion: args.question, language: args.language });
        ranPipeline = true;
        await kgPipeline(run, ctx, deps, cache);
        const st = run.state;
        return { summary: st.failure ? `Failed at ${st.failure.stage}: ${st.failure.message}` : st.answer ? describeAnswer(st.answer, 10) : "No answer." };
      },
    });
    return outcome.route === "reply" ? { route: "reply", reply: outcome.reply } : { route: "kg" };
  });
  // the Chat agent never called its tool: the question is translated here (lib/pipeline/common/translation.ts)
  if (run.state.route === "kg" && !ranPipeline && !run.state.failure) {
    await run.run("translate", (s) => translationStage(s, ctx));
    if (!run.state.failure) await kgPipeline(run, ctx, deps, cache);
  }
  return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
}

export function createRagoniteStrategy(options: { cache?: KnowledgeCache } = {}): Strategy {
  const cache = options.cache ?? defaultKnowledgeCache();
  return {
    id: "ragonite",
    label: "RAGONITE",
    description: "SQL over a database induced from the KG plus search over verbalized facts, in up to N rounds; an answer that cites its rows and passages (Saha Roy et al. 2025).",
    run: (input, deps) => streamEvents((emit) => runTurn(input, deps, emit, cache)),
    // the SQL a user edited in the query panel re-runs the turn as its next attempt (rerun.ts)
    rerun: createSqlRerun(cache),
  };
}

let shared: KnowledgeCache | undefined;
/** The process's cache of induced databases (the app and the CLI share it; the SQL console reads it too). */
export function defaultKnowledgeCache(): KnowledgeCache {
  shared ??= createKnowledgeCache();
  return shared;
}

export const ragoniteStrategy: Strategy = createRagoniteStrategy();
