// One explorer turn's state, what each stage adds to it, and the one-line stage summaries the derivation shows.
import { askedTheKg, translationSummary } from "@/lib/pipeline/common/translation";
import type { Answer, DialogueTurn, PipelineConfig, Stage } from "@/lib/pipeline/types";
import type { StageFailure } from "@/lib/pipeline/common/stage-runner";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import type { ExploreResult } from "./explore-loop";
import type { RetrievedExample } from "@/lib/pipeline/common/experience";

export interface ExplorerState {
  question: string;
  dialogue: DialogueTurn[];
  config: PipelineConfig;
  route?: "kg" | "reply";
  reply?: Extract<Answer, { kind: "chat" | "clarify" }>;
  /** the standalone English question the Chat agent handed over */
  standaloneQuestion?: string;
  language?: string;
  plan?: string[];
  schema?: { tokens: number; cached: boolean; classes: number };
  examples?: RetrievedExample[];
  exploration?: ExploreResult;
  answer?: Answer;
  /** the final query that produced the answer */
  sparql?: string;
  executed?: { id: number; sparql: string; rows: number; ms: number }[];
  failure?: StageFailure;
}

export function summarizeExplorerStage(stage: Stage, s: ExplorerState): { summary: string; output?: unknown } {
  if (s.failure?.stage === stage) return { summary: `Failed: ${s.failure.message}`, output: s.failure };
  switch (stage) {
    case "chat":
      return s.route === "reply"
        ? { summary: `Answered about the conversation (${s.reply?.kind})`, output: s.reply }
        : { summary: askedTheKg(s), output: { language: s.language } };
    case "translate":
      return translationSummary(s);
    case "plan": {
      const schema = s.schema ? `schema summary of ${s.schema.classes} classes, ≈${s.schema.tokens} tokens${s.schema.cached ? " (cached)" : ""}` : "no schema summary";
      const examples = s.examples?.length ? `; ${s.examples.length} solved example(s) from the experience pool` : "";
      const steps = s.plan?.length ? s.plan.map((p, i) => `${i + 1}. ${p}`).join(" ") : "no plan written";
      return { summary: `${steps} (${schema}${examples})`, output: { steps: s.plan ?? [], examples: (s.examples ?? []).map((e) => ({ question: e.question, score: e.score, source: e.source })) } };
    }
    case "explore": {
      const x = s.exploration;
      if (!x) return { summary: "Not run" };
      const tried = `${x.toolCalls} tool call(s), ${x.attempts.length} final quer${x.attempts.length === 1 ? "y" : "ies"} tried`;
      const end = x.outcome?.kind === "final" ? "final query accepted" : x.outcome?.kind === "cannot" ? `the KG cannot answer: ${x.outcome.reason}` : (x.stop?.message ?? "");
      return { summary: `${tried}; ${end}`, output: { toolCalls: x.toolCalls, tokens: x.tokens, attempts: x.attempts } };
    }
    case "execution":
      return { summary: s.answer ? describeAnswer(s.answer) : "No answer", output: s.executed };
    default:
      return { summary: "" };
  }
}
