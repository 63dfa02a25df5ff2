// Relation linking per relation: the predicates ranked by similarity (score bar, direction, IRI on hover), and for
// each ranking the vertex it was found around and how many predicates were compared. When the turn can be corrected,
// each predicate has a checkbox: unticking some and re-running keeps only the ticked ones for the query generation.
"use client";
import { useState } from "react";
import { RotateCcwIcon } from "lucide-react";
import { localName } from "@/components/chat/entity-link";
import { Button } from "@/components/ui/button";
import type { RankedPredicate } from "@/lib/pipeline/chatty-kg/state";
import type { PredicateRanking, RankedPredicateView } from "./derivation-data";
import { useCorrector } from "./corrector";

function PredicateRow({ p, tick }: { p: RankedPredicateView; tick?: { checked: boolean; disabled: boolean; onChange: (on: boolean) => void; relation: string } }) {
  const pct = Math.max(0, Math.min(1, p.score)) * 100;
  const name = (
    <span className="truncate" title={p.iri}>
      {p.label} <span className="text-muted-foreground">({p.direction === "out" ? "→" : "←"} {p.direction})</span>
    </span>
  );
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto_3.5rem] items-center gap-2" data-testid="ranked-predicate">
      {tick ? (
        <label className="flex min-w-0 items-center gap-1.5">
          <input
            type="checkbox"
            className="size-3.5 shrink-0 accent-primary"
            checked={tick.checked}
            disabled={tick.disabled}
            onChange={(e) => tick.onChange(e.target.checked)}
            aria-label={`Keep ${p.label} (${p.iri}) for “${tick.relation}”`}
          />
          {name}
        </label>
      ) : (
        name
      )}
      <span className="h-1.5 w-16 overflow-hidden rounded bg-muted" aria-hidden>
        <span className="block h-full bg-primary" style={{ width: `${pct}%` }} />
      </span>
      <span className="text-right tabular-nums text-muted-foreground">{p.score.toFixed(3)}</span>
    </li>
  );
}

/** Final rankings per relation (stage output) when the stage ended; the tool-call rankings while it runs. */
export function PredicateRankings({ final, rankings }: { final: Record<string, RankedPredicate[]> | null; rankings: PredicateRanking[] }) {
  const corrector = useCorrector("relation-predicates");
  // unticked predicate IRIs per relation
  const [dropped, setDropped] = useState<Record<string, string[]>>({});
  const relations = final ? Object.keys(final) : [...new Set(rankings.map((r) => r.relation))];
  if (relations.length === 0) return null;
  const editable = corrector !== null && final !== null;
  const kept = (rel: string) => [...new Set((final?.[rel] ?? []).map((p) => p.iri))].filter((iri) => !(dropped[rel] ?? []).includes(iri));
  const changed = relations.some((rel) => (dropped[rel] ?? []).length > 0);
  const valid = relations.every((rel) => kept(rel).length > 0);
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="ranked-predicates">
      {relations.map((rel) => {
        const runs = rankings.filter((r) => r.relation === rel);
        const preds: RankedPredicateView[] = final?.[rel] ?? runs.flatMap((r) => r.ranked);
        return (
          <section key={rel} aria-label={`Predicates for ${rel}`} data-relation={rel}>
            <p className="font-medium">&ldquo;{rel}&rdquo;</p>
            {runs.length > 0 && (
              <p className="text-muted-foreground">
                {runs
                  .map((r) => `${r.candidates ?? "?"} predicates around ${r.around ? localName(r.around) : "?"}${r.error ? ` (failed: ${r.error})` : ""}`)
                  .join("; ")}
                {runs[0].similarity ? ` · ${runs[0].similarity}` : ""}
              </p>
            )}
            {preds.length > 0 ? (
              <ol className="mt-0.5 flex flex-col gap-0.5">
                {preds.map((p, i) => (
                  <PredicateRow
                    key={`${p.iri}-${p.direction}-${i}`}
                    p={p}
                    tick={
                      editable
                        ? {
                            relation: rel,
                            checked: !(dropped[rel] ?? []).includes(p.iri),
                            disabled: corrector.disabled,
                            onChange: (on) =>
                              setDropped((d) => ({ ...d, [rel]: on ? (d[rel] ?? []).filter((x) => x !== p.iri) : [...(d[rel] ?? []), p.iri] })),
                          }
                        : undefined
                    }
                  />
                ))}
              </ol>
            ) : (
              <p className="text-muted-foreground">No predicate found.</p>
            )}
          </section>
        );
      })}
      {editable && (
        <div className="flex items-center gap-2">
          <Button
            size="sm"
            variant="outline"
            className="h-7"
            disabled={corrector.disabled || !changed || !valid}
            onClick={() => corrector.rerun({ kind: "relation-predicates", predicates: Object.fromEntries(relations.filter((r) => (dropped[r] ?? []).length).map((r) => [r, kept(r)])) })}
            data-testid="rerun-relation-predicates"
          >
            <RotateCcwIcon /> Re-run with the ticked predicates
          </Button>
          <span className="text-muted-foreground" aria-live="polite">
            {!valid ? "Keep at least one predicate per relation." : changed ? "" : "Untick predicates to leave them out."}
          </span>
        </div>
      )}
    </div>
  );
}
