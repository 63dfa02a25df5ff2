// One one-call turn's state, what each stage adds to it, and the one-line stage summaries the derivation shows.
import { askedTheKg, translationSummary } from "@/lib/pipeline/common/translation";
import type { Answer, DialogueTurn, PipelineConfig, Stage } from "@/lib/pipeline/types";
import type { StageFailure } from "@/lib/pipeline/common/stage-runner";
import { AIMED_ID, type RetrievedExample } from "@/lib/pipeline/common/experience";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import type { ExampleRanking } from "./examples";

/** One written query: what the validator or the run said about it. */
export interface OneCallAttempt {
  /** 1-based */
  n: number;
  /** the query as it runs (absent: the reply held no usable query) */
  sparql?: string;
  /** what was wrong (validation messages, the run's error, "no rows"); empty = accepted */
  problems: string[];
  /** ASK queries the validator ran */
  checks: number;
  /** rows that support the answer, when it ran */
  rows?: number;
  /** ms the run took, when it ran */
  ms?: number;
}

export interface FoundEntity {
  mention: string;
  iri: string;
  label: string;
}

export interface OneCallState {
  question: string;
  dialogue: DialogueTurn[];
  config: PipelineConfig;
  route?: "kg" | "reply";
  reply?: Extract<Answer, { kind: "chat" | "clarify" }>;
  standaloneQuestion?: string;
  language?: string;
  examples?: RetrievedExample[];
  ranking?: ExampleRanking;
  /** solved pairs in the pool */
  pool?: number;
  cards?: { shown: { class?: string; score: number; predicates: number }[]; tokens: number; omitted: number; total: number; cached: boolean };
  entities?: FoundEntity[];
  attempts?: OneCallAttempt[];
  answer?: Answer;
  /** the final query (its rows are the answer, or it found none) */
  sparql?: string;
  failure?: StageFailure;
}

const last = <T>(xs: T[] | undefined) => xs?.[xs.length - 1];

export function summarizeOneCallStage(stage: Stage, s: OneCallState): { summary: string; output?: unknown } {
  if (s.failure?.stage === stage) return { summary: `Failed: ${s.failure.message}`, output: s.failure };
  switch (stage) {
    case "chat":
      return s.route === "reply"
        ? { summary: `Answered about the conversation (${s.reply?.kind})`, output: s.reply }
        : { summary: askedTheKg(s), output: { language: s.language } };
    case "translate":
      return translationSummary(s);
    case "retrieval": {
      const ex = s.examples ?? [];
      // examples made for this question at turn time (common/aimed-examples.ts) are not in the stored pool
      const made = ex.filter((e) => e.id.startsWith(AIMED_ID)).length;
      const examples = s.pool || made ? `${ex.length} solved example(s)${made ? ` (${made} made for this question)` : ""} of ${s.pool ?? 0}${made ? " stored and those made" : ""} by ${s.ranking === "embedding" ? "embedding similarity" : "BM25"}` : "no experience pool";
      const cards = s.cards ? `${s.cards.shown.length} of ${s.cards.total} schema card(s), ≈${s.cards.tokens} tokens${s.cards.cached ? " (cached)" : ""}` : "no schema cards";
      const entities = s.entities?.length ? `; ${s.entities.length} entit${s.entities.length === 1 ? "y" : "ies"} named in the question` : "";
      return {
        summary: `${examples}; ${cards}${entities}`,
        output: {
          examples: ex.map((e) => ({ question: e.question, similarity: e.score, sparql: e.sparql, source: e.source, ...(e.id.startsWith(AIMED_ID) ? { made: true } : {}) })),
          cards: s.cards?.shown ?? [],
          entities: s.entities ?? [],
        },
      };
    }
    case "query-generation": {
      const a = last(s.attempts);
      if (!a) return { summary: "No query written" };
      const total = 1 + s.config.oneCallRepairs;
      const verdict = a.problems.length ? `${a.problems.length} problem(s): ${a.problems.join(" ")}` : "valid";
      return { summary: `Attempt ${a.n}/${total}${a.n > 1 ? " (repair)" : ""}: ${verdict}`, output: a };
    }
    case "execution": {
      // the queries that ran, as the derivation lists them (each can be opened in the SPARQL panel)
      const ran = (s.attempts ?? []).flatMap((x) => (x.sparql && x.rows !== undefined ? [{ id: x.n, sparql: x.sparql, rows: x.rows, ms: x.ms ?? 0, ...(x.rows === 0 ? { error: x.problems.join(" ") } : {}) }] : []));
      const a = last(s.attempts);
      if (s.answer) return { summary: describeAnswer(s.answer), output: ran };
      return { summary: a?.problems.length ? a.problems.join(" ") : "Not run", output: ran };
    }
    default:
      return { summary: "" };
  }
}
