// The queries run in the workbench, per conversation (or per KG on the full page), kept in this browser's storage:
// newest first, the same query once, at most MAX_HISTORY. Storage that is full or off just keeps nothing.
"use client";
import { useCallback, useEffect, useState } from "react";

export interface HistoryEntry {
  query: string;
  at: number;
  /** rows of the result, or the error code */
  outcome: string;
}

export const MAX_HISTORY = 50;
const KEY = "chatty-kg:sparql-history:";

function read(key: string): HistoryEntry[] {
  try {
    const raw = window.localStorage.getItem(KEY + key);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? list.filter((e): e is HistoryEntry => typeof e?.query === "string" && typeof e?.at === "number").slice(0, MAX_HISTORY) : [];
  } catch {
    return [];
  }
}

/** `entries` newest first; `add` records a run (moving an earlier run of the same query to the top). */
export function addEntry(list: HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...list.filter((e) => e.query.trim() !== entry.query.trim())].slice(0, MAX_HISTORY);
}

export function useQueryHistory(key: string) {
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  useEffect(() => setEntries(read(key)), [key]);
  const add = useCallback(
    (query: string, outcome: string) => {
      const next = addEntry(read(key), { query, at: Date.now(), outcome });
      setEntries(next);
      try {
        window.localStorage.setItem(KEY + key, JSON.stringify(next));
      } catch {
        // storage full or disabled: the history is shown for this page only
      }
    },
    [key],
  );
  return { entries, add };
}
