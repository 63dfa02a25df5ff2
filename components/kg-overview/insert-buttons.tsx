// The two one-click actions every overview item has: put it into the question box, or open a query for it in the
// SPARQL editor. The overview closes after either, so the box or the editor is in view.
"use client";
import { createContext, useContext } from "react";
import { CodeIcon, MessageSquarePlusIcon } from "lucide-react";
import { insertText, type InsertMode } from "@/components/insert-text";
import { cn } from "@/lib/utils";

/** What the overview does after an insert (close itself). */
export const OverviewInsertContext = createContext<() => void>(() => {});

export function InsertButtons({
  label,
  question,
  questionMode = "append",
  sparql,
  className,
}: {
  /** what the item is, for the buttons' accessible names ("hive", "ex:kept_by") */
  label: string;
  question?: string;
  questionMode?: InsertMode;
  sparql?: string;
  className?: string;
}) {
  const done = useContext(OverviewInsertContext);
  const btn = "inline-flex size-6 items-center justify-center rounded text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring";
  return (
    <span className={cn("inline-flex shrink-0 items-center gap-0.5", className)}>
      {question !== undefined && (
        <button
          type="button"
          className={btn}
          data-testid="insert-question"
          aria-label={`Put “${label}” into the question box`}
          title="Put into the question box"
          onClick={() => {
            insertText("question", question, questionMode);
            done();
          }}
        >
          <MessageSquarePlusIcon className="size-3.5" aria-hidden />
        </button>
      )}
      {sparql !== undefined && (
        <button
          type="button"
          className={btn}
          data-testid="insert-sparql"
          aria-label={`Open a query for “${label}” in the SPARQL editor`}
          title="Open in the SPARQL editor"
          onClick={() => {
            insertText("sparql", sparql, "replace");
            done();
          }}
        >
          <CodeIcon className="size-3.5" aria-hidden />
        </button>
      )}
    </span>
  );
}
