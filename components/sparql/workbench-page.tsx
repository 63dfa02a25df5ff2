// The full-page workbench: a KG picker, the same panel as the chat's SPARQL tab (history kept per KG), entity cards.
"use client";
import { useEffect, useState } from "react";
import Link from "next/link";
import { MessageSquareIcon } from "lucide-react";
import type { KgListItem } from "@/lib/api/contract";
import { api } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import { ThemeToggle } from "@/components/config/theme-toggle";
import { EntityCard } from "@/components/entity/entity-card";
import { SparqlPanel } from "./sparql-panel";

const EXAMPLE = "SELECT * WHERE {\n  ?s ?p ?o\n}\nLIMIT 10";

export function WorkbenchPage({ initialKgId, initialQuery }: { initialKgId?: string; initialQuery: string }) {
  const [kgs, setKgs] = useState<KgListItem[]>([]);
  const [kgId, setKgId] = useState<string | undefined>(initialKgId);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState(initialQuery || EXAMPLE);
  const [entity, setEntity] = useState<string | null>(null);

  useEffect(() => {
    api
      .kgs()
      .then((r) => {
        setKgs(r.kgs);
        setKgId((k) => (k && r.kgs.some((x) => x.id === k) ? k : r.defaultKgId));
        if (initialKgId && !r.kgs.some((x) => x.id === initialKgId)) setError(`The KG “${initialKgId}” of the link is not among this browser's KGs; showing the default one.`);
      })
      .catch((e) => setError(e instanceof Error ? e.message : String(e)));
  }, [initialKgId]);

  // the address follows the KG (the query goes into it only when a link is copied: it may be long)
  useEffect(() => {
    if (!kgId) return;
    const url = new URL(window.location.href);
    url.searchParams.set("kg", kgId);
    url.searchParams.delete("q");
    window.history.replaceState(null, "", url);
  }, [kgId]);

  return (
    <div className="flex h-dvh flex-col">
      <header className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-2 border-b px-3 py-2">
        <h1 className="text-lg font-semibold tracking-tight">SPARQL workbench</h1>
        <label className="flex items-center gap-2 text-sm">
          <span className="text-muted-foreground">Knowledge graph</span>
          <select
            className="h-8 max-w-[16rem] rounded-md border bg-card px-2 text-sm"
            value={kgId ?? ""}
            onChange={(e) => setKgId(e.target.value)}
            data-testid="workbench-kg"
            aria-label="Knowledge graph"
          >
            {kgs.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name}
              </option>
            ))}
          </select>
        </label>
        <span className="ml-auto flex items-center gap-1">
          <Button asChild size="sm" variant="ghost">
            <Link href="/">
              <MessageSquareIcon /> Chat
            </Link>
          </Button>
          <ThemeToggle />
        </span>
      </header>
      {error && (
        <p role="status" className="border-b bg-warning/10 px-3 py-1 text-sm">
          {error}
        </p>
      )}
      <main className="mx-auto flex min-h-0 w-full max-w-6xl flex-1 flex-col">
        <SparqlPanel kgId={kgId} query={query} onQueryChange={setQuery} onOpenEntity={setEntity} historyKey={kgId ? `kg:${kgId}` : undefined} page />
      </main>
      <EntityCard kgId={kgId} iri={entity} onOpenChange={(o) => !o && setEntity(null)} />
    </div>
  );
}
