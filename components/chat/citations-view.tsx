// The evidence an answer cites (RAGONITE): SQL results and rows over the database induced from the KG, and passages
// of verbalized facts, each linking to the KG entities it is about; an SQL citation opens its query in the query panel.
"use client";
import { DatabaseIcon, FileTextIcon, SquareArrowOutUpRightIcon } from "lucide-react";
import type { Citation } from "@/lib/pipeline/types";
import { Button } from "@/components/ui/button";
import { EntityLink } from "./entity-link";

const SHOWN = 12;

/** "[S1.2]" marks after an answer item: which citations it rests on. */
export function CiteMarks({ cite }: { cite?: string[] }) {
  if (!cite?.length) return null;
  return (
    <sup className="ml-1 text-[0.7rem] text-muted-foreground" data-testid="cite-marks">
      {cite.map((id) => (
        <a key={id} href={`#cite-${id}`} className="hover:underline">
          [{id}]
        </a>
      ))}
    </sup>
  );
}

export function CitationsView({
  citations,
  onOpenEntity,
  onOpenQuery,
}: {
  citations: Citation[];
  onOpenEntity: (iri: string) => void;
  onOpenQuery?: (query: string, language: "sql") => void;
}) {
  if (citations.length === 0) return null;
  return (
    <details className="mt-2 border-t pt-2 text-sm" data-testid="citations" open={citations.length <= 4}>
      <summary className="cursor-pointer text-xs text-muted-foreground">
        {citations.length} source{citations.length === 1 ? "" : "s"} from the KG
      </summary>
      <ol className="mt-1 flex flex-col gap-1.5">
        {citations.slice(0, SHOWN).map((c) => (
          <li key={c.id} id={`cite-${c.id}`} data-testid="citation" data-kind={c.kind} className="flex items-start gap-1.5 text-xs">
            {c.kind === "passage" ? <FileTextIcon className="mt-0.5 size-3.5 shrink-0" aria-label="passage" /> : <DatabaseIcon className="mt-0.5 size-3.5 shrink-0" aria-label="SQL" />}
            <div className="min-w-0 flex-1">
              <span className="font-mono text-muted-foreground">[{c.id}]</span> <span className="break-words">{c.text.length > 300 ? `${c.text.slice(0, 299)}…` : c.text}</span>
              {c.iris.length > 0 && (
                <span className="ml-1 inline-flex flex-wrap gap-x-2">
                  {c.iris.slice(0, 4).map((iri) => (
                    <EntityLink key={iri} iri={iri} onOpen={onOpenEntity} />
                  ))}
                </span>
              )}
              {c.query && onOpenQuery && (
                <Button size="sm" variant="ghost" className="ml-1 h-5 px-1 text-xs" onClick={() => onOpenQuery(c.query!, "sql")}>
                  <SquareArrowOutUpRightIcon /> SQL
                </Button>
              )}
            </div>
          </li>
        ))}
      </ol>
      {citations.length > SHOWN && <p className="text-xs text-muted-foreground">…and {citations.length - SHOWN} more</p>}
    </details>
  );
}
