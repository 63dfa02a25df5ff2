// A saved conversation: loaded on the server for this browser session (another session's id is a 404), then the shell.
import { notFound } from "next/navigation";
import { ChatShell } from "@/components/chat/chat-shell";
import { getQueries } from "@/lib/db/queries";
import { AppError } from "@/lib/errors";
import { toConversationDto } from "@/lib/server/export";
import { createShareLink, deleteConversation, getConversation, getShareLink, listConversations, revokeShareLink, renameConversation, setFeedback } from "../../actions";
import { loadPageData } from "../../load-page-data";

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const data = await loadPageData();
  if (!data.sessionId) notFound();
  let conversation;
  try {
    conversation = toConversationDto(await getQueries().getConversation({ sessionId: data.sessionId, conversationId: id }));
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") notFound();
    throw e;
  }
  return (
    <ChatShell
      key={conversation.id}
      conversation={conversation}
      initialConversations={data.conversations}
      llm={data.llm}
      defaultKgLabel={data.defaultKgLabel}
      strategies={data.strategies}
      defaultStrategy={data.defaultStrategy}
      actions={{ listConversations, getConversation, renameConversation, deleteConversation, setFeedback, getShareLink, createShareLink, revokeShareLink }}
    />
  );
}
