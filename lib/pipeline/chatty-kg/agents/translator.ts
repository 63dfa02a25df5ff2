// Translator (paper §4.1, used when the Chat agent does not batch it): user's language -> English question. The check,
// prompt call and validation are shared with the other strategies' translation step (lib/pipeline/common/translation.ts).
import type { ChattyState } from "../state";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { translateQuestion } from "@/lib/pipeline/common/translation";

export { looksEnglish, looksForeign, translationSchema, validateTranslation, type TranslationOutput } from "@/lib/pipeline/common/translation";

/** Returns {language, englishQuestion}; no LLM call when the Chat agent already translated or the text is clearly English. */
export async function translatorAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (state.englishQuestion) return {};
  const t = await translateQuestion(state.question, ctx);
  if (!t.ok) return { failure: { stage: "translate", code: "pipeline_failed", message: t.message } };
  return { language: t.language, englishQuestion: t.englishQuestion };
}
