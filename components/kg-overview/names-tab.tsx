// Where the KG keeps names (the naming predicates the lexicon found), how its IRIs are made (id shapes), the literal
// forms it uses (datatypes, languages, dates, units) and a few of its things.
"use client";
import type { KgOnboardingProfile } from "@/lib/kg/onboarding/types";
import { Badge } from "@/components/ui/badge";
import { Samples } from "./classes-tab";
import { InsertButtons } from "./insert-buttons";
import { compactInText, shapeText, type Names } from "./names";
import { namespaceQuery, predicateQuery } from "./snippets";

const ROLE_WORDS = { label: "label", name: "name", id: "id / code" } as const;

export function NamesTab({ profile, names }: { profile: KgOnboardingProfile; names: Names }) {
  const samples = [...profile.classes.flatMap((c) => c.samples.slice(0, 3)), ...(profile.untyped?.samples.slice(0, 3) ?? [])].slice(0, 24);
  const forms = profile.literalForms;
  return (
    <div className="flex flex-col gap-5 p-3 text-sm">
      <section data-testid="overview-naming">
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Where names are</h3>
        {profile.namingPredicates.length === 0 ? (
          <p className="text-muted-foreground">No predicate holds names: things are known by the words of their IRIs (a local name such as “river_bend” reads “river bend”).</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {profile.namingPredicates.map((p) => (
              <li key={p.iri} className="flex flex-wrap items-center gap-2" data-testid="overview-naming-predicate">
                <span className="font-mono text-xs">{names.compact(p.iri)}</span>
                <Badge variant="muted">{ROLE_WORDS[p.role]}</Badge>
                <span className="text-xs text-muted-foreground">{p.why === "profile" ? "a usual label predicate, used here" : compactInText(p.why, names)}</span>
                <InsertButtons label={names.compact(p.iri)} sparql={predicateQuery(p.iri, names.prefixes)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section data-testid="overview-id-shapes">
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">How things are identified</h3>
        {profile.idShapes.length === 0 ? (
          <p className="text-muted-foreground">No common id shape.</p>
        ) : (
          <ul className="flex flex-col gap-1.5">
            {profile.idShapes.map((s) => (
              <li key={s.pattern} className="flex flex-wrap items-center gap-x-2 gap-y-0.5" data-testid="overview-id-shape">
                <span className="font-mono text-xs break-all" title={s.pattern}>{shapeText(s.pattern, names)}</span>
                {s.opaque && <Badge variant="warning" title="these ids name nothing: the things are found by their name predicates only">opaque</Badge>}
                <span className="text-xs text-muted-foreground">
                  {s.count.toLocaleString("en")} seen, e.g. <span className="font-mono break-all">{names.compact(s.example)}</span>
                </span>
                <InsertButtons label={shapeText(s.pattern, names)} sparql={namespaceQuery(s.namespace)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {(forms.datatypes.length > 0 || forms.languages.length > 0 || forms.dateForms.length > 0 || forms.units.length > 0) && (
        <section data-testid="overview-literal-forms">
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Values</h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
            {forms.datatypes.length > 0 && (
              <>
                <dt className="text-muted-foreground">Datatypes</dt>
                <dd>{forms.datatypes.map(([dt, n]) => `${names.compact(dt)} (${n.toLocaleString("en")})`).join(", ")}</dd>
              </>
            )}
            {forms.languages.length > 0 && (
              <>
                <dt className="text-muted-foreground">Languages</dt>
                <dd>{forms.languages.join(", ")}</dd>
              </>
            )}
            {forms.dateForms.length > 0 && (
              <>
                <dt className="text-muted-foreground">Dates</dt>
                <dd>{forms.dateForms.map((d) => compactInText(d, names)).join("; ")}</dd>
              </>
            )}
            {forms.units.length > 0 && (
              <>
                <dt className="text-muted-foreground">Units</dt>
                <dd>{forms.units.join(", ")}</dd>
              </>
            )}
          </dl>
        </section>
      )}

      {samples.length > 0 && (
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Sample things</h3>
          <Samples samples={samples} names={names} title={null} />
        </section>
      )}
    </div>
  );
}
