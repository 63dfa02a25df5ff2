// Keyboard shortcuts of the chat: "/" focuses the question box (unless you are typing somewhere), Ctrl+Shift+O (⌘⇧O
// on a Mac) starts a new chat. Esc closing sheets, dialogs and drawers is handled where each of them lives.
"use client";
import { useEffect, useRef } from "react";

/** Whether a key press belongs to a field being typed in (then "/" is just a character). */
function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.closest("[role=textbox],.cm-editor") !== null);
}

export function useShortcuts({ newChat }: { newChat: () => void }) {
  const newChatRef = useRef(newChat);
  newChatRef.current = newChat;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      if (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target) && !document.querySelector("[role=dialog],[role=alertdialog]")) {
        const box = document.getElementById("question");
        if (box) {
          e.preventDefault();
          box.focus();
        }
      } else if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === "o") {
        e.preventDefault();
        newChatRef.current();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
