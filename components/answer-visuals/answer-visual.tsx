// The chat's mount for answers you can see (answer-view.tsx wraps its answer in this): a table answer drawn as the
// view its shape fits (with a switch back to the table), an entity answer with the graph of the facts behind it
// (shown for one entity, one click away for a list). Anything else is shown as it was.
"use client";
import { useMemo, useState, type ReactNode } from "react";
import { ShareIcon } from "lucide-react";
import type { Answer, AnswerItem } from "@/lib/pipeline/types";
import { Button } from "@/components/ui/button";
import type { VisualCell, VisualTable } from "./choose-view";
import { AnswerGraph } from "./graph-view";
import { ResultVisual } from "./result-visual";

export interface VisualTarget {
  turnId: string;
  attempt: number;
}

export function itemCell(item: AnswerItem | null): VisualCell | null {
  if (!item) return null;
  return item.type === "uri" ? { type: "uri", value: item.value, ...(item.label ? { label: item.label } : {}) } : { type: "literal", value: item.value, ...(item.datatype ? { datatype: item.datatype } : {}), ...(item.lang ? { lang: item.lang } : {}) };
}

export function AnswerVisual({ answer, target, onOpenEntity, children }: { answer: Answer; target?: VisualTarget; onOpenEntity: (iri: string) => void; children: ReactNode }) {
  const table = useMemo<VisualTable | null>(() => (answer.kind === "table" ? { columns: answer.columns, rows: answer.rows.map((r) => r.map(itemCell)) } : null), [answer]);
  const entities = useMemo(() => (answer.kind === "items" && answer.items.length > 0 && answer.items.every((i) => i.type === "uri") ? answer.items.map((i) => i.value) : []), [answer]);
  const [graph, setGraph] = useState(entities.length === 1);
  if (table) return <ResultVisual table={table} onOpenEntity={onOpenEntity}>{children}</ResultVisual>;
  if (entities.length === 0 || !target) return <>{children}</>;
  return (
    <div data-testid="answer-visual" className="min-w-0">
      {children}
      {entities.length > 1 && (
        <Button size="sm" variant="ghost" className="mt-1 h-7 px-2 text-xs" aria-expanded={graph} onClick={() => setGraph((g) => !g)} data-testid="toggle-answer-graph">
          <ShareIcon /> {graph ? "Hide the graph" : "Show the facts as a graph"}
        </Button>
      )}
      {graph && <AnswerGraph turnId={target.turnId} attempt={target.attempt} items={entities} onOpenEntity={onOpenEntity} />}
    </div>
  );
}
