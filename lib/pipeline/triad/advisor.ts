// A-agent (Triad §3.3): answers from the rows of the chosen query; when no candidate returned rows it sends the retry
// signal to the earlier phases (up to T times); after that it answers from the model's own knowledge ONLY when
// allowModelKnowledge is on (source "llm", labelled "not from the KG"), else says the KG has no answer.
import type { SelectQuery } from "sparqljs";
import { renderPromptPair } from "@/lib/prompts";
import type { Answer } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { answerFromResult, projectsAggregate } from "@/lib/pipeline/common/answer-from-result";
import { modelAnswerSchema, validateModelAnswer } from "@/lib/pipeline/common/model-answer";
import { validatedCall } from "@/lib/pipeline/common/validated-call";
import { advise } from "./routes";
import type { AnswerType, TriadState } from "./state";

const WANTS: Record<AnswerType, string> = {
  boolean: "yes or no",
  count: "a number: how many",
  value: "a value (a date, number, name or text)",
  entities: "one or more things (names)",
};

/** Why the KG gave no answer, from the attempts' misses and a failure (one line). */
export function noAnswerReason(state: TriadState): string {
  const last = state.failure?.message ?? state.miss ?? state.misses.at(-1)?.reason ?? "no candidate query returned rows";
  const tries = state.attempt > 1 ? ` after ${state.attempt} attempts` : "";
  return `The KG has no answer to this question${tries}: ${last}`;
}

async function fromRows(state: TriadState, ctx: AgentContext): Promise<Partial<TriadState>> {
  const chosen = state.chosen!;
  const result = state.results?.[chosen.id];
  if (!result) return { failure: { stage: "answer", code: "internal", message: `No rows kept for candidate ${chosen.id}.` } };
  // the G-agent's answer type shapes the answer: a lone number is a count only for a "how many" question (an AVG is a value)
  const ast = state.generalist?.template.ast;
  const aggregate = state.generalist?.answerType === "count" && ast?.queryType === "SELECT" && projectsAggregate(ast as SelectQuery);
  const { answer } = await answerFromResult(result, ctx, { aggregate, rowLimit: ctx.config.rowLimit, stage: "answer" });
  return { decision: "answer", answer, answerSource: "kg" };
}

async function fromModelKnowledge(state: TriadState, ctx: AgentContext): Promise<Partial<TriadState>> {
  const why = noAnswerReason(state);
  const result = await validatedCall(ctx, {
    stage: "answer",
    role: "advisor",
    schema: modelAnswerSchema,
    prompt: (feedback) =>
      renderPromptPair("triad-advisor", {
        answerType: WANTS[state.generalist?.answerType ?? "entities"],
        question: state.standaloneQuestion ?? state.question,
        feedback: feedback ? `\n\n${feedback}` : "",
      }),
    validate: validateModelAnswer,
  });
  // the KG's failure is not the turn's failure any more: the answer (or its absence) comes from the model
  if (!result.ok || result.value.kind === "none") {
    const answer: Answer = { kind: "none", reason: `${why}. The model's own knowledge gave no answer either.` };
    return { decision: "none", answer, failure: undefined };
  }
  return { decision: "model-knowledge", answer: result.value, answerSource: "llm", failure: undefined };
}

/** The A-agent's step after each attempt. */
export async function advisorAgent(state: TriadState, ctx: AgentContext): Promise<Partial<TriadState>> {
  const decision = advise(state);
  switch (decision) {
    case "answer":
      return fromRows(state, ctx);
    case "model-knowledge":
      return fromModelKnowledge(state, ctx);
    case "none":
      return { decision, answer: { kind: "none", reason: noAnswerReason(state) } };
    default:
      return { decision };
  }
}
