// The translation step every KG strategy has (docs/strategies.md "Any language"): the Chat agent's KG tool call carries
// the standalone English question and the user's language; when there is no such call, or the text is not English,
// the translator prompt (paper §4.1) turns the question into English before anything is linked. Chatty-KG's
// Translator agent and the other strategies' fallback share this module.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "./agent-context";
import { validatedCall, type Validation } from "./validated-call";

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

/**
 * The question in English: unchanged (no LLM call) when it is clearly English, else one validated translator call.
 * A failure says why in words.
 */
export async function translateQuestion(question: string, ctx: AgentContext): Promise<{ ok: true; language: string; englishQuestion: string } | { ok: false; message: string }> {
  const q = question.trim();
  if (looksEnglish(q)) return { ok: true, language: "en", englishQuestion: q };
  const result = await validatedCall(ctx, {
    stage: "translate",
    role: "translator",
    schema: translationSchema,
    prompt: (feedback) => renderPromptPair("translator", { question: q, feedback: feedback ? `\n${feedback}` : "" }),
    validate: (value) => validateTranslation(value, q),
  });
  if (!result.ok) return { ok: false, message: `Could not translate the question: ${lastReason(result.reason)}` };
  return { ok: true, ...result.value };
}

// The last validator reason out of validatedCall's "rejected N time(s); last reason: …".
function lastReason(reason: string): string {
  const m = /last reason: ([\s\S]*)$/.exec(reason);
  return m ? m[1] : reason;
}

/** The derivation's line for the Chat agent's hand-over: the English question, and from which language it was translated. */
export function askedTheKg(s: { question: string; standaloneQuestion?: string; language?: string }): string {
  const asked = s.standaloneQuestion ?? s.question;
  const from = s.language && s.language !== "en" && s.language !== "und" && s.standaloneQuestion ? ` (translated from ${s.language})` : "";
  return `Asked the KG: "${asked}"${from}`;
}

/** A strategy state the fallback translation fills in. */
export interface TranslatableState {
  question: string;
  standaloneQuestion?: string;
  language?: string;
}

/**
 * The translation stage of a strategy whose Chat agent did not call its KG tool (so nothing translated the question):
 * the English question becomes `standaloneQuestion`. Runs as the stage "translate" of the strategy's stage runner.
 */
export async function translationStage<S extends TranslatableState>(s: S, ctx: AgentContext): Promise<Partial<S>> {
  if (s.standaloneQuestion) return {};
  const t = await translateQuestion(s.question, ctx);
  if (!t.ok) return { failure: { stage: "translate", code: "pipeline_failed", message: t.message } } as unknown as Partial<S>;
  ctx.questionLanguage = t.language; // label searches of the turn also match labels in it
  return { standaloneQuestion: t.englishQuestion, language: t.language } as Partial<S>;
}

/** The "translate" stage's line in the derivation. */
export function translationSummary(s: TranslatableState): { summary: string; output: unknown } {
  return { summary: s.language && s.language !== "en" ? `Translated from ${s.language}: "${s.standaloneQuestion}"` : "Already English", output: { language: s.language, englishQuestion: s.standaloneQuestion } };
}
