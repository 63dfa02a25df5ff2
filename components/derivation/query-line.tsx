// A SPARQL query shown compactly (expandable), with its row count or error, and "Open in SPARQL panel".
import type * as React from "react";
import { SquareArrowOutUpRightIcon } from "lucide-react";
import { Button } from "@/components/ui/button";

export function QueryLine({
  query,
  meta,
  error,
  badge,
  openLabel = "Open in SPARQL panel",
  onOpen,
}: {
  query: string;
  meta: string;
  error?: string;
  /** e.g. whether a candidate ran and its rows */
  badge?: React.ReactNode;
  openLabel?: string;
  onOpen: (q: string) => void;
}) {
  return (
    <details className="rounded border bg-background text-xs" data-testid="query-line">
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-0.5 px-2 py-1 outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <span className="tabular-nums text-muted-foreground">{meta}</span>
        {badge}
        {error && <span className="truncate text-destructive">{error}</span>}
        <Button
          size="sm"
          variant="ghost"
          className="ml-auto h-6 px-2"
          onClick={(e) => {
            e.preventDefault();
            onOpen(query);
          }}
        >
          <SquareArrowOutUpRightIcon /> {openLabel}
        </Button>
      </summary>
      <pre className="max-h-48 overflow-auto border-t p-2 font-mono whitespace-pre-wrap">{query}</pre>
    </details>
  );
}
