// "The facts behind it" as a small graph: the provenance triples of an answer's first entities (the same ones the
// list's "Where does this come from?" shows), loaded when the graph scrolls into view; a node opens its entity card.
"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ProvenanceTriple } from "@/lib/api/contract";
import { api, ApiRequestError } from "@/components/api-client";
import { ChartData, EChart, type ChartLayout } from "./echart";
import { graphBox, graphData, graphOption } from "./graph-options";
import type { ChartColors } from "./theme-colors";

/** entities whose triples are drawn at most (each is one provenance request) */
export const GRAPH_ITEMS = 5;
const MAX_TRIPLES = 60;

const LOADING = "Loading the facts behind the answer…";

export function TriplesGraph({ triples, answerIris, title, onOpenEntity, loading = LOADING }: { triples: ProvenanceTriple[]; answerIris: string[]; title: string; onOpenEntity?: (iri: string) => void; loading?: string }) {
  const shown = useMemo(() => triples.slice(0, MAX_TRIPLES), [triples]);
  const data = useMemo(() => graphData(shown, answerIris), [shown, answerIris]);
  const box = graphBox(data);
  const option = useCallback((colors: ChartColors, layout: ChartLayout) => graphOption(data, title, colors, layout.narrow, layout.roam), [data, title]);
  const name = (t: ProvenanceTriple["subject"]) => (t.type === "uri" ? (t.label ?? t.value) : t.value);
  return (
    <EChart
      title={title}
      description={triples.length > MAX_TRIPLES ? `The first ${MAX_TRIPLES} of ${triples.length} triples.` : undefined}
      option={option}
      height={box.height}
      loading={loading}
      roamable
      className={box.maxWidth ? "w-full" : undefined}
      style={box.maxWidth ? { maxWidth: box.maxWidth } : undefined}
      onClick={(p) => {
        const iri = p.dataType === "node" ? (p.data as { iri?: string } | undefined)?.iri : undefined;
        if (iri) onOpenEntity?.(iri);
      }}
      testId="answer-graph"
      attributes={{ view: "graph", nodes: data.nodes.length, edges: data.edges.length }}
      data={<ChartData caption={title} head={["Subject", "Predicate", "Object"]} rows={shown.map((t) => [name(t.subject), t.predicate.label ?? t.predicate.value, name(t.object)])} />}
    />
  );
}

/** The provenance of items 0..n-1 of a turn's answer, merged (loaded once visible). */
export function AnswerGraph({ turnId, attempt, items, onOpenEntity }: { turnId: string; attempt: number; items: string[]; onOpenEntity: (iri: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  const [triples, setTriples] = useState<ProvenanceTriple[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setVisible(true), { rootMargin: "200px" });
    io.observe(el);
    return () => io.disconnect();
  }, []);

  useEffect(() => {
    if (!visible) return;
    const controller = new AbortController();
    const wanted = items.slice(0, GRAPH_ITEMS);
    Promise.all(wanted.map((_, i) => api.provenance(turnId, attempt, i, controller.signal)))
      .then((all) => {
        const seen = new Set<string>();
        const merged: ProvenanceTriple[] = [];
        for (const r of all)
          for (const t of r.triples) {
            const key = `${t.subject.value} ${t.predicate.value} ${t.object.value}`;
            if (seen.has(key)) continue;
            seen.add(key);
            merged.push(t);
          }
        setTriples(merged);
      })
      .catch((e) => {
        if (!controller.signal.aborted) setError(e instanceof ApiRequestError ? e.error.message : String(e));
      });
    return () => controller.abort();
  }, [visible, turnId, attempt, items]);

  const title = items.length > GRAPH_ITEMS ? `The facts behind the first ${GRAPH_ITEMS} answers` : "The facts behind the answer";
  return (
    <div ref={box} className="mt-2 min-h-8" data-testid="answer-graph-box">
      {error && <p className="text-xs text-muted-foreground">The graph could not be loaded: {error}</p>}
      {!error && !triples && (
        <p className="text-xs text-muted-foreground" role="status" data-testid="answer-graph-loading">
          {LOADING}
        </p>
      )}
      {triples && triples.length === 0 && <p className="text-xs text-muted-foreground">The KG gave no facts to draw for this answer.</p>}
      {triples && triples.length > 0 && <TriplesGraph triples={triples} answerIris={items} title={title} onOpenEntity={onOpenEntity} />}
    </div>
  );
}
