// The history list's state for the shell: the session's conversations (searchable), the last failed action, and
// rename / delete (deleting the conversation shown goes to a new chat).
"use client";
import { useCallback, useState } from "react";
import type { ApiError, ConversationSummaryDto } from "@/lib/api/contract";
import type { HistoryActions } from "./history-actions";

export function useHistoryList(initial: ConversationSummaryDto[], actions: HistoryActions) {
  const [conversations, setConversations] = useState(initial);
  const [search, setSearch] = useState("");
  const [error, setError] = useState<ApiError | null>(null);

  const refresh = useCallback(
    async (q: string) => {
      const res = await actions.listConversations({ search: q || undefined });
      if (res.ok) {
        setConversations(res.data);
        setError(null);
      } else setError(res.error);
    },
    [actions],
  );

  const rename = async (id: string, title: string) => {
    setConversations((cs) => cs.map((c) => (c.id === id ? { ...c, title } : c)));
    const res = await actions.renameConversation({ conversationId: id, title });
    if (!res.ok) setError(res.error);
    await refresh(search);
  };

  /** `onRemovedShown`: the conversation on screen was deleted (the shell goes to a new chat) */
  const remove = async (id: string, shownId: string | null, onRemovedShown: () => void) => {
    const res = await actions.deleteConversation({ conversationId: id });
    if (!res.ok) {
      setError(res.error);
      return;
    }
    if (id === shownId) onRemovedShown();
    else await refresh(search);
  };

  const searchFor = (q: string) => {
    setSearch(q);
    void refresh(q);
  };

  return { conversations, search, error, refresh, rename, remove, searchFor };
}
