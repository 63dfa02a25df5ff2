// RAGONITE's retrieval stage: per round, the SQL the agent ran (rows or error; opens in the query panel as SQL) and
// the fact searches with the passages they found. Read from the stage's tool-call events, so it fills in live.
"use client";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { Badge } from "@/components/ui/badge";
import { QueryLine } from "./query-line";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export const RETRIEVAL_TOOLS = ["sql", "search_facts"];

interface SqlStep {
  kind: "sql";
  round: number;
  id: string;
  sql: string;
  rows?: number;
  ms?: number;
  truncated?: boolean;
  error?: string;
}
interface SearchStep {
  kind: "search";
  round: number;
  query: string;
  automatic: boolean;
  mode?: string;
  hits: { id: string; label: string; text: string }[];
}
export type RetrievalStep = SqlStep | SearchStep;

/** The retrieval steps in the order they ran, from the stage's tool-call events. */
export function retrievalSteps(details: DerivationEvent[]): RetrievalStep[] {
  return details.flatMap((e): RetrievalStep[] => {
    if (e.type !== "tool-call" || !isObj(e.input)) return [];
    const round = num(e.input.round) ?? 0;
    const out = isObj(e.output) ? e.output : {};
    if (e.tool === "sql" && typeof e.input.sql === "string") {
      return [{ kind: "sql", round, id: str(e.input.id) ?? "", sql: e.input.sql, rows: num(out.rows), ms: num(out.ms), truncated: out.truncated === true, error: e.error }];
    }
    if (e.tool === "search_facts" && typeof e.input.query === "string") {
      const hits = Array.isArray(out.hits)
        ? out.hits.flatMap((h) => (isObj(h) && typeof h.id === "string" ? [{ id: h.id, label: str(h.label) ?? "", text: str(h.text) ?? "" }] : []))
        : [];
      return [{ kind: "search", round, query: e.input.query, automatic: e.input.automatic === true, mode: str(out.mode), hits }];
    }
    return [];
  });
}

export function RetrievalRounds({ details, onOpenQuery }: { details: DerivationEvent[]; onOpenQuery: (q: string, language?: "sparql" | "sql") => void }) {
  const steps = retrievalSteps(details);
  if (steps.length === 0) return null;
  const rounds = [...new Set(steps.map((s) => s.round))].sort((a, b) => a - b);
  return (
    <ol className="flex flex-col gap-2" data-testid="retrieval-rounds">
      {rounds.map((r) => (
        <li key={r} data-testid="retrieval-round" className="flex flex-col gap-1">
          <p className="text-xs font-medium text-muted-foreground">Round {r}</p>
          {steps
            .filter((s) => s.round === r)
            .map((s, i) =>
              s.kind === "sql" ? (
                <QueryLine
                  key={i}
                  query={s.sql}
                  meta={`${s.id} · SQL${s.error ? "" : ` · ${s.rows ?? 0}${s.truncated ? "+" : ""} rows · ${Math.round(s.ms ?? 0)} ms`}`}
                  error={s.error}
                  openLabel="Open SQL in query panel"
                  onOpen={(q) => onOpenQuery(q, "sql")}
                />
              ) : (
                <details key={i} className="rounded border bg-background text-xs" data-testid="fact-search">
                  <summary className="flex cursor-pointer list-none items-center gap-2 px-2 py-1">
                    <span>search “{s.query}”</span>
                    {s.automatic && <Badge variant="outline">run for the agent</Badge>}
                    <span className="ml-auto text-muted-foreground">
                      {s.hits.length} passages{s.mode ? ` · ${s.mode}` : ""}
                    </span>
                  </summary>
                  <ul className="flex flex-col gap-1 border-t p-2">
                    {s.hits.map((h) => (
                      <li key={h.id}>
                        <span className="font-mono text-muted-foreground">[{h.id}]</span> {h.text}
                      </li>
                    ))}
                  </ul>
                </details>
              ),
            )}
        </li>
      ))}
    </ol>
  );
}
