// The overview's classes: each with its instance count; opened, its predicates (value types, how many instances have
// them, example values), the classes around it and a few instances. Every name can go to the question box or the editor.
"use client";
import type { KgOnboardingProfile, ProfileClass, ProfilePredicate, SampleEntity } from "@/lib/kg/onboarding/types";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { InsertButtons } from "./insert-buttons";
import { shapeText, termText, valueTypeText, type Names } from "./names";
import { classQuery, entityQuery, predicateQuery } from "./snippets";

const pct = (x: number) => `${Math.round(x * 100)} %`;

export function ClassesTab({ profile, names }: { profile: KgOnboardingProfile; names: Names }) {
  if (profile.classes.length === 0 && !profile.untyped) return <p className="p-4 text-sm text-muted-foreground">No classes and no typed things were found in this KG.</p>;
  return (
    <div className="flex flex-col gap-2 p-3" data-testid="overview-classes">
      {profile.classes.length === 0 && <p className="text-sm text-muted-foreground">This KG states no classes (no rdf:type): what its things have is listed below.</p>}
      {profile.classes.map((c, i) => (
        <ClassCard key={c.iri} cls={c} names={names} open={i === 0} />
      ))}
      {profile.untyped && (
        <details className="group rounded-md border bg-card" open={profile.classes.length === 0} data-testid="overview-untyped">
          <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2 [&::-webkit-details-marker]:hidden">
            <span className="text-muted-foreground transition-transform group-open:rotate-90" aria-hidden>
              ›
            </span>
            <span className="flex-1 font-medium">Things without a class</span>
            <Badge variant="muted">{profile.untyped.count.toLocaleString("en")}</Badge>
          </summary>
          <div className="flex flex-col gap-3 border-t px-3 py-2">
            <PredicateTable predicates={profile.untyped.predicates} names={names} />
            <Samples samples={profile.untyped.samples} names={names} />
          </div>
        </details>
      )}
    </div>
  );
}

function ClassCard({ cls, names, open }: { cls: ProfileClass; names: Names; open: boolean }) {
  return (
    <details className="group rounded-md border bg-card" open={open} data-testid="overview-class" data-iri={cls.iri}>
      <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2 [&::-webkit-details-marker]:hidden">
        <span className="text-muted-foreground transition-transform group-open:rotate-90" aria-hidden>
          ›
        </span>
        <span className="min-w-0 flex-1">
          <span className="font-medium">{cls.name}</span>{" "}
          <span className="block font-mono text-xs [overflow-wrap:anywhere] text-muted-foreground sm:inline">{names.compact(cls.iri)}</span>
        </span>
        <Badge variant="muted" title={cls.countSampled ? "counted in a sample: at least this many" : undefined} data-testid="overview-class-count">
          {cls.countSampled ? "≥ " : ""}
          {cls.count.toLocaleString("en")} {cls.count === 1 ? "instance" : "instances"}
        </Badge>
        <InsertButtons label={cls.name} question={cls.name} sparql={classQuery(cls.iri, names.prefixes)} />
      </summary>
      <div className="flex flex-col gap-3 border-t px-3 py-2 text-sm">
        <Related cls={cls} names={names} />
        <PredicateTable predicates={cls.predicates} names={names} classIri={cls.iri} />
        <Samples samples={cls.samples} names={names} />
      </div>
    </details>
  );
}

function Related({ cls, names }: { cls: ProfileClass; names: Names }) {
  const parts: [string, string[]][] = [
    ["Subclass of", cls.superClasses],
    ["Subclasses", cls.subClasses],
  ];
  const incoming = cls.incoming.map(([p, c]) => `${names.name(c)} → ${names.name(p)}`);
  if (!parts.some(([, l]) => l.length) && !incoming.length && !cls.idShape) return null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
      {parts.map(([k, list]) =>
        list.length ? (
          <div key={k} className="contents">
            <dt className="text-muted-foreground">{k}</dt>
            <dd>{list.map((c) => names.name(c)).join(", ")}</dd>
          </div>
        ) : null,
      )}
      {incoming.length > 0 && (
        <>
          <dt className="text-muted-foreground">Reached from</dt>
          <dd>{incoming.join(", ")}</dd>
        </>
      )}
      {cls.idShape && (
        <>
          <dt className="text-muted-foreground">Ids</dt>
          <dd className="font-mono break-all" title={cls.idShape}>{shapeText(cls.idShape, names)}</dd>
        </>
      )}
    </dl>
  );
}

const PREDICATE_COLS = "sm:grid-cols-[minmax(9rem,15rem)_minmax(5rem,9rem)_5.5rem_minmax(0,1fr)_auto]";

/** A table on a wide screen; on a phone each predicate is its name with a line of details under it. */
export function PredicateTable({ predicates, names, classIri }: { predicates: ProfilePredicate[]; names: Names; classIri?: string }) {
  if (predicates.length === 0) return <p className="text-xs text-muted-foreground">No predicates seen.</p>;
  return (
    <div className="text-xs" data-testid="overview-predicates" role="table" aria-label="Predicates">
      <div className={cn("hidden gap-x-3 pb-1 text-muted-foreground sm:grid", PREDICATE_COLS)} role="row">
        <span role="columnheader">Predicate</span>
        <span role="columnheader">Values</span>
        <span role="columnheader" title="share of the instances that have it">
          Has it
        </span>
        <span role="columnheader">Examples</span>
        <span role="columnheader" className="sr-only">
          Actions
        </span>
      </div>
      {predicates.map((p) => (
        <div key={p.iri} role="row" className={cn("grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-0.5 border-t py-1.5", PREDICATE_COLS)} data-testid="overview-predicate" data-iri={p.iri}>
          <div role="cell" className="min-w-0">
            <div className="font-medium">{p.name}</div>
            <div className="font-mono [overflow-wrap:anywhere] text-muted-foreground">{names.compact(p.iri)}</div>
          </div>
          <div role="cell" className="row-span-2 self-start sm:order-last sm:row-span-1">
            <InsertButtons label={p.name} question={p.name} sparql={predicateQuery(p.iri, names.prefixes, classIri)} />
          </div>
          <div className="flex min-w-0 flex-wrap gap-x-1.5 text-muted-foreground sm:contents sm:text-foreground">
            <span role="cell">{valueTypeText(p, names)}</span>
            <span aria-hidden className="sm:hidden">
              ·
            </span>
            <span role="cell" className="whitespace-nowrap">
              {pct(p.coverage)}
              <span className="sm:hidden"> have it</span>
              {p.perSubject > 1.05 ? <span className="text-muted-foreground"> · {p.perSubject.toFixed(1)} each</span> : null}
            </span>
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
  );
}

export function Samples({ samples, names, title = "Some of them" }: { samples: SampleEntity[]; names: Names; title?: string | null }) {
  if (samples.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      {title && <span className="text-xs text-muted-foreground">{title}</span>}
      <ul className="flex flex-wrap gap-1.5">
        {samples.map((s) => {
          const label = s.name ?? names.compact(s.iri);
          return (
            <li key={s.iri} className="inline-flex items-center gap-0.5 rounded-full border py-0.5 pr-1 pl-2 text-xs" data-testid="overview-sample">
              <span className={s.name ? "" : "font-mono"}>{label}</span>
              <InsertButtons label={label} question={label} sparql={entityQuery(s.iri, names.prefixes)} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
