// The server actions the client shell needs, passed down from the page as props (components never import app/).
import type { ActionResult, ConversationSummaryDto } from "@/lib/api/contract";

export interface HistoryActions {
  listConversations: (input: { search?: string }) => Promise<ActionResult<ConversationSummaryDto[]>>;
  renameConversation: (input: { conversationId: string; title: string }) => Promise<ActionResult<unknown>>;
  deleteConversation: (input: { conversationId: string }) => Promise<ActionResult<unknown>>;
  setFeedback: (input: { turnId: string; feedback: 1 | -1 | null }) => Promise<ActionResult<unknown>>;
}
