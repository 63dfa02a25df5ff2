// What the KG says about itself: its class and property hierarchies, domains and ranges, inverses and closed lists.
"use client";
import type { KgOnboardingProfile } from "@/lib/kg/onboarding/types";
import { InsertButtons } from "./insert-buttons";
import type { Names } from "./names";
import { classQuery, predicateQuery } from "./snippets";

export function SchemaTab({ profile, names }: { profile: KgOnboardingProfile; names: Names }) {
  const s = profile.schema;
  const properties = [...new Set([...s.domain.map(([p]) => p), ...s.range.map(([p]) => p)])];
  const empty = !s.subClassOf.length && !s.subPropertyOf.length && !s.domain.length && !s.range.length && !s.inverseOf.length && !s.enumerations.length;
  if (empty) {
    return (
      <p className="p-4 text-sm text-muted-foreground" data-testid="overview-schema">
        This KG declares no schema of its own (no rdfs:subClassOf, rdfs:subPropertyOf, rdfs:domain, rdfs:range, owl:inverseOf or closed lists): the classes and predicates come from its data.
      </p>
    );
  }
  const item = (iri: string, sparql: string) => (
    <span className="inline-flex items-center gap-0.5">
      <span title={names.compact(iri)}>{names.name(iri)}</span>
      <InsertButtons label={names.name(iri)} question={names.name(iri)} sparql={sparql} />
    </span>
  );
  return (
    <div className="flex flex-col gap-5 p-3 text-sm" data-testid="overview-schema">
      {s.subClassOf.length > 0 && (
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Sub-classes</h3>
          <ul className="flex flex-col gap-0.5">
            {s.subClassOf.map(([sub, sup]) => (
              <li key={`${sub} ${sup}`} className="flex flex-wrap items-center gap-1.5" data-testid="overview-subclass">
                {item(sub, classQuery(sub, names.prefixes))} <span className="text-muted-foreground">is a kind of</span> {item(sup, classQuery(sup, names.prefixes))}
              </li>
            ))}
          </ul>
        </section>
      )}
      {properties.length > 0 && (
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Domains and ranges</h3>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-xs">
              <thead className="text-muted-foreground">
                <tr>
                  <th className="py-1 pr-2 font-medium">Property</th>
                  <th className="py-1 pr-2 font-medium">Domain (its subjects)</th>
                  <th className="py-1 font-medium">Range (its values)</th>
                </tr>
              </thead>
              <tbody>
                {properties.map((p) => (
                  <tr key={p} className="border-t" data-testid="overview-domain-range">
                    <td className="py-1 pr-2">{item(p, predicateQuery(p, names.prefixes))}</td>
                    <td className="py-1 pr-2">{s.domain.filter(([q]) => q === p).map(([, c]) => names.name(c)).join(", ") || "—"}</td>
                    <td className="py-1">{s.range.filter(([q]) => q === p).map(([, c]) => names.name(c)).join(", ") || "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {s.subPropertyOf.length > 0 && (
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Sub-properties</h3>
          <ul className="flex flex-col gap-0.5">
            {s.subPropertyOf.map(([sub, sup]) => (
              <li key={`${sub} ${sup}`}>
                {names.name(sub)} <span className="text-muted-foreground">is a kind of</span> {names.name(sup)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {s.inverseOf.length > 0 && (
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Inverses</h3>
          <ul className="flex flex-col gap-0.5">
            {s.inverseOf.map(([a, b]) => (
              <li key={`${a} ${b}`}>
                {names.name(a)} <span className="text-muted-foreground">is the inverse of</span> {names.name(b)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {s.enumerations.length > 0 && (
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Closed lists</h3>
          <ul className="flex flex-col gap-0.5">
            {s.enumerations.map(([c, members]) => (
              <li key={c}>
                <span className="font-medium">{names.name(c)}</span>: {members.slice(0, 20).map((m) => names.name(m)).join(", ")}
                {members.length > 20 ? ` and ${members.length - 20} more` : ""}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
