// "Put this into the question box / the SPARQL editor" from anywhere on the page (the KG overview, chips, …):
// a window event, so the panel that offers an item need not be wired to the box that receives it.
"use client";
import { useEffect, useRef } from "react";

export type InsertTarget = "question" | "sparql";
export const INSERT_EVENT = "chatty-kg:insert";

/** append: add to what is there (a name into a question being written); replace: the text is the whole content. */
export type InsertMode = "append" | "replace";

export interface InsertDetail {
  target: InsertTarget;
  text: string;
  mode: InsertMode;
}

/** Sends `text` to the question box or the SPARQL editor (whichever listens for `target`). */
export function insertText(target: InsertTarget, text: string, mode: InsertMode = target === "sparql" ? "replace" : "append"): void {
  window.dispatchEvent(new CustomEvent<InsertDetail>(INSERT_EVENT, { detail: { target, text, mode } }));
}

/** `current` with `text` added the way `mode` says (appended after a space when there is text already). */
export function withInserted(current: string, text: string, mode: InsertMode): string {
  if (mode === "replace" || !current.trim()) return text;
  return /\s$/.test(current) ? `${current}${text}` : `${current} ${text}`;
}

/** Calls `handler` with each text sent to `target` while the component is mounted. */
export function useInsertText(target: InsertTarget, handler: (text: string, mode: InsertMode) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const listener = (e: Event) => {
      const detail = (e as CustomEvent<InsertDetail>).detail;
      if (detail?.target === target && typeof detail.text === "string") latest.current(detail.text, detail.mode === "replace" ? "replace" : "append");
    };
    window.addEventListener(INSERT_EVENT, listener);
    return () => window.removeEventListener(INSERT_EVENT, listener);
  }, [target]);
}
