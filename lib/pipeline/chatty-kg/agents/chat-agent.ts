// Chatty-KG's use of the shared Chat agent: the tool call may carry the QIR draft (batched), and its outcome
// becomes the state patch (route, reply, or the batched classification, rewrite and translation).
import type { ChattyState } from "../state";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { runChatAgent, type ChatAgentOptions } from "@/lib/pipeline/common/chat-agent";
import { qirDraftSchema, qirInToolCall, stateFromAskKgArgs } from "./ask-kg-args";

export { isAboutConversation, KG_TOOL, CLARIFY_TOOL, CHAT_MAX_ATTEMPTS, withQirSection } from "@/lib/pipeline/common/chat-agent";
export type { AskKgArgs } from "@/lib/pipeline/common/ask-kg-args";

export async function chatAgent(state: ChattyState, ctx: AgentContext, tools: Pick<ChatAgentOptions, "askKg">): Promise<Partial<ChattyState>> {
  const withQir = qirInToolCall(ctx.config);
  const outcome = await runChatAgent(state, ctx, { askKg: tools.askKg, ...(withQir ? { draft: qirDraftSchema } : {}) });
  if (outcome.route === "reply") return { route: "reply", reply: outcome.reply };
  // no tool call after the retries: the question goes to the KG as typed, through the separate context agents
  return outcome.args ? stateFromAskKgArgs(outcome.args, ctx.config.batchContext, withQir) : { route: "kg" };
}
