// One line (and the slice of state worth showing) per RAGONITE stage, for the derivation panel and the CLI.
import { askedTheKg, translationSummary } from "@/lib/pipeline/common/translation";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import type { Stage } from "@/lib/pipeline/types";
import type { RagoniteState } from "./state";

export function summarizeStage(stage: Stage, s: RagoniteState): { summary: string; output?: unknown } {
  if (s.failure?.stage === stage) return { summary: `Failed: ${s.failure.message}`, output: s.failure };
  switch (stage) {
    case "chat":
      if (s.route === "reply" && s.reply) return { summary: s.reply.kind === "clarify" ? `Asked back: ${s.reply.text}` : "Answered about the conversation" };
      return { summary: s.standaloneQuestion ? askedTheKg(s) : "Sent to the KG as typed", output: { language: s.language } };
    case "translate":
      return translationSummary(s);
    case "induction": {
      const k = s.knowledge;
      if (!k) return { summary: "" };
      const how = k.cached ? "ready from an earlier turn" : k.reused ? "database reused from an earlier induction of the same content" : "induced now";
      return {
        summary: `${k.tables} tables (+${k.linkTables} link tables), ${k.rows} rows; ${k.passages} passages searched by ${k.search === "bm25" ? "BM25 only" : "BM25 + embeddings"} (${k.searchNote}); ${how}`,
        output: k,
      };
    }
    case "retrieval": {
      const e = s.evidence;
      if (!e) return { summary: "" };
      const withRows = e.sql.filter((q) => (q.result?.rows.length ?? 0) > 0).length;
      const errors = e.sql.filter((q) => q.error).length;
      const auto = e.searches.some((x) => x.automatic) ? " (one run for the agent)" : "";
      return {
        summary: `${s.rounds ?? 0} round(s): ${e.sql.length} SQL quer${e.sql.length === 1 ? "y" : "ies"} (${withRows} with rows, ${errors} failed), ${e.searches.length} fact search(es)${auto}, ${e.passages.size} passages`,
        output: {
          rounds: s.rounds,
          sql: e.sql.map((q) => ({ id: q.id, round: q.round, sql: q.sql, rows: q.result?.rows.length ?? 0, truncated: q.result?.truncated ?? false, ms: q.result ? Math.round(q.result.ms) : 0, ...(q.error ? { error: q.error } : {}) })),
          searches: e.searches,
        },
      };
    }
    case "answer": {
      if (!s.answer) return { summary: "No answer" };
      const n = "citations" in s.answer && s.answer.citations ? s.answer.citations.length : 0;
      return { summary: `${describeAnswer(s.answer)}; ${n} citation(s)`, output: { naturalAnswer: s.naturalAnswer, citations: "citations" in s.answer ? s.answer.citations : undefined } };
    }
    default:
      return { summary: "" };
  }
}
