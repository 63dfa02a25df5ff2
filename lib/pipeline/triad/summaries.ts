// One line per stage naming the Triad role that acted (G-agent, D-agent, A-agent), for the derivation panel and the CLI.
import { askedTheKg, translationSummary } from "@/lib/pipeline/common/translation";
import { describeAnswer, NOT_FROM_KG } from "@/lib/pipeline/answer-format";
import type { Stage } from "@/lib/pipeline/types";
import { fillerText } from "./query-selection";
import type { EntityFiller, RelationFiller, SlotCandidates, TriadState } from "./state";

const attemptOf = (s: TriadState) => (s.attempt > 1 ? ` (attempt ${s.attempt})` : "");

function slotsLine(slots: Record<string, SlotCandidates<EntityFiller | RelationFiller>> | undefined, mentions: Record<string, string>): string {
  return Object.entries(slots ?? {})
    .map(([slot, c]) => `<${slot}> "${mentions[slot] ?? ""}" → ${c.chosen.map(fillerText).join(", ") || "nothing"} (${c.auto ? "" : "chosen, "}${c.found} found)`)
    .join("; ");
}

export function summarizeTriadStage(stage: Stage, s: TriadState): { summary: string; output?: unknown } {
  if (s.failure?.stage === stage) return { summary: `Failed: ${s.failure.message}`, output: s.failure };
  const mentions = s.generalist?.mentions ?? {};
  const missed = s.miss ? ` — no KG answer in this attempt: ${s.miss}` : "";
  switch (stage) {
    case "chat":
      return s.route === "reply"
        ? { summary: `Answered about the conversation (${s.reply?.kind})`, output: s.reply }
        : { summary: askedTheKg(s), output: { language: s.language } };
    case "translate":
      return translationSummary(s);
    case "qir": {
      const g = s.generalist;
      if (!g) return { summary: "G-agent (generalist): no template" };
      return {
        summary: `G-agent (generalist)${attemptOf(s)}: ${g.answerType} question, template ${g.template.text.replace(/\s+/g, " ")}`,
        output: { triplets: g.triplets, template: g.template.text, slots: g.mentions, answerType: g.answerType },
      };
    }
    case "entity-linking":
      return { summary: `D-agent (decision maker), entities: ${slotsLine(s.entities, mentions) || "no entity slots"}${missed}`, output: s.entities };
    case "relation-linking":
      return { summary: `D-agent (decision maker), relations: ${slotsLine(s.relations, mentions) || "no relation slots"}${missed}`, output: s.relations };
    case "query-generation":
      return { summary: `D-agent (decision maker): ${s.candidates?.length ?? 0} candidate queries filled from the template${missed}`, output: s.candidates };
    case "execution": {
      const ex = s.executed ?? [];
      const failed = ex.filter((e) => e.error).length;
      // with each query's text, so the derivation marks which candidates ran and with how many rows
      const sparqlOf = new Map((s.candidates ?? []).map((c) => [c.id, c.sparql]));
      const output = ex.map((e) => ({ id: e.id, sparql: sparqlOf.get(e.id) ?? "", rows: e.rows, ms: e.ms, ...(e.error ? { error: e.error } : {}) }));
      return { summary: `Executor: ${ex.length} candidate queries run, ${ex.filter((e) => e.rows > 0).length} with rows${failed ? `, ${failed} failed` : ""}`, output };
    }
    case "query-selection":
      return s.chosen
        ? { summary: `D-agent (decision maker): chose candidate ${s.chosen.id} (${Object.entries(s.chosen.fillers).map(([k, f]) => `${k} = ${fillerText(f)}`).join(", ")})`, output: s.chosen }
        : { summary: `D-agent (decision maker): no candidate to choose${missed}` };
    case "answer":
      switch (s.decision) {
        case "answer":
          return { summary: `A-agent (advisor): answer from the rows of candidate ${s.chosen?.id}: ${s.answer ? describeAnswer(s.answer) : ""}`, output: s.answer };
        case "retry":
          return { summary: `A-agent (advisor): no KG answer (${s.miss ?? s.failure?.message ?? "nothing found"}); retry signal to the G- and D-agent (retry ${s.attempt} of ${s.config.triadRetries})` };
        case "model-knowledge":
          return { summary: `A-agent (advisor): answer from the model's own knowledge, ${NOT_FROM_KG}: ${s.answer ? describeAnswer(s.answer) : ""}`, output: { answer: s.answer, source: "llm" } };
        case "none":
          return { summary: `A-agent (advisor): ${s.answer?.kind === "none" ? s.answer.reason : "no answer"}`, output: s.answer };
        default:
          return { summary: "A-agent (advisor): no answer" };
      }
    default:
      return { summary: "" };
  }
}
