// Query selection, correctable: the predicates of the candidate queries with the ones the model selected ticked; the
// user ticks or unticks and re-runs, and only the queries built from the ticked predicates run (no model call).
"use client";
import { useState } from "react";
import { RotateCcwIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { Corrector } from "./corrector";
import type { PredicateChoice } from "./derivation-data";

export function PredicatePicker({ choices, corrector }: { choices: PredicateChoice[]; corrector: Corrector }) {
  const initial = choices.filter((c) => c.selected).map((c) => c.iri);
  const [ticked, setTicked] = useState<string[]>(initial);
  const changed = ticked.length !== initial.length || ticked.some((i) => !initial.includes(i));
  return (
    <fieldset className="flex flex-col gap-1 text-xs" data-testid="predicate-picker">
      <legend className="mb-0.5 text-muted-foreground">Predicates the queries may use</legend>
      <ul className="flex flex-col gap-0.5">
        {choices.map((c) => (
          <li key={c.iri}>
            <label className="flex items-center gap-1.5" title={c.iri}>
              <input
                type="checkbox"
                className="size-3.5 accent-primary"
                checked={ticked.includes(c.iri)}
                disabled={corrector.disabled}
                onChange={(e) => setTicked((t) => (e.target.checked ? [...t, c.iri] : t.filter((x) => x !== c.iri)))}
                data-testid="predicate-choice"
                data-iri={c.iri}
              />
              <span className="truncate">{c.label}</span>
              <span className="truncate font-mono text-muted-foreground">{c.iri.replace(/^.*[/#]/, "")}</span>
            </label>
          </li>
        ))}
      </ul>
      <div className="flex items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          className="h-7"
          disabled={corrector.disabled || !changed || ticked.length === 0}
          onClick={() => corrector.rerun({ kind: "predicates", predicates: choices.filter((c) => ticked.includes(c.iri)).map((c) => c.iri) })}
          data-testid="rerun-predicates"
        >
          <RotateCcwIcon /> Re-run with these predicates
        </Button>
        <span className="text-muted-foreground" aria-live="polite">
          {ticked.length === 0 ? "Tick at least one predicate." : ""}
        </span>
      </div>
    </fieldset>
  );
}
