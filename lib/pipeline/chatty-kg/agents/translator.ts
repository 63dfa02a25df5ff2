// Translator (paper §4.1, used when the Chat agent does not batch it): user's language -> English question.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { ChattyState } from "../state";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";

export const translationSchema = z.object({
  language: z.string(),
  english: z.string(),
});
export type TranslationOutput = z.infer<typeof translationSchema>;

// Words that mark a question as English, and common function words of other Latin-script languages that do not
// double as English words (so "die", "do", "was" are not in the foreign list).
const ENGLISH_WORDS = new Set(
  "the of who whom whose what which when where why how is are was were did does do has have had many much in on by for with and or a an to from name list give tell show me it its his her their".split(" "),
);
const FOREIGN_WORDS = new Set(
  [
    "der das des dem den ist wer wie welche welcher welches wann wo woher und von hat haben sind wurde wurden ein eine einen nicht mit auf für",
    "qui quel quelle quels quelles est les une des du où combien comment pourquoi avec pour dans sont été",
    "qué que quién quiénes cuál cuáles cuántos cuántas cuándo dónde el los las es fue del por una son tiene",
    "chi che il di è quanti quante quando dove gli della sono ha",
    "quem qual quais quantos quantas onde foi são tem uma",
    "wie wat waar wanneer hoeveel het een van zijn heeft",
  ]
    .join(" ")
    .split(" "),
);

/**
 * Cheap check that skips the translation call: the text is "clearly English" when it is plain ASCII, has at least one
 * common English word, and none of the common function words of German, French, Spanish, Italian, Portuguese or Dutch.
 * A miss (e.g. "El Paso") only costs one LLM call; a non-ASCII character always goes to the model.
 */
export function looksEnglish(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (!/^[\x00-\x7F]*$/.test(text)) return false;
  const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
  if (words.some((w) => FOREIGN_WORDS.has(w))) return false;
  return words.some((w) => ENGLISH_WORDS.has(w));
}

/** True when the text has common function words of another language and none of English's (e.g. German returned as "english"). */
export function looksForeign(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  return words.some((w) => FOREIGN_WORDS.has(w)) && !words.some((w) => ENGLISH_WORDS.has(w));
}

function normalizeLanguage(code: string): string | undefined {
  const primary = code.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return /^[a-z]{2,3}$/.test(primary) ? primary : undefined;
}

export function validateTranslation(value: TranslationOutput, original: string): Validation<{ language: string; englishQuestion: string }> {
  const language = normalizeLanguage(value.language);
  if (!language) return { ok: false, reason: `"language" must be an ISO 639-1 code such as "en" or "de", got "${value.language}"` };
  const english = value.english.replace(/\s+/g, " ").trim();
  if (!english) return { ok: false, reason: '"english" is empty' };
  if (language !== "en" && looksForeign(english)) return { ok: false, reason: '"english" is not in English: translate the question into English' };
  if (english.length > Math.max(400, original.length * 4)) return { ok: false, reason: '"english" is far longer than the question: translate it, do not answer or explain it' };
  // An English question is kept exactly as typed.
  return { ok: true, value: { language, englishQuestion: language === "en" ? original.trim() : english } };
}

/** Returns {language, englishQuestion}; no LLM call when the Chat agent already translated or the text is clearly English. */
export async function translatorAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (state.englishQuestion) return {};
  const question = state.question.trim();
  if (looksEnglish(question)) return { language: "en", englishQuestion: question };
  const result = await validatedCall(ctx, {
    stage: "translate",
    role: "translator",
    schema: translationSchema,
    prompt: (feedback) => renderPromptPair("translator", { question, feedback: feedback ? `\n${feedback}` : "" }),
    validate: (value) => validateTranslation(value, question),
  });
  if (!result.ok) {
    return { failure: { stage: "translate", code: "pipeline_failed", message: `Could not translate the question: ${lastReason(result.reason)}` } };
  }
  return result.value;
}

// The last validator reason out of validatedCall's "rejected N time(s); last reason: …".
function lastReason(reason: string): string {
  const m = /last reason: ([\s\S]*)$/.exec(reason);
  return m ? m[1] : reason;
}
