// The Chat agent (Chatty-KG paper §4.1), shared by every strategy: a tool-calling agent that sends every factual question
// to the KG tool (the strategy's pipeline), answers only conversation-about-itself directly, and asks back when a
// reference cannot be resolved.
import { generateText, isStepCount, tool, ToolChoiceViolationError, zodSchema, type ContentPart, type ModelMessage, type ToolSet } from "ai";
import { z } from "zod";
import { mapProviderError } from "@/lib/llm/errors";
import { createRecordId, retryRunnerOf, ROLE_HEADER } from "@/lib/llm/gateway";
import type { LlmCallRecord } from "@/lib/llm/types";
import { renderPromptPair } from "@/lib/prompts";
import type { Answer, DialogueTurn } from "@/lib/pipeline/types";
import type { AgentContext } from "./agent-context";
import { buildDialogueContext } from "./dialogue-context";
import { askKgToolInputWith, normalizeAskKgArgs, type AskKgArgs } from "./ask-kg-args";

export const KG_TOOL = "ask_knowledge_graph";
export const CLARIFY_TOOL = "ask_clarifying_question";
/** one normal call, plus one retry (tool call required) when the model answered a world question itself */
export const CHAT_MAX_ATTEMPTS = 2;
const CHAT_TIMEOUT_MS = 60_000;

type Usage = { inputTokens: number | undefined; outputTokens: number | undefined };

const clarifyInputSchema = z.object({
  question: z.string().describe("One short question to the user, in the user's language, asking which entity they mean."),
});
// converted to JSON Schema once, not on every call (see askKgToolInputWith)
const CLARIFY_TOOL_INPUT = zodSchema(clarifyInputSchema);

export interface ChatAgentOptions {
  /** runs the KG pipeline for the standalone question (the strategy's wiring); the summary goes back to the model */
  askKg: (args: AskKgArgs) => Promise<{ summary: string }>;
  /**
   * a strategy's own draft the tool call carries as `qir` (Chatty-KG's batched QIR); the prompt's `<!-- qir -->`
   * section is kept only then. Absent: the tool takes the standalone question, language and context dependence only.
   */
  draft?: z.ZodType;
}

/** What the conversation turn comes to: the KG (with the tool's arguments, when the model called it) or a direct reply. */
export type ChatOutcome =
  | { route: "kg"; args?: AskKgArgs }
  | { route: "reply"; reply: Extract<Answer, { kind: "chat" | "clarify" }> };

// ---------------------------------------------------------------------------------------------------------------
// The guard: a plain-text reply is accepted only for messages about the conversation or the assistant itself.
// It is a deliberately narrow, testable pattern list (greetings, thanks, goodbyes, capabilities, recap, short
// acknowledgements in a few languages). Anything else that the model answered without a tool is retried once with
// a tool call required; a message the list misses therefore costs one extra call, never an unchecked answer.
// ---------------------------------------------------------------------------------------------------------------
const CONVERSATION_PATTERNS: RegExp[] = [
  // greetings (whole message, optionally followed by a name or "there")
  /^(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day)|hallo|servus|moin|guten (morgen|tag|abend)|bonjour|bonsoir|salut|hola|buenos d[ií]as|buenas( tardes| noches)?|ciao|buongiorno|ol[aá]|oi|hej|namaste|marhaba|مرحبا|你好|こんにちは|привет|здравствуйте)( there| everyone| all| chatty(-kg)?| bot)?$/u,
  // thanks and goodbyes
  /^(ok(ay)?,? )?(thanks?( you)?( (so|very) much)?|thx|cheers|danke( sch[öo]n)?|merci( beaucoup)?|gracias|grazie|obrigad[oa]|спасибо|谢谢|ありがとう|bye|goodbye|see you|tsch[üu]ss|au revoir|adi[oó]s|arrivederci)( (a lot|again|bye))?$/u,
  // short acknowledgements
  /^(ok|okay|cool|great|nice|perfect|got it|i see|alright|sure|wow)$/u,
  // capabilities and identity
  /\b(what can you do|what do you do|who are you|what are you|how do you work|how does this work|what can i ask|what should i ask|what kind of questions|which questions can i ask|what are you able to)\b/u,
  /^help( me)?$/u,
  // recap of this conversation
  /\b(what did (you|i) (just )?(say|ask|answer)|what was (my|your) (first |last |previous |earlier )?(question|answer|reply)|repeat (that|your (last )?answer|the (last )?answer)|say (that|it) again|summari[sz]e (our|the|this) (conversation|chat|dialogue)|what have we (talked|discussed))\b/u,
];

/** True when the message is about this conversation or the assistant, so a direct reply (no KG) is acceptable. */
export function isAboutConversation(message: string): boolean {
  const text = message
    .toLowerCase()
    .replace(/[!?.,;:¡¿"'“”«»()]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return true;
  return CONVERSATION_PATTERNS.some((p) => p.test(text));
}

function abortSignal(ctx: AgentContext): { signal: AbortSignal; timeout: AbortSignal } {
  const timeout = AbortSignal.timeout(CHAT_TIMEOUT_MS);
  return { signal: ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout, timeout };
}

type Outcome =
  | { kind: "kg"; args: AskKgArgs }
  | { kind: "clarify"; text: string }
  | { kind: "text"; text: string }
  | { kind: "invalid"; reason: string };

export async function runChatAgent(
  state: { question: string; dialogue: DialogueTurn[] },
  ctx: AgentContext,
  tools: ChatAgentOptions,
): Promise<ChatOutcome> {
  const withQir = tools.draft !== undefined;
  const context = buildDialogueContext(state.dialogue, { answerLimit: ctx.config.answerLimit, mode: ctx.config.mode });
  const rendered = renderPromptPair("chat-agent", {
    context: context || "(none: this is the first message)",
    question: state.question,
  });
  const { system, prompt } = { ...rendered, system: withQirSection(rendered.system, withQir) };
  const resolved = ctx.llm.resolve("chat");
  const messages: ModelMessage[] = [{ role: "user", content: prompt }];
  const withRetry = retryRunnerOf(ctx.llm);

  for (let attempt = 1; attempt <= CHAT_MAX_ATTEMPTS; attempt++) {
    // An error thrown by the KG pipeline inside the tool is kept here and rethrown (the SDK would turn it into text).
    let toolFailure: unknown;
    let kgArgs: AskKgArgs | undefined;
    // one record per provider request: a 429/5xx that is retried leaves its own record with the error
    const newRecord = (): LlmCallRecord => ({
      id: createRecordId(),
      role: "chat",
      provider: resolved.provider,
      model: resolved.modelId,
      messages: [{ role: "system", content: system }, ...messages],
      rawOutput: "",
      attempt,
      startedAt: ctx.now(),
      latencyMs: 0,
      tokensIn: 0,
      tokensOut: 0,
    });
    let recorded = newRecord();
    let reported = false;
    const report = (patch: Partial<LlmCallRecord>) => {
      if (reported) return;
      reported = true;
      Object.assign(recorded, patch, { latencyMs: ctx.now() - recorded.startedAt });
      ctx.llm.record(recorded);
      ctx.emit({ type: "llm-call", stage: "chat", call: recorded });
    };

    const { signal, timeout } = abortSignal(ctx);
    const mapError = (e: unknown) => mapProviderError(e, { timedOut: timeout.aborted, aborted: ctx.signal?.aborted === true && !timeout.aborted });
    // the gateway's retry policy (429/5xx, retry-after honoured or refused when too long), not the SDK's own backoff
    const step = await withRetry(
      async (providerTry): Promise<{ text: string; content: ReadonlyArray<ContentPart<ToolSet>>; usage: Usage }> => {
        if (providerTry > 0) {
          recorded = newRecord();
          reported = false;
        }
        try {
          const result = await generateText({
            model: resolved.model,
            system,
            messages: [...messages],
            temperature: 0,
            maxRetries: 0,
            abortSignal: signal,
            headers: { [ROLE_HEADER]: "chat" },
            // after a plain-text answer to a world question, the retry must use a tool
            toolChoice: attempt === 1 ? "auto" : "required",
            tools: {
              [KG_TOOL]: tool({
                description: withQir
                  ? "Answer a question from the knowledge graph. Use for every factual question; give the standalone English question and its QIR."
                  : "Answer a question from the knowledge graph. Use for every factual question; give the standalone English question.",
                inputSchema: askKgToolInputWith(tools.draft),
                execute: async (input: AskKgArgs) => {
                  const args = normalizeAskKgArgs(input, { dialogue: state.dialogue, config: ctx.config });
                  ctx.questionLanguage = args.language; // label searches of the turn also match labels in it
                  kgArgs = args;
                  try {
                    const out = await tools.askKg(args);
                    ctx.emit({ type: "tool-call", stage: "chat", tool: KG_TOOL, input: args, output: out });
                    return out;
                  } catch (e) {
                    toolFailure = e;
                    ctx.emit({ type: "tool-call", stage: "chat", tool: KG_TOOL, input: args, error: e instanceof Error ? e.message : String(e) });
                    throw e;
                  }
                },
              }),
              // no execute: the call itself is the answer (a question back to the user)
              [CLARIFY_TOOL]: tool({
                description: "Ask the user one short question when a reference in their message cannot be resolved from the conversation.",
                inputSchema: CLARIFY_TOOL_INPUT,
              }),
            },
            // the model never writes the answer itself: stop right after the tool step
            stopWhen: isStepCount(1),
            // record the model call as soon as it is parsed, before the KG pipeline runs inside the tool
            onLanguageModelCallEnd: (event) => {
              const text = event.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
              const calls = event.content.flatMap((p) => (p.type === "tool-call" ? [{ toolCall: { name: p.toolName, input: p.input } }] : []));
              report({
                rawOutput: calls.length ? JSON.stringify(calls) : text,
                tokensIn: event.usage.inputTokens ?? 0,
                tokensOut: event.usage.outputTokens ?? 0,
              });
            },
          });
          return { text: result.text, content: result.steps[0]?.content ?? [], usage: result.usage };
        } catch (e) {
          // the model ignored "tool required" and wrote text again: same outcome as an unaccepted text reply (no retry)
          if (ToolChoiceViolationError.isInstance(e)) {
            return { text: e.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(""), content: [], usage: { inputTokens: undefined, outputTokens: undefined } };
          }
          throw e;
        }
      },
      {
        signal,
        timeoutMs: CHAT_TIMEOUT_MS,
        mapError,
        onFailure: (err, { willRetry, waitMs }) =>
          report({ error: { code: err.code, message: willRetry ? `${err.message} (retrying in ${Math.round(waitMs)} ms)` : err.message } }),
      },
    );
    const { text, content, usage } = step;
    if (toolFailure !== undefined) throw toolFailure;
    report({ rawOutput: text, tokensIn: usage.inputTokens ?? 0, tokensOut: usage.outputTokens ?? 0 });

    const outcome = readOutcome(text, content, kgArgs);
    if (outcome.kind === "kg") return { route: "kg", args: outcome.args };
    if (outcome.kind === "clarify") return { route: "reply", reply: { kind: "clarify", text: outcome.text } };
    if (outcome.kind === "text" && isAboutConversation(state.question)) {
      return { route: "reply", reply: { kind: "chat", text: outcome.text } };
    }
    const reason =
      outcome.kind === "invalid"
        ? outcome.reason
        : "you answered without a tool, but the message is not about this conversation; facts must come from the knowledge graph";
    ctx.llm.reject(recorded.id, reason);
    ctx.emit({ type: "warning", stage: "chat", message: `Chat agent reply not accepted (attempt ${attempt}): ${reason}` });
    messages.push(
      { role: "assistant", content: outcome.kind === "text" ? outcome.text || "(empty reply)" : "(invalid tool call)" },
      {
        role: "user",
        content: `Your reply was not accepted: ${reason}. Call ${KG_TOOL} with the standalone English question (or ${CLARIFY_TOOL} if a reference cannot be resolved). Do not answer the question yourself.`,
      },
    );
  }
  // The model kept answering by itself: the question still goes to the KG, through the separate
  // translator / classifier / rephraser agents (the wiring runs them when these fields are unset).
  ctx.emit({ type: "warning", stage: "chat", message: "The Chat agent did not use its tools; the question goes to the KG pipeline as typed." });
  return { route: "kg" };
}

const QIR_SECTION = /<!-- qir -->\n?([\s\S]*?)<!-- \/qir -->\n?/g;

/** The prompt's QIR instructions are kept only when the tool call carries the QIR (saves tokens otherwise). */
export function withQirSection(system: string, withQir: boolean): string {
  return system.replace(QIR_SECTION, (_, body: string) => (withQir ? body : "")).trim();
}

function readOutcome(text: string, content: ReadonlyArray<ContentPart<ToolSet>>, kgArgs: AskKgArgs | undefined): Outcome {
  if (kgArgs) {
    if (!kgArgs.question) return { kind: "invalid", reason: `${KG_TOOL} was called with an empty question` };
    return { kind: "kg", args: kgArgs };
  }
  for (const part of content) {
    if (part.type === "tool-call" && part.toolName === CLARIFY_TOOL) {
      const parsed = clarifyInputSchema.safeParse(part.input);
      const text = parsed.success ? parsed.data.question.trim() : "";
      if (text) return { kind: "clarify", text };
      return { kind: "invalid", reason: `${CLARIFY_TOOL} needs a non-empty question` };
    }
    if (part.type === "tool-error") {
      const msg = part.error instanceof Error ? part.error.message : String(part.error);
      return { kind: "invalid", reason: `the call to ${part.toolName} was invalid (${msg.slice(0, 200)})` };
    }
    if (part.type === "tool-call") return { kind: "invalid", reason: `unknown tool ${part.toolName}` };
  }
  return { kind: "text", text: text.trim() };
}

