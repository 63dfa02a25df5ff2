// "Where does this come from?": a toggle after an answer item (or a table row, or a "yes") that loads the KG triples
// the executed query matched for it, shown as subject — predicate → object with entity links, plus the evidence it
// cites when its strategy cites (RAGONITE's SQL rows and passages) and the query that found the triples.
"use client";
import { useId, useState } from "react";
import { ListTreeIcon, SquareArrowOutUpRightIcon } from "lucide-react";
import type { ProvenanceResponse, ProvenanceTriple } from "@/lib/api/contract";
import { api, ApiRequestError } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import { EntityLink, localName } from "./entity-link";

/** Which answer this is: the turn and attempt it belongs to (provenance is read from the stored attempt). */
export interface ProvenanceTarget {
  turnId: string;
  attempt: number;
  onOpenQuery?: (query: string) => void;
}

function TermView({ term, onOpenEntity }: { term: ProvenanceTriple["subject"]; onOpenEntity: (iri: string) => void }) {
  if (term.type === "uri") return <EntityLink iri={term.value} label={term.label} onOpen={onOpenEntity} />;
  return <span className="break-words">{term.type === "literal" ? `“${term.value}”` : `_:${term.value}`}</span>;
}

/** The toggle button and, once opened, the supporting triples of item `index` (undefined: a yes/no answer). */
export function ProvenanceToggle({
  target,
  index,
  what,
  onOpenEntity,
}: {
  target: ProvenanceTarget;
  index: number | undefined;
  /** the item's text, for the button's accessible name */
  what: string;
  onOpenEntity: (iri: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<ProvenanceResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const panel = useId();

  const toggle = async () => {
    const next = !open;
    setOpen(next);
    if (!next || data) return;
    setError(null);
    try {
      setData(await api.provenance(target.turnId, target.attempt, index));
    } catch (e) {
      setError(e instanceof ApiRequestError ? e.error.message : String(e));
    }
  };

  return (
    <>
      <Button
        size="icon"
        variant="ghost"
        className="ml-1 size-5 align-middle text-muted-foreground"
        aria-expanded={open}
        aria-controls={panel}
        aria-label={`Where does ${what} come from?`}
        title="Where does this come from?"
        onClick={() => void toggle()}
        data-testid="provenance-toggle"
      >
        <ListTreeIcon className="size-3.5" />
      </Button>
      {open && (
        <div id={panel} className="my-1 rounded border bg-muted/40 px-2 py-1 text-xs" data-testid="provenance" role="region" aria-label={`Where ${what} comes from`}>
          {!data && !error && <p className="text-muted-foreground">Looking up the triples behind it…</p>}
          {error && <p className="text-destructive">{error}</p>}
          {data && (
            <>
              {data.triples.length > 0 && (
                <ul className="flex flex-col gap-0.5" aria-label="Supporting triples">
                  {data.triples.map((t, i) => (
                    <li key={i} className="flex flex-wrap items-center gap-x-1" data-testid="provenance-triple">
                      <TermView term={t.subject} onOpenEntity={onOpenEntity} />
                      <span className="text-muted-foreground" title={t.predicate.value}>
                        — {t.predicate.label ?? localName(t.predicate.value)} →
                      </span>
                      <TermView term={t.object} onOpenEntity={onOpenEntity} />
                    </li>
                  ))}
                </ul>
              )}
              {data.truncated && <p className="text-muted-foreground">Only the first {data.triples.length} triples are shown.</p>}
              {data.citations.length > 0 && (
                <ul className="mt-1 flex flex-col gap-0.5" aria-label="Cited evidence">
                  {data.citations.map((c) => (
                    <li key={c.id} data-testid="provenance-citation">
                      <span className="font-mono text-muted-foreground">[{c.id}]</span> {c.text.length > 300 ? `${c.text.slice(0, 299)}…` : c.text}
                    </li>
                  ))}
                </ul>
              )}
              {data.note && <p className="text-muted-foreground">{data.note}</p>}
              {data.queries.length > 0 && target.onOpenQuery && (
                <span className="flex flex-wrap gap-x-1">
                  {data.queries.map((q, i) => (
                    <Button key={i} size="sm" variant="ghost" className="h-6 px-1.5 text-[11px]" onClick={() => target.onOpenQuery?.(q)}>
                      <SquareArrowOutUpRightIcon /> {data.queries.length === 1 ? "Open the query in the SPARQL panel" : `Query ${i + 1}`}
                    </Button>
                  ))}
                </span>
              )}
            </>
          )}
        </div>
      )}
    </>
  );
}
