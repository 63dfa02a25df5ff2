// The Entity card: label, types, description and capped outgoing/incoming edges; every IRI opens its own card.
"use client";
import { useEffect, useState } from "react";
import { ArrowLeftIcon } from "lucide-react";
import type { EntityEdge, EntityResponse } from "@/lib/api/contract";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EntityLink } from "@/components/chat/entity-link";
import { CopyButton } from "@/components/chat/copy-button";
import { api } from "@/components/api-client";

type Load = { state: "loading" } | { state: "error"; message: string } | { state: "ok"; entity: EntityResponse };

function Edges({ title, edges, onOpen }: { title: string; edges: EntityEdge[]; onOpen: (iri: string) => void }) {
  return (
    <section>
      <h3 className="mb-1 text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({edges.length})</span>
      </h3>
      {edges.length === 0 ? (
        <p className="text-xs text-muted-foreground">None</p>
      ) : (
        <table className="w-full text-xs">
          <tbody>
            {edges.map((e, i) => (
              <tr key={i} className="border-t align-top">
                <td className="w-2/5 py-1 pr-2 text-muted-foreground" title={e.predicate.iri}>
                  {e.predicate.label}
                </td>
                <td className="py-1">
                  {e.object.type === "uri" ? (
                    <EntityLink iri={e.object.value} label={e.object.label} onOpen={onOpen} />
                  ) : (
                    <span>{e.object.value}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function EntityCard({ kgId, iri, onOpenChange }: { kgId: string | undefined; iri: string | null; onOpenChange: (open: boolean) => void }) {
  // a small history so following an edge can be undone with Back
  const [stack, setStack] = useState<string[]>([]);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const current = stack[stack.length - 1] ?? null;

  useEffect(() => {
    setStack(iri ? [iri] : []);
  }, [iri]);

  useEffect(() => {
    if (!current || !kgId) return;
    const controller = new AbortController();
    setLoad({ state: "loading" });
    api
      .entity(kgId, current, controller.signal)
      .then((entity) => setLoad({ state: "ok", entity }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: "error", message: e instanceof Error ? e.message : String(e) });
      });
    return () => controller.abort();
  }, [current, kgId]);

  const open = (next: string) => setStack((s) => [...s, next]);

  return (
    <Dialog open={iri !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85vh] max-w-2xl overflow-y-auto" data-testid="entity-card">
        <DialogHeader>
          <div className="flex items-center gap-2">
            {stack.length > 1 && (
              <Button size="icon" variant="ghost" className="size-7" aria-label="Back" onClick={() => setStack((s) => s.slice(0, -1))}>
                <ArrowLeftIcon />
              </Button>
            )}
            <DialogTitle>{load.state === "ok" ? load.entity.label : "Entity"}</DialogTitle>
          </div>
          <DialogDescription className="flex items-center gap-1 font-mono text-xs break-all">
            {current}
            {current && <CopyButton text={current} label="Copy IRI" />}
          </DialogDescription>
        </DialogHeader>
        {load.state === "loading" && <p className="text-sm text-muted-foreground">Loading…</p>}
        {load.state === "error" && (
          <p role="alert" className="text-sm text-destructive">
            {load.message}
          </p>
        )}
        {load.state === "ok" && (
          <div className="flex flex-col gap-3">
            {load.entity.types.length > 0 && (
              <div className="flex flex-wrap gap-1" aria-label="Types">
                {load.entity.types.map((t) => (
                  <Badge key={t.iri} variant="outline" title={t.iri}>
                    {t.label}
                  </Badge>
                ))}
              </div>
            )}
            {load.entity.description && <p className="text-sm">{load.entity.description}</p>}
            <Edges title="Outgoing" edges={load.entity.outgoing} onOpen={open} />
            <Edges title="Incoming" edges={load.entity.incoming} onOpen={open} />
            {load.entity.capped && <p className="text-xs text-muted-foreground">Edges are capped; query the SPARQL panel for all of them.</p>}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
