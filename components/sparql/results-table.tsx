// SPARQL results as a table: IRIs as labelled entity links, literals with their language; ASK as yes/no; graphs as triples.
"use client";
import type { QueryResult, Term } from "@/lib/kg/types";
import { EntityLink } from "@/components/chat/entity-link";

function TermCell({ term, labels, onOpenEntity }: { term?: Term; labels: Record<string, string>; onOpenEntity: (iri: string) => void }) {
  if (!term) return <span className="text-muted-foreground">—</span>;
  if (term.type === "uri") return <EntityLink iri={term.value} label={labels[term.value]} onOpen={onOpenEntity} />;
  if (term.type === "bnode") return <span className="font-mono text-muted-foreground">_:{term.value}</span>;
  return (
    <span title={term.datatype}>
      {term.value}
      {term["xml:lang"] && <span className="ml-1 text-xs text-muted-foreground">@{term["xml:lang"]}</span>}
    </span>
  );
}

export function ResultsTable({ result, labels, onOpenEntity }: { result: QueryResult; labels: Record<string, string>; onOpenEntity: (iri: string) => void }) {
  if (result.kind === "ASK")
    return (
      <p data-testid="sparql-results" className="p-2 text-lg font-semibold">
        {result.boolean ? "Yes (true)" : "No (false)"}
      </p>
    );
  const [vars, rows]: [string[], Record<string, Term | undefined>[]] =
    result.kind === "SELECT"
      ? [result.head.vars, result.results.bindings]
      : [["subject", "predicate", "object"], result.triples.map((t) => ({ subject: t.subject, predicate: t.predicate, object: t.object }))];
  return (
    <div className="overflow-auto" data-testid="sparql-results">
      <p className="px-1 pb-1 text-xs text-muted-foreground" data-testid="sparql-row-count">
        {rows.length} {rows.length === 1 ? "row" : "rows"}
      </p>
      <table className="w-full text-xs">
        <thead className="sticky top-0 bg-muted text-left">
          <tr>
            {vars.map((v) => (
              <th key={v} className="px-2 py-1 font-medium">
                ?{v}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-t align-top">
              {vars.map((v) => (
                <td key={v} className="px-2 py-1">
                  <TermCell term={r[v]} labels={labels} onOpenEntity={onOpenEntity} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
