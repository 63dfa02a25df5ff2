// One evaluation run: headline metrics, F1 per question type, stage latency per type, LLM calls and SPARQL queries
// per question, failure reasons, and the per-question table. Another session's imported run is a 404.
import type { Metadata } from "next";
import Link from "next/link";
import { ArrowLeftIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { BarChart } from "@/components/eval/charts/bar-chart";
import { StackedBarChart } from "@/components/eval/charts/stacked-bar-chart";
import { FixtureNote } from "@/components/eval/fixture-note";
import { LanguageTable } from "@/components/eval/language-table";
import { MetricCard } from "@/components/eval/metric-card";
import { QuestionTable } from "@/components/eval/question-table";
import { SuiteTables } from "@/components/eval/suite-tables";
import {
  countHistogram,
  f1ByType,
  formatMs,
  formatScore,
  pickMode,
  questionRows,
  questionsOfMode,
  STAGE_GROUP_LABELS,
  STAGE_GROUP_ORDER,
  stageMsByType,
} from "@/lib/eval/view-model";
import { poolLabelOf, runHref } from "@/lib/eval/view-model-list";
import { SCORING_LABELS } from "@/lib/eval/scoring";
import { isFixtureRun } from "@/lib/eval/fixture-run";
import { oracleLabelOf } from "@/lib/eval/oracle-grounding";
import { oracleCountsLine } from "@/lib/eval/report";
import { loadRunOr404 } from "../load-run";

export const metadata: Metadata = { title: "Evaluation run · Chatty-KG" };

export default async function EvalRunPage({ params, searchParams }: { params: Promise<{ runId: string }>; searchParams: Promise<{ mode?: string }> }) {
  const { runId: ref } = await params;
  const { mode: requestedMode } = await searchParams;
  const { entry, result } = await loadRunOr404(ref);

  if (!result || entry.status !== "ok") {
    return (
      <>
        <BackLink />
        <h1 className="text-xl font-semibold tracking-tight break-all">{ref}</h1>
        <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm" data-testid="run-problem">
          {entry.status === "ok" ? "" : entry.reason}
        </p>
      </>
    );
  }

  const mode = pickMode(result, requestedMode);
  const summary = result.summary.modes.find((m) => m.mode === mode);
  const records = questionsOfMode(result, mode);
  const types = f1ByType(records);
  const stages = stageMsByType(records);
  const llmHist = countHistogram(records.map((r) => r.trace.llmCalls));
  const queryHist = countHistogram(records.map((r) => r.trace.queries));
  const failures = Object.entries(summary?.failures ?? {}).sort((a, b) => b[1] - a[1]);
  const scoring = result.config.scoring ?? "items";
  const cut = records.filter((r) => r.rowLimit).map((r) => r.id);
  const oracle = oracleLabelOf(result.llm);

  return (
    <>
      <BackLink />
      <div className="flex flex-col gap-1">
        <h1 className="text-xl font-semibold tracking-tight break-all" data-testid="run-title">
          {result.runId}
        </h1>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
          <span>
            dataset <span className="text-foreground">{result.config.dataset}</span>
          </span>
          <span>
            strategy <span className="text-foreground">{result.strategy.label}</span>
          </span>
          <span>
            LLM <span className="text-foreground">{`${result.llm.provider} · ${result.llm.model}`}</span>
          </span>
          <span>
            KG <span className="text-foreground">{result.kg.name}</span>
          </span>
          <span title={SCORING_LABELS[scoring]} data-testid="run-scoring">
            scoring <span className="text-foreground">{scoring === "text2sparql" ? `TEXT2SPARQL official (${result.config.valueComparison ?? "exact"} values)` : "item metrics"}</span>
          </span>
          {poolLabelOf(result.config.experience) && (
            <span data-testid="run-pool">
              examples shown <span className="text-foreground">{poolLabelOf(result.config.experience)}</span>
            </span>
          )}
          {result.config.queries && (
            <span data-testid="run-replay">
              replay of <span className="text-foreground break-all">{result.config.queries.file}</span> ({result.config.queries.count} queries, run as given)
            </span>
          )}
          <span>{new Date(result.startedAt).toISOString().replace("T", " ").slice(0, 16)} UTC</span>
          <Badge variant={entry.owner === "session" ? "default" : "muted"}>{entry.owner === "session" ? "imported by you" : "CLI run"}</Badge>
          {oracle && (
            <Badge variant={oracle.includes("not a pipeline ceiling") ? "warning" : "outline"} data-testid="run-oracle">
              {oracle}
            </Badge>
          )}
          {!result.complete && <Badge variant="warning">incomplete: interrupted run</Badge>}
          {cut.length > 0 && <Badge variant="warning">{`row limit ${result.config.pipeline.rowLimit} reached: ${cut.join(", ")}`}</Badge>}
        </p>
      </div>
      {isFixtureRun(result) && <FixtureNote />}

      {result.summary.modes.length > 1 && (
        <nav aria-label="Run mode" className="flex gap-1">
          {result.summary.modes.map((m) => (
            <Link
              key={m.mode}
              href={`${runHref(ref)}?mode=${m.mode}`}
              aria-current={m.mode === mode ? "page" : undefined}
              className="rounded-md px-3 py-1 text-sm aria-[current=page]:bg-muted aria-[current=page]:font-medium hover:bg-accent"
            >
              {m.mode}
            </Link>
          ))}
          {result.summary.retention !== null && <span className="ml-3 self-center text-sm text-muted-foreground">retention {(result.summary.retention * 100).toFixed(1)}%</span>}
        </nav>
      )}

      {summary?.oracle && (
        <p role="note" className="rounded-md border px-3 py-2 text-sm" data-testid="run-oracle-counts">
          {oracleCountsLine(summary.oracle)}
        </p>
      )}

      {summary && (
        <section aria-label="Headline metrics" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <MetricCard label="Macro F1 (all)" value={formatScore(summary.macro.all.f1)} hint={`${summary.scored} scored questions; unanswered count as 0${oracle ? ` · ${oracle}` : ""}`} testId="macro-f1-all" strong />
          <MetricCard label="Macro F1 (answered only)" value={formatScore(summary.macro.answeredOnly.f1)} hint={`${summary.answered} answered${oracle ? ` · ${oracle}` : ""}`} testId="macro-f1-answered" strong />
          <MetricCard label="Precision" value={formatScore(summary.macro.all.precision)} />
          <MetricCard label="Recall" value={formatScore(summary.macro.all.recall)} />
          {summary.macro.all.ndcg !== undefined ? (
            <MetricCard label="ndcg / set_F_ndcg" value={`${formatScore(summary.macro.all.ndcg)} / ${formatScore(summary.macro.all.f1Ndcg ?? 0)}`} hint="official: ndcg where the order matters" />
          ) : (
            <MetricCard label="P@1 / MRR" value={`${formatScore(summary.macro.all.p1)} / ${formatScore(summary.macro.all.mrr)}`} />
          )}
          <MetricCard label="Mean time" value={formatMs(summary.cost.meanMs)} hint={`total ${formatMs(summary.cost.totalMs)}`} />
          <MetricCard label="Mean LLM calls" value={summary.cost.meanLlmCalls.toFixed(1)} hint={`${Math.round(summary.cost.meanTokensIn)} tokens in / ${Math.round(summary.cost.meanTokensOut)} out`} />
          <MetricCard label="Mean queries" value={summary.cost.meanQueries.toFixed(1)} hint={summary.cost.cost !== null ? `cost $${summary.cost.cost.toFixed(4)}` : undefined} />
        </section>
      )}

      {summary && <SuiteTables result={result} summary={summary} />}
      {summary && <LanguageTable result={result} summary={summary} />}

      <div className="grid gap-4 lg:grid-cols-2">
        <BarChart
          testId="chart-f1-by-type"
          title="F1 by question type"
          description="Macro F1 over all scored questions of the type, and over the answered ones only."
          categories={types.map((t) => `${t.type} (${t.n})`)}
          series={[
            { label: "all questions", values: types.map((t) => t.f1All) },
            { label: "answered only", values: types.map((t) => (t.answered ? t.f1Answered : null)) },
          ]}
          format="score"
          max={1}
          yLabel="F1"
        />
        <StackedBarChart
          testId="chart-stage-latency"
          title="Time per stage, by question type"
          description="Mean milliseconds per question in each stage group."
          categories={stages.map((s) => `${s.type} (${s.n})`)}
          segments={STAGE_GROUP_ORDER.map((g) => ({ label: STAGE_GROUP_LABELS[g], values: stages.map((s) => s.ms[g]) }))}
          format="ms"
        />
        <BarChart
          testId="chart-llm-calls"
          title="LLM calls per question"
          description="How many questions needed this many LLM calls."
          categories={llmHist.map((b) => b.label)}
          series={[{ label: "questions", values: llmHist.map((b) => b.count) }]}
          format="count"
          yLabel="questions"
        />
        <BarChart
          testId="chart-queries"
          title="SPARQL queries per question"
          description="How many questions ran this many queries."
          categories={queryHist.map((b) => b.label)}
          series={[{ label: "questions", values: queryHist.map((b) => b.count) }]}
          format="count"
          yLabel="questions"
        />
      </div>

      {failures.length > 0 && (
        <section aria-labelledby="failures-heading" className="flex flex-col gap-2">
          <h2 id="failures-heading" className="text-base font-semibold">
            Why questions were not fully right
          </h2>
          <ul className="flex flex-wrap gap-2 text-sm" data-testid="failure-counts">
            {failures.map(([reason, n]) => (
              <li key={reason}>
                <Badge variant="outline">
                  {reason} <span className="tabular-nums">{n}</span>
                </Badge>
              </li>
            ))}
          </ul>
        </section>
      )}

      {result.comparison && (
        <section aria-labelledby="comparison-heading" className="flex flex-col gap-2" data-testid="official-comparison">
          <h2 id="comparison-heading" className="text-base font-semibold">
            Against the published evaluation
          </h2>
          <p className="text-sm">
            Per-question F1 equal on <span className="font-semibold tabular-nums">{`${result.comparison.equal}/${result.comparison.compared}`}</span>
            {result.comparison.officialAverage && ` · official average F1 ${formatScore(result.comparison.officialAverage.f1)}, this run ${formatScore(summary?.macro.all.f1 ?? 0)}`}
            <span className="block text-xs break-all text-muted-foreground">{result.comparison.file}</span>
          </p>
          {result.comparison.differing.length > 0 && (
            <ul className="text-sm">
              {result.comparison.differing.map((d) => (
                <li key={d.id} className="tabular-nums">
                  {d.id}: official F1 {d.official.f1.toFixed(3)}, this run {d.ours ? d.ours.f1.toFixed(3) : "not scored"}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <QuestionTable rows={questionRows(records)} />
    </>
  );
}

function BackLink() {
  return (
    <Link href="/eval" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeftIcon className="size-4" /> All runs
    </Link>
  );
}
