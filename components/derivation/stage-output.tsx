// The structured part of a stage card: QIR (table + graph + its constraints), entity candidates per mention with the
// chosen vertex, ranked predicates per relation, candidate queries (with their modifiers) marked with what ran, and
// executed queries as run.
// Stage outputs arrive as plain JSON (`unknown`), so each view checks the shape before it trusts it.
"use client";
import type { ExecutedQuery, RankedPredicate } from "@/lib/pipeline/chatty-kg/state";
import type { DerivationEvent, Stage } from "@/lib/pipeline/types";
import { PlayIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { candidateModifiers, entityCandidates, isCandidateList, isQir, predicateChoices, predicateRankings, qirConstraints, runOf, type queryRuns } from "./derivation-data";
import { useCorrector } from "./corrector";
import { PredicatePicker } from "./predicate-picker";
import { QirTripleRow } from "./qir-triple-editor";
import { EntityCandidates } from "./entity-candidates";
import { PredicateRankings } from "./predicate-rankings";
import { QirGraph } from "./qir-graph";
import { QueryLine } from "./query-line";
import { RETRIEVAL_TOOLS, RetrievalRounds } from "./retrieval-rounds";
import { isExamplesAndCards, SolvedExamples } from "./solved-examples";
import { AIMED_EXAMPLES_TOOL, readAimedReport } from "@/lib/pipeline/common/aimed-tool";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isPredicateMap(v: unknown): v is Record<string, RankedPredicate[]> {
  return isObj(v) && Object.values(v).every((x) => Array.isArray(x) && x.every((p) => isObj(p) && typeof p.iri === "string"));
}
function isTemplateOutput(v: unknown): v is { template: string; triplets: string[][]; slots: Record<string, string>; answerType: string } {
  return isObj(v) && typeof v.template === "string" && Array.isArray(v.triplets) && isObj(v.slots);
}
function isQueryList<T extends { sparql: string }>(v: unknown): v is T[] {
  return Array.isArray(v) && v.every((q) => isObj(q) && typeof q.sparql === "string");
}

export interface StageOutputProps {
  stage: Stage;
  /** the stage-end output; undefined while the stage runs */
  output: unknown;
  /** this stage's llm-call, tool-call, sparql and warning events */
  details: DerivationEvent[];
  /** every event of the attempt (query selection reads the candidates and rankings of earlier stages) */
  events: DerivationEvent[];
  /** what ran in the execution stage (to mark candidate queries) */
  runs: ReturnType<typeof queryRuns>;
  onOpenQuery: (query: string, language?: "sparql" | "sql") => void;
  onOpenEntity: (iri: string) => void;
}

/** Stages whose tool calls this view already renders (the card then skips their raw JSON). */
export const STRUCTURED_TOOLS: Partial<Record<Stage, string[]>> = {
  "entity-linking": ["label-search", "lexicon-search"],
  "relation-linking": ["rank-predicates"],
  // one-call's examples made for the question: said in a line of its solved examples (SolvedExamples)
  retrieval: [...RETRIEVAL_TOOLS, AIMED_EXAMPLES_TOOL],
};

export function StageOutput({ stage, output, details, events, runs, onOpenQuery, onOpenEntity }: StageOutputProps) {
  const qirCorrector = useCorrector("qir-triple");
  const candidateCorrector = useCorrector("candidate");
  const predicateCorrector = useCorrector("predicates");
  // entity and relation linking are shown from their tool calls while they stream, joined with the output at the end
  if (stage === "entity-linking") {
    const mentions = entityCandidates(details, output);
    if (mentions.length > 0) return <EntityCandidates mentions={mentions} onOpenEntity={onOpenEntity} />;
  }
  if (stage === "relation-linking") {
    const rankings = predicateRankings(details);
    const final = isPredicateMap(output) ? output : null;
    if (final || rankings.length > 0) return <PredicateRankings final={final} rankings={rankings} />;
  }
  if (stage === "retrieval" && isExamplesAndCards(output)) {
    const aimed = details.find((e) => e.type === "tool-call" && e.tool === AIMED_EXAMPLES_TOOL);
    const report = aimed?.type === "tool-call" ? readAimedReport(aimed.input, aimed.output) : undefined;
    return <SolvedExamples output={output} made={report && aimed?.type === "tool-call" ? { ...report, ms: aimed.ms } : undefined} onOpenQuery={onOpenQuery} />;
  }
  if (stage === "retrieval") return <RetrievalRounds details={details} onOpenQuery={onOpenQuery} />;
  if (output === undefined || output === null) return null;

  if (stage === "qir" && isQir(output)) {
    const constraints = qirConstraints(output);
    return (
      <div className="flex flex-col gap-2">
        <p className="text-xs text-muted-foreground">
          {output.questionType} question{output.target && <> · asks for <code>{output.target}</code></>}
        </p>
        <div className="flex flex-wrap items-start gap-3">
          <table className="min-w-40 flex-1 text-xs" data-testid="qir-table">
            <thead className="text-left text-muted-foreground">
              <tr>
                <th className="font-medium">subject</th>
                <th className="font-medium">relation</th>
                <th className="font-medium">object</th>
              </tr>
            </thead>
            <tbody className="font-mono">
              {output.triples.map((t, i) => (
                <QirTripleRow key={`${i}-${t.subject}-${t.relation}-${t.object}`} triple={t} index={i} corrector={qirCorrector} />
              ))}
            </tbody>
          </table>
          <QirGraph qir={output} />
        </div>
        {constraints.length > 0 && (
          <ul className="flex flex-wrap gap-1 text-xs" data-testid="qir-constraints" aria-label="Constraints">
            {constraints.map((c) => (
              <li key={c}>
                <Badge variant="outline" className="font-mono font-normal">
                  {c}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  // a strategy that writes a SPARQL template (Triad's G-agent): its triplets and the template with slots
  if (stage === "qir" && isTemplateOutput(output)) {
    return (
      <div className="flex flex-col gap-2" data-testid="template-output">
        <p className="text-xs text-muted-foreground">
          {output.answerType} question · slots: {Object.entries(output.slots).map(([slot, words]) => `<${slot}> = "${words}"`).join(", ")}
        </p>
        {output.triplets.length > 0 && (
          <table className="text-xs" data-testid="template-triplets">
            <tbody className="font-mono">
              {output.triplets.map((t, i) => (
                <tr key={i} className="border-t first:border-0">
                  <td className="py-0.5 pr-2">{t[0]}</td>
                  <td className="py-0.5 pr-2 text-primary">{t[1]}</td>
                  <td className="py-0.5">{t[2]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <pre className="max-h-48 overflow-auto rounded bg-muted p-1.5 text-xs whitespace-pre-wrap" data-testid="template-sparql">
          {output.template}
        </pre>
      </div>
    );
  }

  if (stage === "query-generation" && isCandidateList(output)) {
    const ran = output.filter((q) => runOf(q, runs)).length;
    return (
      <div className="flex flex-col gap-1" data-testid="candidate-queries">
        {runs.byId.size + runs.byQuery.size > 0 && (
          <p className="text-xs text-muted-foreground" data-testid="candidates-ran">
            {ran} of {output.length} ran
          </p>
        )}
        <ul className="flex flex-col gap-1">
          {output.map((q) => {
            const run = runOf(q, runs);
            return (
              <li key={q.id} data-testid="candidate-query" data-ran={run ? "true" : "false"} className={run ? undefined : "opacity-75"}>
                <QueryLine
                  query={q.sparql}
                  meta={`#${q.id}${q.kind ? ` ${q.kind}` : ""}${typeof q.score === "number" ? ` · score ${q.score.toFixed(3)}` : ""}${candidateModifiers(q).length ? ` · ${candidateModifiers(q).join("; ")}` : ""}`}
                  badge={
                    <>
                      {run ? (
                        <Badge variant={run.error ? "destructive" : run.rows > 0 ? "success" : "muted"}>
                          {run.error ? "ran · error" : `ran · ${run.rows} row${run.rows === 1 ? "" : "s"}`}
                        </Badge>
                      ) : (
                        <Badge variant="outline">not run</Badge>
                      )}
                      {candidateCorrector && (
                        <Button
                          size="sm"
                          variant="outline"
                          className="h-5 px-1.5 text-[11px]"
                          disabled={candidateCorrector.disabled}
                          onClick={(e) => {
                            e.preventDefault(); // inside the <summary>: do not toggle the query open
                            candidateCorrector.rerun({ kind: "candidate", id: q.id });
                          }}
                          aria-label={`Run only candidate query #${q.id} and re-run from here`}
                          data-testid="run-candidate"
                        >
                          <PlayIcon className="size-3" /> Run
                        </Button>
                      )}
                    </>
                  }
                  onOpen={onOpenQuery}
                />
              </li>
            );
          })}
        </ul>
      </div>
    );
  }

  if (stage === "query-selection" && Array.isArray(output)) {
    const choices = predicateCorrector ? predicateChoices(events) : [];
    if (predicateCorrector && choices.length > 0) return <PredicatePicker key={output.join(" ")} choices={choices} corrector={predicateCorrector} />;
    return <p className="font-mono text-xs break-all">{output.map(String).join(", ") || "none"}</p>;
  }

  if (stage === "execution" && isQueryList<ExecutedQuery>(output)) {
    return (
      <ul className="flex flex-col gap-1" data-testid="executed-queries">
        {output.map((q) => (
          <li key={q.id}>
            <QueryLine query={q.sparql} meta={`#${q.id} · ${q.rows} rows · ${Math.round(q.ms)} ms`} error={q.error} onOpen={onOpenQuery} />
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
