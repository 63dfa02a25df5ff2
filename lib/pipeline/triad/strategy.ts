// Triad (Zong et al., Fig. 2): one LLM agent in three roles over four phases. The Chat agent routes a turn; its KG tool
// runs the G-agent (question parsing into triplets, a SPARQL template with slots, the answer type), the D-agent (entity
// and relation selection among K candidates, every filling of the template run and the most plausible chosen) and the
// A-agent (the answer from the chosen query's rows, else the retry signal back to G and D, ≤ T times; the model's own
// knowledge only behind allowModelKnowledge, labelled "not from the KG").
import { translationStage } from "@/lib/pipeline/common/translation";
import type { DerivationEvent, ExperienceSource, KgNotesSource, Stage, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { runChatAgent } from "@/lib/pipeline/common/chat-agent";
import { retrieveExamples } from "@/lib/pipeline/common/experience";
import { createStageRunner, type StageRunner } from "@/lib/pipeline/common/stage-runner";
import type { ExampleSource } from "./examples";
import { generalistAgent } from "./generalist";
import { entitySelectionAgent } from "./entity-selection";
import { relationSelectionAgent } from "./relation-selection";
import { candidateQueriesAgent } from "./candidates";
import { executorAgent } from "./executor";
import { querySelectionAgent } from "./query-selection";
import { advisorAgent } from "./advisor";
import { afterChat, attemptOver, nextAttempt } from "./routes";
import type { TriadState } from "./state";
import { summarizeTriadStage } from "./summaries";
import { buildTriadResult, kgToolSummary } from "./turn-result";

type Run = StageRunner<TriadState>;
type Step = (state: TriadState, ctx: AgentContext) => Promise<Partial<TriadState>>;

// D-agent: URI linking (entities, then relations reached from them), then candidate SPARQLs: fill, execute, choose.
const D_AGENT: [Stage, Step][] = [
  ["entity-linking", entitySelectionAgent],
  ["relation-linking", relationSelectionAgent],
  ["query-generation", async (s, ctx) => candidateQueriesAgent(s, ctx.config.rowLimit)],
  ["execution", executorAgent],
  ["query-selection", querySelectionAgent],
];

async function kgPhases(run: Run, ctx: AgentContext, examples?: ExampleSource, kgNotes?: KgNotesSource): Promise<void> {
  for (;;) {
    await run.run("qir", (s) => generalistAgent(s, ctx, examples, kgNotes)); // G-agent
    for (const [stage, step] of D_AGENT) {
      if (attemptOver(run.state)) run.skip(stage, `Skipped: ${run.state.miss ?? run.state.failure?.message}`);
      else await run.run(stage, (s) => step(s, ctx));
    }
    await run.run("answer", (s) => advisorAgent(s, ctx)); // A-agent: answer, retry signal, or give up
    if (run.state.decision !== "retry") return;
    run.patch(nextAttempt(run.state));
  }
}

/** The experience pool as a G-agent example source (solved questions of this KG, most similar first). */
function poolExamples(experience: ExperienceSource): ExampleSource {
  return async (question, ctx) =>
    (await retrieveExamples(experience, ctx, question, ctx.config.triadExamples, "qir")).map((e) => ({ question: e.question, sparql: e.sparql }));
}

async function runTurn(input: StrategyInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void, given?: ExampleSource): Promise<TurnResult> {
  const examples = given ?? (deps.experience ? poolExamples(deps.experience) : undefined);
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  const initial: TriadState = { question: input.question, dialogue: input.dialogue, config: input.config, attempt: 1, misses: [] };
  const run = createStageRunner(initial, ctx, summarizeTriadStage);

  await run.run("chat", async (s) => {
    const outcome = await runChatAgent(s, ctx, {
      askKg: async (args) => {
        run.patch({ route: "kg", language: args.language, standaloneQuestion: args.question });
        await kgPhases(run, ctx, examples, deps.kgNotes);
        return { summary: kgToolSummary(run.state) };
      },
    });
    return outcome.route === "reply" ? { route: "reply", reply: outcome.reply } : { route: "kg" };
  });
  // the Chat agent kept answering by itself: the question is translated here (lib/pipeline/common/translation.ts)
  if (afterChat(run.state) === "kg" && !run.state.decision && !run.state.failure) {
    await run.run("translate", (s) => translationStage(s, ctx));
    if (!run.state.failure) await kgPhases(run, ctx, examples, deps.kgNotes);
  }
  return buildTriadResult(run.state, events, run.stageMs, ctx.now() - started);
}

export const TRIAD_INFO = {
  label: "Triad",
  description:
    "One LLM agent in three roles (Zong et al. 2024): a generalist writes a SPARQL template with slots, a decision maker links the slots and picks among the filled queries that return rows, an advisor answers from them and retries when none does.",
} as const;

/** `examples`: KG-specific few-shot examples beyond the KG profile's (the experience pool, when the app has one). */
export function createTriadStrategy(options: { examples?: ExampleSource } = {}): Strategy {
  return { id: "triad", ...TRIAD_INFO, run: (input, deps) => streamEvents((emit) => runTurn(input, deps, emit, options.examples)) };
}

export const triadStrategy = createTriadStrategy();
