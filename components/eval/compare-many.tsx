// Any number of runs side by side: headline metrics (best marked), F1 by question type and by gold query shape (tables
// and charts), and F1 per question. KG-grounded scores; answers from the model's own knowledge are counted apart.
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { BarChart } from "@/components/eval/charts/bar-chart";
import { formatValue } from "@/components/eval/charts/format";
import { NOT_FROM_KG } from "@/lib/pipeline/answer-format";
import type { ManyComparison, ManyRow } from "@/lib/eval/view-model-compare";
import { formatScore } from "@/lib/eval/view-model";
import { runHref } from "@/lib/eval/view-model-list";
import { cn } from "@/lib/utils";

const RUN_TAGS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const tag = (i: number) => RUN_TAGS[i] ?? String(i + 1);

function RunHeaders({ c }: { c: ManyComparison }) {
  return (
    <>
      {c.runs.map((r, i) => (
        <th key={r.ref} scope="col" className="px-3 py-2 text-right font-medium" title={r.runId}>
          {tag(i)} · {r.strategy}
        </th>
      ))}
    </>
  );
}

function ScoreCells({ values, best, format = "score", testId }: { values: (number | null)[]; best: number[]; format?: "score" | "ms" | "count"; testId?: string }) {
  return (
    <>
      {values.map((v, i) => (
        <td key={i} data-testid={testId} className={cn("px-3 py-1.5 text-right tabular-nums", best.includes(i) && "font-semibold text-success")}>
          {formatValue(v, format)}
          {best.includes(i) && <span className="sr-only"> (best)</span>}
        </td>
      ))}
    </>
  );
}

function BreakdownTable({ rows, c, label, testId }: { rows: ManyRow[]; c: ManyComparison; label: string; testId: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border bg-card">
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">{label}</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">n</th>
            <RunHeaders c={c} />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-b last:border-0" data-testid={`${testId}-row`} data-key={r.key}>
              <th scope="row" className="px-3 py-1.5 text-left font-normal">{r.key}</th>
              <td className="px-3 py-1.5 text-right tabular-nums text-muted-foreground">{Math.max(...r.n)}</td>
              <ScoreCells values={r.values} best={r.best} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CompareMany({ c }: { c: ManyComparison }) {
  const datasets = new Set(c.runs.map((r) => r.dataset));
  const series = (rows: ManyRow[]) => c.runs.map((r, i) => ({ label: `${tag(i)} · ${r.label}`, values: rows.map((x) => x.values[i]) }));
  return (
    <>
      <h1 className="text-xl font-semibold tracking-tight">Compare {c.runs.length} runs</h1>
      <ol className="grid gap-2 md:grid-cols-2 xl:grid-cols-3" data-testid="compared-runs">
        {c.runs.map((r, i) => (
          <li key={r.ref} className="rounded-lg border bg-card p-3 text-sm" data-testid="compared-run">
            <div className="flex items-center gap-2">
              <Badge variant={i === 0 ? "default" : "warning"}>{tag(i)}</Badge>
              <Link href={runHref(r.ref)} className="font-medium break-all text-primary underline-offset-4 hover:underline">
                {r.runId}
              </Link>
            </div>
            <div className="mt-1 text-xs text-muted-foreground">
              {r.dataset} · {r.strategy} · {r.llm} · {r.questions} questions
            </div>
          </li>
        ))}
      </ol>
      {datasets.size > 1 && (
        <p role="note" className="rounded-md border border-warning/60 bg-warning/10 px-3 py-2 text-sm">
          The runs used different datasets ({[...datasets].join(", ")}): only questions with the same id line up.
        </p>
      )}

      <section aria-labelledby="many-metrics-heading" className="flex flex-col gap-2">
        <h2 id="many-metrics-heading" className="text-base font-semibold">
          Metrics <span className="text-sm font-normal text-muted-foreground">({c.mode} mode; best in green; answers {NOT_FROM_KG} count as unanswered)</span>
        </h2>
        <div className="overflow-x-auto rounded-lg border bg-card">
          <table className="w-full text-sm" data-testid="many-metrics">
            <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Metric</th>
                <RunHeaders c={c} />
              </tr>
            </thead>
            <tbody>
              {c.metrics.map((m) => (
                <tr key={m.key} className="border-b last:border-0" data-testid="many-metric" data-metric={m.key}>
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">{m.label}</th>
                  <ScoreCells values={m.values} best={m.best} format={m.format} testId="many-metric-value" />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="many-type-heading" className="flex flex-col gap-2">
        <h2 id="many-type-heading" className="text-base font-semibold">F1 by question type</h2>
        <BreakdownTable rows={c.byType} c={c} label="Type" testId="many-by-type" />
        <BarChart testId="chart-many-f1-by-type" title="F1 by question type" description="Macro F1 over the scored questions of each type, per run." categories={c.byType.map((t) => t.key)} series={series(c.byType)} format="score" max={1} yLabel="F1" className="lg:max-w-4xl" />
      </section>

      <section aria-labelledby="many-shape-heading" className="flex flex-col gap-2">
        <h2 id="many-shape-heading" className="text-base font-semibold">F1 by gold query shape</h2>
        {c.byShape.length === 0 ? (
          <p className="text-sm text-muted-foreground">These runs carry no gold SPARQL to read a shape from.</p>
        ) : (
          <>
            <BreakdownTable rows={c.byShape} c={c} label="Gold shape" testId="many-by-shape" />
            <BarChart testId="chart-many-f1-by-shape" title="F1 by gold query shape" description="Macro F1 over the scored questions whose gold query has this hardest feature, per run." categories={c.byShape.map((t) => t.key)} series={series(c.byShape)} format="score" max={1} yLabel="F1" className="lg:max-w-4xl" />
          </>
        )}
      </section>

      <section aria-labelledby="many-questions-heading" className="flex flex-col gap-2">
        <h2 id="many-questions-heading" className="text-base font-semibold">F1 per question</h2>
        <div className="overflow-x-auto rounded-lg border bg-card">
          <table className="w-full text-sm" data-testid="many-questions">
            <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Id</th>
                <th scope="col" className="px-3 py-2 font-medium">Question</th>
                <th scope="col" className="px-3 py-2 font-medium">Type</th>
                <th scope="col" className="px-3 py-2 font-medium">Shape</th>
                <RunHeaders c={c} />
              </tr>
            </thead>
            <tbody>
              {c.questions.map((q) => (
                <tr key={q.id} className="border-b align-top last:border-0" data-testid="many-question">
                  <td className="px-3 py-1.5 font-mono text-xs whitespace-nowrap">{q.id}</td>
                  <td className="px-3 py-1.5">{q.question}</td>
                  <td className="px-3 py-1.5">{q.type}</td>
                  <td className="px-3 py-1.5">{q.shape ?? "—"}</td>
                  {q.f1.map((v, i) => (
                    <td key={i} className={cn("px-3 py-1.5 text-right tabular-nums", q.best.includes(i) && "font-semibold text-success")}>
                      {formatScore(v)}
                      {q.fromModel[i] && (
                        <Badge variant="warning" className="ml-1" title={`answered from the model's own knowledge, ${NOT_FROM_KG}`}>
                          {NOT_FROM_KG}
                        </Badge>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
