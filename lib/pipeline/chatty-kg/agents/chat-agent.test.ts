import { describe, expect, it, vi } from "vitest";
import { isAppError } from "@/lib/errors";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Similarity } from "@/lib/embeddings/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DerivationEvent, type DialogueTurn, type PipelineConfig } from "@/lib/pipeline/types";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import type { ChattyState } from "../state";
import { chatAgent, isAboutConversation, KG_TOOL, CLARIFY_TOOL, type AskKgArgs } from "./chat-agent";

const ROWLING = "http://example.org/hp/J_K_Rowling";
const HISTORY: DialogueTurn[] = [
  {
    question: "Who is the author of Harry Potter?",
    answer: { kind: "items", items: [{ type: "uri", value: ROWLING, label: "J. K. Rowling" }] },
  },
];

function setup(script: Script, opts: { dialogue?: DialogueTurn[]; question: string; config?: Partial<PipelineConfig>; sleep?: (ms: number, signal: AbortSignal) => Promise<void> }) {
  const llm = createScriptedLlm(script, opts.sleep ? { gateway: { sleep: opts.sleep } } : {});
  const events: DerivationEvent[] = [];
  const config = { ...DEFAULT_CONFIG, ...opts.config };
  const ctx = createAgentContext({
    kg: {} as KnowledgeGraph, // the Chat agent never queries the KG itself
    similarity: {} as Similarity,
    llm: llm.gateway,
    config,
    emit: (e) => events.push(e),
  });
  const state: ChattyState = { question: opts.question, dialogue: opts.dialogue ?? [], config };
  const askKg = vi.fn(async (args: AskKgArgs) => ({ summary: `answered: ${args.question}` }));
  return { llm, events, ctx, state, askKg };
}

const kgCall = (input: AskKgArgs) => ({ toolCall: { name: KG_TOOL, input } });

describe("chatAgent", () => {
  it("sends a follow-up to the KG tool as a standalone English question, with the previous answers in the prompt", async () => {
    const { llm, events, ctx, state, askKg } = setup(
      { chat: [kgCall({ question: "When was J. K. Rowling born?", language: "en", context_dependent: true })] },
      { dialogue: HISTORY, question: "When was she born?" },
    );
    const update = await chatAgent(state, ctx, { askKg });

    expect(askKg).toHaveBeenCalledTimes(1);
    expect(askKg).toHaveBeenCalledWith({ question: "When was J. K. Rowling born?", language: "en", context_dependent: true });
    expect(update).toEqual({
      route: "kg",
      language: "en",
      englishQuestion: "When was J. K. Rowling born?",
      contextDependent: true,
      standaloneQuestion: "When was J. K. Rowling born?",
    });
    // Cq carries the previous answer (label + IRI), which the reference code left out
    const userPrompt = llm.calls[0].messages.find((m) => m.role === "user")!.text;
    expect(userPrompt).toContain(`A1: J. K. Rowling <${ROWLING}>`);
    expect(userPrompt).toContain("When was she born?");
    expect(llm.calls[0].tools).toEqual([KG_TOOL, CLARIFY_TOOL]);
    // the call is recorded (gateway + trace) and the tool call is in the trace with its output
    expect(llm.records).toHaveLength(1);
    expect(llm.records[0]).toMatchObject({ role: "chat", attempt: 1 });
    expect(llm.records[0].rawOutput).toContain(KG_TOOL);
    expect(llm.records[0].tokensIn).toBeGreaterThan(0);
    const llmEvents = events.filter((e) => e.type === "llm-call");
    expect(llmEvents).toHaveLength(1);
    const toolEvent = events.find((e) => e.type === "tool-call");
    expect(toolEvent).toMatchObject({ tool: KG_TOOL, output: { summary: "answered: When was J. K. Rowling born?" } });
    // the model call is reported before the KG pipeline runs inside the tool
    expect(events.indexOf(llmEvents[0])).toBeLessThan(events.indexOf(toolEvent!));
  });

  it("passes a non-English question on translated, with the user's language code normalised", async () => {
    const { ctx, state, askKg } = setup(
      { chat: [kgCall({ question: "Where was J. K. Rowling born?", language: "DE-de", context_dependent: true })] },
      { dialogue: HISTORY, question: "Wo wurde sie geboren?" },
    );
    const update = await chatAgent(state, ctx, { askKg });
    expect(askKg).toHaveBeenCalledWith({ question: "Where was J. K. Rowling born?", language: "de", context_dependent: true });
    expect(update).toMatchObject({ language: "de", englishQuestion: "Where was J. K. Rowling born?" });
  });

  it("forces context_dependent=false on the first turn", async () => {
    const { ctx, state, askKg } = setup(
      { chat: [kgCall({ question: "Who is the author of Harry Potter?", language: "en", context_dependent: true })] },
      { question: "Who is the author of Harry Potter?" },
    );
    const update = await chatAgent(state, ctx, { askKg });
    expect(askKg.mock.calls[0][0].context_dependent).toBe(false);
    expect(update.contextDependent).toBe(false);
  });

  it("without batched context leaves translation, classification and rephrasing to the separate agents", async () => {
    const { ctx, state, askKg } = setup(
      { chat: [kgCall({ question: "When was J. K. Rowling born?", language: "en", context_dependent: true })] },
      { dialogue: HISTORY, question: "When was she born?", config: { batchContext: false } },
    );
    expect(await chatAgent(state, ctx, { askKg })).toEqual({ route: "kg" });
    expect(askKg).toHaveBeenCalledTimes(1);
  });

  it("passes the QIR draft of its tool call on (batched QIR), and offers no QIR when batchQir is off", async () => {
    const qir = { entities: ["J. K. Rowling"], unknowns: ["?date"], relations: ["birth date"], triples: [["J. K. Rowling", "birth date", "?date"]], target: "?date", question_type: "factoid" };
    const call = { toolCall: { name: KG_TOOL, input: { question: "When was J. K. Rowling born?", language: "en", context_dependent: true, qir } } };
    const on = setup({ chat: [call] }, { dialogue: HISTORY, question: "When was she born?" });
    const update = await chatAgent(on.state, on.ctx, { askKg: on.askKg });
    expect(on.askKg.mock.calls[0][0].qir).toEqual(qir);
    expect(update).toMatchObject({ route: "kg", standaloneQuestion: "When was J. K. Rowling born?", qirDraft: qir });
    expect(on.llm.calls[0].messages.find((m) => m.role === "system")?.text).toContain("Question Intermediate Representation");

    const off = setup({ chat: [call] }, { dialogue: HISTORY, question: "When was she born?", config: { batchQir: false } });
    const plain = await chatAgent(off.state, off.ctx, { askKg: off.askKg });
    // the tool schema without `qir` strips it, and the prompt has no QIR instructions
    expect(off.askKg.mock.calls[0][0]).toEqual({ question: "When was J. K. Rowling born?", language: "en", context_dependent: true });
    expect(plain.qirDraft).toBeUndefined();
    const system = off.llm.calls[0].messages.find((m) => m.role === "system")?.text ?? "";
    expect(system).not.toContain("Question Intermediate Representation");
    expect(system).not.toContain("<!--");
  });

  it("a malformed QIR draft does not fail the tool call: it is passed on for the QIR agent to reject", async () => {
    const qir = { triples: "Rowling born ?date" };
    const { ctx, state, askKg, llm } = setup(
      { chat: [{ toolCall: { name: KG_TOOL, input: { question: "When was J. K. Rowling born?", language: "en", context_dependent: true, qir } } }] },
      { dialogue: HISTORY, question: "When was she born?" },
    );
    const update = await chatAgent(state, ctx, { askKg });
    expect(llm.records).toHaveLength(1);
    expect(update.qirDraft).toEqual(qir);
  });

  it("answers a greeting directly, without the KG", async () => {
    const { llm, ctx, state, askKg } = setup({ chat: ["Hello! Ask me anything about this knowledge graph."] }, { question: "Hello!" });
    const update = await chatAgent(state, ctx, { askKg });
    expect(update).toEqual({ route: "reply", reply: { kind: "chat", text: "Hello! Ask me anything about this knowledge graph." } });
    expect(askKg).not.toHaveBeenCalled();
    expect(llm.records).toHaveLength(1);
  });

  it("asks one clarifying question when a reference cannot be resolved", async () => {
    const { ctx, state, askKg } = setup(
      { chat: [{ toolCall: { name: CLARIFY_TOOL, input: { question: "Which film do you mean?" } } }] },
      { question: "When was it released?" },
    );
    const update = await chatAgent(state, ctx, { askKg });
    expect(update).toEqual({ route: "reply", reply: { kind: "clarify", text: "Which film do you mean?" } });
    expect(askKg).not.toHaveBeenCalled();
  });

  it("does not accept a factual question answered from the model's own knowledge: retries once with the tool required", async () => {
    const { llm, events, ctx, state, askKg } = setup(
      {
        chat: [
          "Harry Potter was written by J. K. Rowling.",
          kgCall({ question: "Who is the author of Harry Potter?", language: "en", context_dependent: false }),
        ],
      },
      { question: "Who wrote Harry Potter?" },
    );
    const update = await chatAgent(state, ctx, { askKg });
    expect(update.route).toBe("kg");
    expect(update.reply).toBeUndefined();
    expect(askKg).toHaveBeenCalledWith({ question: "Who is the author of Harry Potter?", language: "en", context_dependent: false });
    expect(llm.records).toHaveLength(2);
    expect(llm.records[0].validationError).toMatch(/not about this conversation/);
    expect(llm.records[1].attempt).toBe(2);
    const retryText = llm.calls[1].messages.map((m) => m.text).join("\n");
    expect(retryText).toContain("Your reply was not accepted");
    expect(events.some((e) => e.type === "warning")).toBe(true);
  });

  it("when the model keeps answering by itself, the question still goes to the KG (never becomes the answer)", async () => {
    const { llm, ctx, state, askKg } = setup(
      { chat: ["It was J. K. Rowling.", "Definitely J. K. Rowling."] },
      { question: "Who wrote Harry Potter?" },
    );
    const update = await chatAgent(state, ctx, { askKg });
    expect(update).toEqual({ route: "kg" });
    expect(llm.records).toHaveLength(2);
    expect(askKg).not.toHaveBeenCalled();
  });

  it("lets provider errors throw as llm_* AppErrors, with the failed call recorded", async () => {
    const { llm, ctx, state, askKg } = setup({ chat: [{ error: "401" }] }, { question: "Who wrote Harry Potter?" });
    const err = await chatAgent(state, ctx, { askKg }).catch((e: unknown) => e);
    expect(isAppError(err, "llm_auth")).toBe(true);
    expect(llm.records).toHaveLength(1);
    expect(llm.records[0].error?.code).toBe("llm_auth");
  });

  describe("provider retries follow the gateway's policy", () => {
    const ask = kgCall({ question: "Who wrote Harry Potter?", language: "en", context_dependent: false });

    it("a 429 with a short retry-after waits as the gateway does, then the tool call goes through", async () => {
      const sleep = vi.fn(async () => {});
      const { llm, ctx, state, askKg } = setup({ chat: [{ error: "429", retryAfter: 2 }, ask] }, { question: "Who wrote Harry Potter?", sleep });
      const update = await chatAgent(state, ctx, { askKg });
      expect(update.route).toBe("kg");
      expect(askKg).toHaveBeenCalledTimes(1);
      expect(sleep).toHaveBeenCalledTimes(1);
      expect(sleep).toHaveBeenCalledWith(2000, expect.any(AbortSignal));
      expect(llm.calls).toHaveLength(2);
      // both requests are recorded: the refused one with its error and the wait, then the answered one
      expect(llm.records.map((r) => r.error?.code)).toEqual(["llm_rate_limit", undefined]);
      expect(llm.records[0].error?.message).toMatch(/retrying in 2000 ms/);
      expect(llm.records[0].id).not.toBe(llm.records[1].id);
    });

    it("a 429 with a long retry-after fails at once with llm_rate_limit (no SDK backoff, no second request)", async () => {
      const sleep = vi.fn(async () => {});
      const { llm, ctx, state, askKg } = setup({ chat: [{ error: "429", retryAfter: 60 }, ask] }, { question: "Who wrote Harry Potter?", sleep });
      const err = await chatAgent(state, ctx, { askKg }).catch((e: unknown) => e);
      expect(isAppError(err, "llm_rate_limit")).toBe(true);
      expect(isAppError(err) && err.details?.retryAfterSeconds).toBe(60);
      expect(sleep).not.toHaveBeenCalled();
      expect(llm.calls).toHaveLength(1);
      expect(askKg).not.toHaveBeenCalled();
      expect(llm.records.map((r) => r.error?.code)).toEqual(["llm_rate_limit"]);
    });

    it("a server error is retried with the gateway's backoff, at most twice", async () => {
      const sleep = vi.fn(async () => {});
      const { llm, ctx, state, askKg } = setup({ chat: [{ error: "500" }, { error: "500" }, { error: "500" }, ask] }, { question: "Who wrote Harry Potter?", sleep });
      const err = await chatAgent(state, ctx, { askKg }).catch((e: unknown) => e);
      expect(isAppError(err, "llm_server")).toBe(true);
      expect(sleep.mock.calls.map((c) => (c as unknown[])[0])).toEqual([500, 1000]);
      expect(llm.calls).toHaveLength(3);
      expect(llm.remaining()).toEqual({ chat: 1 });
    });
  });

  it("rethrows a failure of the KG pipeline that ran inside the tool", async () => {
    const { ctx, state } = setup(
      { chat: [kgCall({ question: "Who wrote Harry Potter?", language: "en", context_dependent: false })] },
      { question: "Who wrote Harry Potter?" },
    );
    const boom = new Error("KG down");
    await expect(chatAgent(state, ctx, { askKg: async () => Promise.reject(boom) })).rejects.toBe(boom);
  });
});

describe("isAboutConversation", () => {
  it.each(["Hello!", "hi there", "Thanks a lot", "Danke schön", "What can you do?", "What was my first question?", "ok", "Bonjour"])(
    "%s is about the conversation",
    (text) => expect(isAboutConversation(text)).toBe(true),
  );
  it.each([
    "Who wrote Harry Potter?",
    "Hello, who wrote Harry Potter?",
    "Who helped Harry?",
    "What do you know about Hogwarts?",
    "Wer hat Harry Potter geschrieben?",
    "Thanks, and where was she born?",
  ])("%s is a question about the world", (text) => expect(isAboutConversation(text)).toBe(false));
});
