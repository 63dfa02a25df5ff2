// New chat: the client shell with no conversation yet (the first question creates one and the URL becomes /c/<id>).
import { ChatShell } from "@/components/chat/chat-shell";
import { createShareLink, deleteConversation, getConversation, getShareLink, listConversations, revokeShareLink, renameConversation, setFeedback } from "./actions";
import { loadPageData } from "./load-page-data";

export default async function NewChatPage() {
  const data = await loadPageData();
  return (
    <ChatShell
      key="new"
      conversation={null}
      initialConversations={data.conversations}
      llm={data.llm}
      defaultKgLabel={data.defaultKgLabel}
      strategies={data.strategies}
      defaultStrategy={data.defaultStrategy}
      actions={{ listConversations, getConversation, renameConversation, deleteConversation, setFeedback, getShareLink, createShareLink, revokeShareLink }}
    />
  );
}
