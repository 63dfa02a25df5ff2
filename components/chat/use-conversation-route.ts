// The conversation the chat shows follows the URL: "/" is a new chat, "/c/<id>" that conversation. New chat, history
// links, back and forward all change the URL; this hook brings the shown turns in line with it (loading another
// conversation when the URL names one the page was not rendered with), so the router is the one source of truth.
"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { usePathname } from "next/navigation";
import type { ApiError, ConversationDto } from "@/lib/api/contract";
import type { HistoryActions } from "@/components/history/history-actions";

/** The conversation id a chat path names ("/c/<id>"), or null for a new chat. */
export function conversationIdFromPath(pathname: string | null): string | null {
  const m = /^\/c\/([^/]+)\/?$/.exec(pathname ?? "");
  return m ? decodeURIComponent(m[1]) : null;
}

// Back/forward restore a page from the router's cache, which may predate turns asked since: a page mounted right after
// a history traversal reloads its conversation.
let lastTraversalAt = 0;
if (typeof window !== "undefined") window.addEventListener("popstate", () => (lastTraversalAt = Date.now()));
const justTraversed = () => Date.now() - lastTraversalAt < 3_000;

export interface ConversationRoute {
  /** the conversation shown (null: a new chat) */
  conversationId: string | null;
  /** the URL names a conversation this browser cannot open */
  loadError: ApiError | null;
  /** the first question created a conversation: the URL follows without a navigation (its stream keeps running) */
  adopt: (id: string) => void;
}

export function useConversationRoute(
  initial: ConversationDto | null,
  getConversation: HistoryActions["getConversation"],
  show: (conversation: ConversationDto | null) => void,
): ConversationRoute {
  const urlId = conversationIdFromPath(usePathname());
  const [conversationId, setConversationId] = useState<string | null>(initial?.id ?? null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const shown = useRef<string | null>(initial?.id ?? null);
  const mounted = useRef(false);
  const showRef = useRef(show);
  showRef.current = show;

  useEffect(() => {
    const first = !mounted.current;
    mounted.current = true;
    if (urlId === shown.current && !(first && urlId && justTraversed())) return;
    shown.current = urlId;
    setConversationId(urlId);
    setLoadError(null);
    if (urlId === null) {
      showRef.current(null);
      return;
    }
    let cancelled = false;
    void getConversation({ conversationId: urlId }).then((res) => {
      if (cancelled || shown.current !== urlId) return;
      if (res.ok) showRef.current(res.data);
      else {
        setLoadError(res.error);
        showRef.current(null);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [urlId, getConversation]);

  const adopt = useCallback((id: string) => {
    shown.current = id;
    setConversationId(id);
    window.history.replaceState(null, "", `/c/${encodeURIComponent(id)}`);
  }, []);

  return { conversationId, loadError, adopt };
}
