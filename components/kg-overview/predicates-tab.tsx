// Every predicate of the KG once: which classes use it, what its values are, examples; then the predicates no profiled
// class uses, with their counts.
"use client";
import type { KgOnboardingProfile, ProfilePredicate } from "@/lib/kg/onboarding/types";
import { cn } from "@/lib/utils";
import { InsertButtons } from "./insert-buttons";
import { termText, valueTypeText, type Names } from "./names";
import { predicateQuery } from "./snippets";

// fixed tracks but the two 1fr ones: each row is its own grid, and the header must line up with every row
const COLS = "sm:grid-cols-[minmax(0,13rem)_minmax(0,1fr)_6rem_minmax(0,1fr)_3.5rem]";

interface Row {
  predicate: ProfilePredicate;
  /** classes whose instances have it, by coverage */
  classes: { iri: string; coverage: number }[];
}

/** Predicates across classes, most widely used first. */
export function predicateRows(profile: KgOnboardingProfile): Row[] {
  const rows = new Map<string, Row>();
  const add = (p: ProfilePredicate, cls?: string) => {
    const row = rows.get(p.iri) ?? { predicate: p, classes: [] };
    if (cls) row.classes.push({ iri: cls, coverage: p.coverage });
    rows.set(p.iri, row);
  };
  for (const c of profile.classes) for (const p of c.predicates) add(p, c.iri);
  for (const p of profile.untyped?.predicates ?? []) add(p);
  return [...rows.values()].sort((a, b) => b.classes.length - a.classes.length || a.predicate.name.localeCompare(b.predicate.name));
}

export function PredicatesTab({ profile, names }: { profile: KgOnboardingProfile; names: Names }) {
  const rows = predicateRows(profile);
  return (
    <div className="flex flex-col gap-4 p-3 text-sm" data-testid="overview-all-predicates">
      {/* a table on wider screens; on a phone each predicate is a name line and a line of what it has */}
      <div className="text-xs" role="table" aria-label="Predicates">
        <div className={cn("hidden gap-x-3 pb-1 text-muted-foreground sm:grid", COLS)} role="row">
          <span role="columnheader">Predicate</span>
          <span role="columnheader">Used by</span>
          <span role="columnheader">Values</span>
          <span role="columnheader">Examples</span>
          <span role="columnheader" className="sr-only">
            Actions
          </span>
        </div>
        {rows.map(({ predicate: p, classes }) => (
          <div key={p.iri} role="row" className={cn("grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-0.5 border-t py-1.5", COLS)} data-testid="overview-predicate" data-iri={p.iri}>
            <div role="cell" className="min-w-0">
              <div className="font-medium">{p.name}</div>
              <div className="font-mono [overflow-wrap:anywhere] text-muted-foreground">{names.compact(p.iri)}</div>
            </div>
            <div role="cell" className="row-span-2 self-start sm:order-last sm:row-span-1">
              <InsertButtons label={p.name} question={p.name} sparql={predicateQuery(p.iri, names.prefixes)} />
            </div>
            <div className="flex min-w-0 flex-wrap gap-x-1.5 text-muted-foreground sm:contents sm:text-foreground">
              <span role="cell">
                <span className="sm:hidden">used by </span>
                {classes.length ? classes.map((c) => `${names.name(c.iri)} (${Math.round(c.coverage * 100)} %)`).join(", ") : "things without a class"}
              </span>
              <span aria-hidden className="sm:hidden">
                ·
              </span>
              <span role="cell">{valueTypeText(p, names)}</span>
              <span aria-hidden className="sm:hidden">
                ·
              </span>
              <span role="cell" className="line-clamp-2 min-w-0 break-words">
                <span className="sm:hidden">e.g. </span>
                {p.examples.map((t) => termText(t, names, p.exampleNames)).join(", ") || "—"}
              </span>
            </div>
          </div>
        ))}
      </div>
      {profile.otherPredicates.length > 0 && (
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Other predicates</h3>
          <ul className="flex flex-col gap-0.5 text-xs">
            {profile.otherPredicates.map((p) => (
              <li key={p.iri} className="flex items-center gap-2" data-testid="overview-other-predicate">
                <span className="font-medium">{p.name}</span>
                <span className="min-w-0 flex-1 truncate font-mono text-muted-foreground">{names.compact(p.iri)}</span>
                <span className="text-muted-foreground">{p.count.toLocaleString("en")}</span>
                <InsertButtons label={p.name} question={p.name} sparql={predicateQuery(p.iri, names.prefixes)} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
