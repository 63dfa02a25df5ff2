// "Find another vertex" for one mention: a label search on the turn's KG (with type and description hints so
// same-named vertices can be told apart) whose results can be chosen; choosing re-runs the turn from entity linking.
"use client";
import { useId, useState } from "react";
import { SearchIcon } from "lucide-react";
import type { EntitySearchResponse } from "@/lib/api/contract";
import { api, ApiRequestError } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

export function EntitySearch({
  kgId,
  mention,
  disabled,
  onChoose,
}: {
  kgId: string | undefined;
  mention: string;
  disabled: boolean;
  onChoose: (hit: { iri: string; label: string }) => void;
}) {
  const [text, setText] = useState(mention);
  const [hits, setHits] = useState<EntitySearchResponse["hits"] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const search = async () => {
    if (!kgId || !text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      setHits((await api.entitySearch(kgId, text.trim())).hits);
    } catch (e) {
      setHits(null);
      setError(e instanceof ApiRequestError ? e.error.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-1 flex flex-col gap-1" data-testid="entity-search">
      <form
        className="flex items-center gap-1"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <label htmlFor={id} className="sr-only">
          Search the KG for a vertex for “{mention}”
        </label>
        <Input id={id} value={text} onChange={(e) => setText(e.target.value)} className="h-7 text-xs" data-testid="entity-search-input" />
        <Button type="submit" size="sm" variant="outline" className="h-7" disabled={busy || !kgId || !text.trim()}>
          <SearchIcon /> {busy ? "Searching…" : "Search"}
        </Button>
      </form>
      {error && (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      )}
      {hits && hits.length === 0 && <p className="text-muted-foreground">No vertex has that label.</p>}
      {hits && hits.length > 0 && (
        <ul className="flex flex-col" aria-label={`Vertices labelled like “${text}”`} data-testid="entity-search-results">
          {hits.map((h) => (
            <li key={h.iri} className="flex items-center gap-1.5 rounded px-1 py-px" data-testid="entity-search-hit">
              <span className="min-w-0 truncate" title={h.iri}>
                {h.label}
                <span className="text-muted-foreground">
                  {h.types.length ? ` — ${h.types.join(", ")}` : ""}
                  {h.description ? ` · ${h.description}` : ""}
                </span>
              </span>
              <Button size="sm" variant="outline" className="ml-auto h-6 px-2" disabled={disabled} onClick={() => onChoose({ iri: h.iri, label: h.label })} aria-label={`Use ${h.label} (${h.iri}) for “${mention}”`}>
                Use
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
