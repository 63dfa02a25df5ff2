// Explorer (mKGQAgent + the TEXT2SPARQL'25 agents): the Chat agent routes the turn; its KG tool runs plan (schema
// summary, solved examples, a short plan), explore (tool calls until a final query or a justified "cannot answer",
// within the step and token budgets), and answer (the final query's rows).
import { translationStage } from "@/lib/pipeline/common/translation";
import type { DerivationEvent, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { runChatAgent } from "@/lib/pipeline/common/chat-agent";
import { createStageRunner, type StageRunner } from "@/lib/pipeline/common/stage-runner";
import { createEntityIndexCache } from "./entity-index";
import { createShapeCache } from "./kg-shape";
import { answerStage, exploreStage, preparePlan, type ExplorerCaches } from "./stages";
import { summarizeExplorerStage, type ExplorerState } from "./state";
import { buildTurnResult, kgToolSummary } from "./turn-result";
import type { Exploration } from "./explore-loop";

async function kgPipeline(run: StageRunner<ExplorerState>, ctx: AgentContext, caches: ExplorerCaches, deps: StrategyDeps): Promise<void> {
  let exploration: Exploration | undefined;
  await run.run("plan", async (s) => {
    const prepared = await preparePlan(s, ctx, caches, deps.experience, deps.kgNotes);
    exploration = prepared.exploration;
    return prepared.patch;
  });
  if (run.state.failure || !exploration) return;
  const started = exploration;
  await run.run("explore", () => exploreStage(started));
  if (!run.state.failure) await run.run("execution", (s) => answerStage(s, ctx));
}

async function runTurn(input: StrategyInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void, caches: ExplorerCaches): Promise<TurnResult> {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  const run = createStageRunner<ExplorerState>({ question: input.question, dialogue: input.dialogue, config: input.config }, ctx, summarizeExplorerStage);
  let explored = false;
  await run.run("chat", async (s) => {
    const outcome = await runChatAgent(s, ctx, {
      askKg: async (args) => {
        explored = true;
        run.patch({ route: "kg", standaloneQuestion: args.question, language: args.language });
        await kgPipeline(run, ctx, caches, deps);
        return { summary: kgToolSummary(run.state) };
      },
    });
    return outcome.route === "reply" ? { route: "reply", reply: outcome.reply } : { route: "kg" };
  });
  // the Chat agent never called its KG tool: the question is translated here (lib/pipeline/common/translation.ts)
  if (run.state.route === "kg" && !explored && !run.state.failure) {
    await run.run("translate", (s) => translationStage(s, ctx));
    if (!run.state.failure) await kgPipeline(run, ctx, caches, deps);
  }
  return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
}

export const EXPLORER_INFO = {
  label: "Explorer",
  description: "An agent that plans, explores the KG with search, describe and query tools, and writes the SPARQL itself (mKGQAgent, GRASP).",
} as const;

export function createExplorerStrategy(caches: ExplorerCaches = { shapes: createShapeCache(), entityIndexes: createEntityIndexCache() }): Strategy {
  return { id: "explorer", ...EXPLORER_INFO, run: (input, deps) => streamEvents((emit) => runTurn(input, deps, emit, caches)) };
}

/** The registered strategy; its caches (WeakMaps keyed by the KG object) live as long as the module. */
export const explorerStrategy = createExplorerStrategy();
