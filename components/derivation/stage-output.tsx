// The structured part of a stage card: QIR triples, linked vertices, ranked predicates, candidate and executed queries.
// Stage outputs arrive as plain JSON (`unknown`), so each view checks the shape before it trusts it.
"use client";
import type { CandidateQuery, ExecutedQuery, LinkedVertex, Qir, RankedPredicate } from "@/lib/pipeline/chatty-kg/state";
import type { Stage } from "@/lib/pipeline/types";
import { Badge } from "@/components/ui/badge";
import { EntityLink } from "@/components/chat/entity-link";
import { QueryLine } from "./query-line";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isQir(v: unknown): v is Qir {
  return isObj(v) && Array.isArray(v.triples);
}
function isVertexMap(v: unknown): v is Record<string, LinkedVertex> {
  return isObj(v) && Object.values(v).every((x) => isObj(x) && typeof x.iri === "string");
}
function isPredicateMap(v: unknown): v is Record<string, RankedPredicate[]> {
  return isObj(v) && Object.values(v).every((x) => Array.isArray(x) && x.every((p) => isObj(p) && typeof p.iri === "string"));
}
function isQueryList<T extends { sparql: string }>(v: unknown): v is T[] {
  return Array.isArray(v) && v.every((q) => isObj(q) && typeof q.sparql === "string");
}

export interface StageOutputProps {
  stage: Stage;
  output: unknown;
  onOpenQuery: (query: string) => void;
  onOpenEntity: (iri: string) => void;
}

export function StageOutput({ stage, output, onOpenQuery, onOpenEntity }: StageOutputProps) {
  if (output === undefined || output === null) return null;

  if (stage === "qir" && isQir(output)) {
    return (
      <div className="flex flex-col gap-1">
        <p className="text-xs text-muted-foreground">
          {output.questionType} question{output.target && <> · asks for <code>{output.target}</code></>}
        </p>
        <table className="w-full text-xs" data-testid="qir-table">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="font-medium">subject</th>
              <th className="font-medium">relation</th>
              <th className="font-medium">object</th>
            </tr>
          </thead>
          <tbody className="font-mono">
            {output.triples.map((t, i) => (
              <tr key={i} className="border-t">
                <td className="py-0.5 pr-2">{t.subject}</td>
                <td className="py-0.5 pr-2 text-primary">{t.relation}</td>
                <td className="py-0.5">{t.object}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  if (stage === "entity-linking" && isVertexMap(output)) {
    return (
      <ul className="flex flex-col gap-1 text-xs" data-testid="linked-vertices">
        {Object.values(output).map((v) => (
          <li key={v.mention} className="flex flex-wrap items-center gap-1.5">
            <span className="font-mono">&ldquo;{v.mention}&rdquo;</span>→
            <EntityLink iri={v.iri} label={v.label} onOpen={onOpenEntity} />
            <Badge variant="muted">{v.how === "llm" ? "chosen by LLM" : v.how === "exact" ? "exact label" : "only candidate"}</Badge>
            <span className="text-muted-foreground">{v.candidates} candidates</span>
          </li>
        ))}
      </ul>
    );
  }

  if (stage === "relation-linking" && isPredicateMap(output)) {
    return (
      <div className="flex flex-col gap-2 text-xs" data-testid="ranked-predicates">
        {Object.entries(output).map(([rel, preds]) => (
          <div key={rel}>
            <p className="font-medium">&ldquo;{rel}&rdquo;</p>
            <ol className="ml-4 list-decimal">
              {preds.map((p) => (
                <li key={`${p.iri}-${p.direction}-${p.vertex}`}>
                  <span title={p.iri}>{p.label}</span> <span className="text-muted-foreground">({p.direction})</span>{" "}
                  <span className="tabular-nums text-muted-foreground">{p.score.toFixed(3)}</span>
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
    );
  }

  if (stage === "query-generation" && isQueryList<CandidateQuery>(output)) {
    return (
      <ul className="flex flex-col gap-1" data-testid="candidate-queries">
        {output.map((q) => (
          <li key={q.id}>
            <QueryLine query={q.sparql} meta={`#${q.id} ${q.kind} · score ${q.score.toFixed(3)}`} onOpen={onOpenQuery} />
          </li>
        ))}
      </ul>
    );
  }

  if (stage === "query-selection" && Array.isArray(output)) {
    return <p className="font-mono text-xs break-all">{output.map(String).join(", ") || "none"}</p>;
  }

  if (stage === "execution" && isQueryList<ExecutedQuery>(output)) {
    return (
      <ul className="flex flex-col gap-1" data-testid="executed-queries">
        {output.map((q) => (
          <li key={q.id}>
            <QueryLine
              query={q.sparql}
              meta={`#${q.id} · ${q.rows} rows · ${Math.round(q.ms)} ms`}
              error={q.error}
              onOpen={onOpenQuery}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted-foreground">Output</summary>
      <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-1.5 whitespace-pre-wrap">{JSON.stringify(output, null, 2)}</pre>
    </details>
  );
}
