// One line (and the relevant slice of state) per stage, for the derivation panel and the CLI.
import type { Stage } from "@/lib/pipeline/types";
import type { ChattyState } from "./state";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { localName } from "@/lib/kg/profile";
import { describeConstraints } from "./qir-describe";
import { askedTheKg } from "@/lib/pipeline/common/translation";

export function summarizeStage(stage: Stage, s: ChattyState): { summary: string; output?: unknown } {
  if (s.failure?.stage === stage) return { summary: `Failed: ${s.failure.message}`, output: s.failure };
  switch (stage) {
    case "chat":
      return s.route === "reply"
        ? { summary: `Answered about the conversation (${s.reply?.kind})`, output: s.reply }
        : { summary: askedTheKg({ question: s.question, standaloneQuestion: s.standaloneQuestion ?? s.englishQuestion, language: s.language }), output: { language: s.language, contextDependent: s.contextDependent } };
    case "translate":
      return { summary: s.language && s.language !== "en" ? `Translated from ${s.language}: "${s.englishQuestion}"` : "Already English", output: { language: s.language, englishQuestion: s.englishQuestion } };
    case "classify":
      return { summary: s.contextDependent ? "Context-dependent" : "Self-contained", output: { contextDependent: s.contextDependent } };
    case "rephrase":
      return { summary: `Standalone: "${s.standaloneQuestion}"`, output: { standaloneQuestion: s.standaloneQuestion } };
    case "qir": {
      const t = s.qir?.triples.map((x) => `⟨${x.subject}, ${x.relation}, ${x.object}⟩`).join(" ") ?? "";
      // batched: say that no QIR call was made, the Chat agent's draft passed the Triples validator
      const from = s.qirSource === "chat" ? "QIR from the Chat agent's tool call (validated): " : "";
      const constraints = s.qir ? describeConstraints(s.qir) : [];
      return { summary: `${from}${s.qir?.questionType ?? "?"} question: ${t}${constraints.length ? `; ${constraints.join("; ")}` : ""}`, output: s.qir };
    }
    case "entity-linking": {
      const v = Object.values(s.vertices ?? {});
      const how = (x: { how: string }) => (x.how === "context" ? "from the dialogue's previous answer" : x.how === "user" ? "your choice" : x.how);
      const parts = [
        ...v.map((x) => `${x.mention} → ${x.label} (${how(x)}, ${x.candidates} candidates)`),
        ...Object.values(s.literals ?? {}).map((l) => `${JSON.stringify(l.mention)} → a ${l.type} value${l.carriers.length ? ` of ${l.carriers.map((c) => localName(c)).join(", ")}` : " (compared)"}`),
        ...Object.values(s.classes ?? {}).map((c) => `${c.variable} → class ${c.label} (${how(c)}${c.subclasses ? ", with subclasses" : ""})`),
        ...(s.among ? [`${s.among.variable} one of ${s.among.named.map((x) => `${x.label} (${how(x)})`).join(", ")}`] : []),
        ...(s.excluded ? [`leaving out ${[...(s.excluded.named ?? []).map((x) => `${x.label} (${how(x)})`), ...(s.excluded.fromEarlierAnswers !== undefined ? [`${s.excluded.fromEarlierAnswers} entities of earlier answers`] : [])].join(", ") || "nothing"}`] : []),
      ];
      return { summary: parts.join("; ") || "No entities", output: s.vertices };
    }
    case "relation-linking": {
      const r = Object.entries(s.relationPredicates ?? {});
      return { summary: r.map(([rel, ps]) => `${rel} → ${ps.slice(0, 3).map((p) => p.label).join(", ")}`).join("; ") || "No relations", output: s.relationPredicates };
    }
    case "query-generation":
      if (s.candidates?.[0]?.written) return { summary: `Query written from the linked parts (${s.candidates.length - 1} generated candidates behind it)`, output: s.candidates };
      return { summary: `${s.candidates?.length ?? 0} candidate queries`, output: s.candidates };
    case "query-selection":
      if (s.answer?.kind === "none") return { summary: `No predicate fits: ${s.answer.reason}`, output: s.selectedPredicates };
      if (s.candidates?.[0]?.written) return { summary: `The written query's predicates (no choice to make): ${(s.selectedPredicates ?? []).map((p) => localName(p)).join(", ") || "none"}`, output: s.selectedPredicates };
      return { summary: `Selected predicates: ${(s.selectedPredicates ?? []).map((p) => localName(p)).join(", ") || "none"}`, output: s.selectedPredicates };
    case "execution": {
      const ex = s.executed ?? [];
      return { summary: `${ex.length} queries run, ${ex.filter((e) => e.rows > 0).length} with rows; ${s.answer ? describeAnswer(s.answer) : "no answer"}`, output: s.executed };
    }
    case "induction":
    case "retrieval":
      return { summary: "" }; // RAGONITE's stages: Chatty-KG never runs them
    case "answer":
      return { summary: s.naturalAnswer ?? "No natural-language answer", output: { naturalAnswer: s.naturalAnswer } };
    default:
      // another strategy's stage (e.g. the explorer's plan): Chatty-KG never runs it
      return { summary: "" };
  }
}
