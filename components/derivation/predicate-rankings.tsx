// Relation linking per relation: the predicates ranked by similarity (score bar, direction, IRI on hover), and for
// each ranking the vertex it was found around and how many predicates were compared.
import { localName } from "@/components/chat/entity-link";
import type { RankedPredicate } from "@/lib/pipeline/chatty-kg/state";
import type { PredicateRanking, RankedPredicateView } from "./derivation-data";

function PredicateRow({ p }: { p: RankedPredicateView }) {
  const pct = Math.max(0, Math.min(1, p.score)) * 100;
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto_3.5rem] items-center gap-2" data-testid="ranked-predicate">
      <span className="truncate" title={p.iri}>
        {p.label} <span className="text-muted-foreground">({p.direction === "out" ? "→" : "←"} {p.direction})</span>
      </span>
      <span className="h-1.5 w-16 overflow-hidden rounded bg-muted" aria-hidden>
        <span className="block h-full bg-primary" style={{ width: `${pct}%` }} />
      </span>
      <span className="text-right tabular-nums text-muted-foreground">{p.score.toFixed(3)}</span>
    </li>
  );
}

/** Final rankings per relation (stage output) when the stage ended; the tool-call rankings while it runs. */
export function PredicateRankings({ final, rankings }: { final: Record<string, RankedPredicate[]> | null; rankings: PredicateRanking[] }) {
  const relations = final ? Object.keys(final) : [...new Set(rankings.map((r) => r.relation))];
  if (relations.length === 0) return null;
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
                  <PredicateRow key={`${p.iri}-${p.direction}-${i}`} p={p} />
                ))}
              </ol>
            ) : (
              <p className="text-muted-foreground">No predicate found.</p>
            )}
          </section>
        );
      })}
    </div>
  );
}
