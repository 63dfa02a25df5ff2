import { describe, expect, it, vi } from "vitest";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Similarity } from "@/lib/embeddings/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DialogueTurn } from "@/lib/pipeline/types";
import { createAgentContext } from "./agent-context";
import type { AskKgArgs } from "./ask-kg-args";
import { CLARIFY_TOOL, KG_TOOL, runChatAgent } from "./chat-agent";

// The shared Chat agent as the strategies without a QIR (explorer, Triad, RAGONITE) use it.
function setup(script: Script, question: string, dialogue: DialogueTurn[] = []) {
  const llm = createScriptedLlm(script);
  const ctx = createAgentContext({ kg: {} as KnowledgeGraph, similarity: {} as Similarity, llm: llm.gateway, config: DEFAULT_CONFIG, emit: () => {} });
  const askKg = vi.fn(async (args: AskKgArgs) => ({ summary: `answered: ${args.question}` }));
  return { llm, ctx, askKg, input: { question, dialogue } };
}

const HISTORY: DialogueTurn[] = [{ question: "Who wrote Dune?", answer: { kind: "items", items: [{ type: "uri", value: "http://ex.org/Herbert", label: "Frank Herbert" }] } }];

describe("runChatAgent without a draft", () => {
  it("offers the tool without a qir field, strips the prompt's QIR section and hands the standalone question to the strategy", async () => {
    const { llm, ctx, askKg, input } = setup(
      { chat: [{ toolCall: { name: KG_TOOL, input: { question: "When was Frank Herbert born?", language: "DE", context_dependent: true, qir: { junk: 1 } } } }] },
      "Wann wurde er geboren?",
      HISTORY,
    );
    const outcome = await runChatAgent(input, ctx, { askKg });
    expect(outcome).toEqual({ route: "kg", args: { question: "When was Frank Herbert born?", language: "de", context_dependent: true } });
    expect(askKg).toHaveBeenCalledTimes(1);
    const system = llm.calls[0].messages.find((m) => m.role === "system")!.text;
    expect(system).not.toContain("Question Intermediate Representation");
    expect(llm.calls[0].tools).toEqual([KG_TOOL, CLARIFY_TOOL]);
  });

  it("returns a clarifying question as a reply, without running the strategy", async () => {
    const { ctx, askKg, input } = setup({ chat: [{ toolCall: { name: CLARIFY_TOOL, input: { question: "Which book do you mean?" } } }] }, "And the other one?", HISTORY);
    expect(await runChatAgent(input, ctx, { askKg })).toEqual({ route: "reply", reply: { kind: "clarify", text: "Which book do you mean?" } });
    expect(askKg).not.toHaveBeenCalled();
  });
});
