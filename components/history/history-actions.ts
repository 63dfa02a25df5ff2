// The server actions the client shell needs, passed down from the page as props (components never import app/).
import type { ActionResult, ConversationDto, ConversationSummaryDto, ShareLinkDto } from "@/lib/api/contract";

export interface HistoryActions {
  listConversations: (input: { search?: string }) => Promise<ActionResult<ConversationSummaryDto[]>>;
  /** one conversation with its turns (the shell loads it when the URL names another one than it shows) */
  getConversation: (input: { conversationId: string }) => Promise<ActionResult<ConversationDto>>;
  renameConversation: (input: { conversationId: string; title: string }) => Promise<ActionResult<unknown>>;
  deleteConversation: (input: { conversationId: string }) => Promise<ActionResult<unknown>>;
  setFeedback: (input: { turnId: string; feedback: 1 | -1 | null }) => Promise<ActionResult<unknown>>;
  /** the read-only share link of a conversation: read, make, revoke */
  getShareLink?: (input: { conversationId: string }) => Promise<ActionResult<ShareLinkDto>>;
  createShareLink?: (input: { conversationId: string }) => Promise<ActionResult<ShareLinkDto>>;
  revokeShareLink?: (input: { conversationId: string }) => Promise<ActionResult<ShareLinkDto>>;
}
