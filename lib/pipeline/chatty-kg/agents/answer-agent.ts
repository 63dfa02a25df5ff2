// Natural-language answer FA (paper §4.1, Eq. 1): restates the KG answer in the user's language, adding nothing.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import { rowText } from "@/lib/pipeline/answer-format";
import type { Answer } from "@/lib/pipeline/types";
import type { ChattyState } from "../state";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { formatAnswer } from "@/lib/pipeline/common/dialogue-context";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";

export const naturalAnswerSchema = z.object({ answer: z.string() });
/** items (table rows) shown to the model; the rest are summarised as "…and N more" */
export const ANSWER_ITEMS_SHOWN = 20;

// "No answer" and yes/no need no model in the languages we template; other languages go through the model.
const NO_ANSWER: Record<string, string> = {
  en: "The knowledge graph has no answer to this question.",
  de: "Der Wissensgraph enthält keine Antwort auf diese Frage.",
  fr: "Le graphe de connaissances ne contient pas de réponse à cette question.",
  es: "El grafo de conocimiento no tiene respuesta para esta pregunta.",
  it: "Il grafo della conoscenza non contiene una risposta a questa domanda.",
  pt: "O grafo de conhecimento não tem resposta para esta pergunta.",
  nl: "De kennisgraaf bevat geen antwoord op deze vraag.",
};
const YES_NO: Record<string, [string, string]> = {
  en: ["Yes.", "No."],
  de: ["Ja.", "Nein."],
  fr: ["Oui.", "Non."],
  es: ["Sí.", "No."],
  it: ["Sì.", "No."],
  pt: ["Sim.", "Não."],
  nl: ["Ja.", "Nee."],
};

/** A plain rendering used when the model's phrasing is rejected θ times (the KG answer itself is still right). */
export function templateAnswer(answer: Answer, language: string): string {
  switch (answer.kind) {
    case "items": {
      const labels = answer.items.slice(0, ANSWER_ITEMS_SHOWN).map((i) => (i.type === "uri" ? (i.label ?? i.value) : i.value));
      const more = answer.items.length - labels.length;
      return labels.length === 0 ? (NO_ANSWER[language] ?? NO_ANSWER.en) : `${labels.join(", ")}${more > 0 ? ` (+${more})` : ""}`;
    }
    case "table": {
      const rows = answer.rows.slice(0, ANSWER_ITEMS_SHOWN).map((r) => rowText(r, (i) => (i.type === "uri" ? (i.label ?? i.value) : i.value)));
      const more = answer.rows.length - rows.length;
      return rows.length === 0 ? (NO_ANSWER[language] ?? NO_ANSWER.en) : `${rows.join("; ")}${more > 0 ? ` (+${more})` : ""}`;
    }
    case "count":
      return String(answer.count);
    case "boolean":
      return (YES_NO[language] ?? YES_NO.en)[answer.value ? 0 : 1];
    case "none":
      return NO_ANSWER[language] ?? NO_ANSWER.en;
    case "chat":
    case "clarify":
      return answer.text;
  }
}

const digitRuns = (text: string) => text.match(/\d+/g) ?? [];

/**
 * Assertions on the phrasing: non-empty, short, and every number in it occurs in the KG answer or the question
 * (a cheap, content-independent check that catches invented dates and counts).
 */
export function validateNaturalAnswer(text: string, sources: string[]): Validation<string> {
  const reply = text.replace(/\s+/g, " ").trim();
  if (!reply) return { ok: false, reason: '"answer" is empty' };
  if (reply.length > 1500) return { ok: false, reason: '"answer" is too long: one or two sentences' };
  const known = sources.flatMap(digitRuns);
  const invented = digitRuns(reply).filter((d) => !known.some((k) => k.includes(d)));
  if (invented.length > 0) return { ok: false, reason: `the number(s) ${invented.join(", ")} are not in the knowledge-graph answer; add nothing to it` };
  return { ok: true, value: reply };
}

/** Returns {naturalAnswer}; nothing when FA is off, there is no KG answer, or the answer is already a conversation reply. */
export async function naturalAnswerAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (!ctx.config.naturalAnswer || !state.answer) return {};
  const answer = state.answer;
  if (answer.kind === "chat" || answer.kind === "clarify") return {};
  const language = state.language ?? "en";
  const empty = answer.kind === "none" || (answer.kind === "items" && answer.items.length === 0) || (answer.kind === "table" && answer.rows.length === 0);
  const templated = empty ? NO_ANSWER[language] : undefined;
  if (templated) return { naturalAnswer: templated };

  const answerText = answer.kind === "none" ? "no answer in the knowledge graph" : formatAnswer(answer, ANSWER_ITEMS_SHOWN);
  const standalone = state.standaloneQuestion ?? state.englishQuestion ?? state.question;
  const result = await validatedCall(ctx, {
    stage: "answer",
    role: "answer",
    schema: naturalAnswerSchema,
    prompt: (feedback) =>
      renderPromptPair("answer", { language, question: state.question, standalone, answer: answerText, feedback: feedback ? `\n${feedback}` : "" }),
    validate: (value) => validateNaturalAnswer(value.answer, [answerText, state.question, standalone]),
  });
  if (result.ok) return { naturalAnswer: result.value };
  ctx.emit({ type: "warning", stage: "answer", message: `The phrased answer was rejected (${result.reason}); showing the plain answer.` });
  return { naturalAnswer: templateAnswer(answer, language) };
}
