// Every predicate of the KG once: which classes use it, what its values are, examples; then the predicates no profiled
// class uses, with their counts.
"use client";
import type { KgOnboardingProfile, ProfilePredicate } from "@/lib/kg/onboarding/types";
import { InsertButtons } from "./insert-buttons";
import { termText, valueTypeText, type Names } from "./names";
import { predicateQuery } from "./snippets";

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
      <div className="overflow-x-auto">
        <table className="w-full text-left text-xs">
          <thead className="text-muted-foreground">
            <tr>
              <th className="py-1 pr-2 font-medium">Predicate</th>
              <th className="py-1 pr-2 font-medium">Used by</th>
              <th className="py-1 pr-2 font-medium">Values</th>
              <th className="py-1 pr-2 font-medium">Examples</th>
              <th className="py-1 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ predicate: p, classes }) => (
              <tr key={p.iri} className="border-t align-top" data-testid="overview-predicate" data-iri={p.iri}>
                <td className="py-1 pr-2">
                  <div className="font-medium">{p.name}</div>
                  <div className="font-mono break-all text-muted-foreground">{names.compact(p.iri)}</div>
                </td>
                <td className="py-1 pr-2">{classes.length ? classes.map((c) => `${names.name(c.iri)} (${Math.round(c.coverage * 100)} %)`).join(", ") : "things without a class"}</td>
                <td className="py-1 pr-2">{valueTypeText(p, names)}</td>
                <td className="max-w-64 py-1 pr-2">
                  <span className="line-clamp-2 break-words">{p.examples.map((t) => termText(t, names, p.exampleNames)).join(", ") || "—"}</span>
                </td>
                <td className="py-1">
                  <InsertButtons label={p.name} question={p.name} sparql={predicateQuery(p.iri, names.prefixes)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
