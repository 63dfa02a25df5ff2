// Runs side by side: two (?a=<ref>&b=<ref>) with metric deltas (B − A), per-type F1 and per-question wins and losses;
// any number (?run=<ref>&run=<ref>…) with metrics, F1 by question type and by gold shape, and F1 per question.
import type { Metadata } from "next";
import Link from "next/link";
import { ArrowLeftIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { BarChart } from "@/components/eval/charts/bar-chart";
import { formatValue } from "@/components/eval/charts/format";
import { CompareMany } from "@/components/eval/compare-many";
import { FixtureNote } from "@/components/eval/fixture-note";
import { compareRuns, formatDelta, formatScore, type QuestionOutcome } from "@/lib/eval/view-model";
import { compareMany } from "@/lib/eval/view-model-compare";
import { isFixtureRun } from "@/lib/eval/fixture-run";
import type { RunResult } from "@/lib/eval/result-schema";
import { runHref } from "@/lib/eval/view-model-list";
import { oracleLabelOf } from "@/lib/eval/oracle-grounding";
import { cn } from "@/lib/utils";
import { loadRunOr404 } from "../load-run";

export const metadata: Metadata = { title: "Compare runs · Chatty-KG" };

const OUTCOME: Record<QuestionOutcome["outcome"], { label: string; variant: "success" | "destructive" | "muted" | "outline" }> = {
  win: { label: "B better", variant: "success" },
  loss: { label: "A better", variant: "destructive" },
  tie: { label: "tie", variant: "muted" },
  "only-a": { label: "only in A", variant: "outline" },
  "only-b": { label: "only in B", variant: "outline" },
  "not-scored": { label: "not scored", variant: "outline" },
};

export default async function ComparePage({ searchParams }: { searchParams: Promise<{ a?: string; b?: string; mode?: string; run?: string | string[] }> }) {
  const { a: refA, b: refB, mode, run } = await searchParams;
  const many = [...new Set(run === undefined ? [] : Array.isArray(run) ? run : [run])];
  if (many.length > 0) return <ManyRuns refs={many} mode={mode} />;
  if (!refA || !refB) {
    return (
      <>
        <BackLink />
        <p className="text-sm text-muted-foreground">Pick two runs to compare on the runs page.</p>
      </>
    );
  }
  const [la, lb] = [await loadRunOr404(refA), await loadRunOr404(refB)];
  if (!la.result || !lb.result) {
    return (
      <>
        <BackLink />
        <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm">
          {!la.result ? `Run A (${refA}) has no usable result.` : `Run B (${refB}) has no usable result.`}
        </p>
      </>
    );
  }
  const A = la.result;
  const B = lb.result;
  const c = compareRuns(A, B, mode);

  return (
    <>
      <BackLink />
      <h1 className="text-xl font-semibold tracking-tight">Compare runs</h1>
      <div className="grid gap-3 md:grid-cols-2" data-testid="compare-runs">
        {[
          { tag: "A", ref: refA, r: A },
          { tag: "B", ref: refB, r: B },
        ].map(({ tag, ref, r }) => (
          <div key={tag} className="rounded-lg border bg-card p-3 text-sm">
            <div className="flex items-center gap-2">
              <Badge variant={tag === "A" ? "default" : "warning"}>{tag}</Badge>
              <Link href={runHref(ref)} className="font-medium break-all text-primary underline-offset-4 hover:underline">
                {r.runId}
              </Link>
            </div>
            <div className="mt-1 text-xs text-muted-foreground">
              {r.config.dataset} · {r.strategy.label} · {r.llm.provider} · {r.llm.model} · {r.questions.length} questions
              {oracleLabelOf(r.llm) && <span data-testid="compare-oracle"> · scores: {oracleLabelOf(r.llm)}</span>}
            </div>
          </div>
        ))}
      </div>
      <FixturesAmong runs={[A, B]} />
      {A.config.dataset !== B.config.dataset && (
        <p role="note" className="rounded-md border border-warning/60 bg-warning/10 px-3 py-2 text-sm">
          The runs used different datasets ({A.config.dataset} vs {B.config.dataset}): only questions with the same id are compared one to one.
        </p>
      )}

      <section aria-labelledby="metrics-heading" className="flex flex-col gap-2">
        <h2 id="metrics-heading" className="text-base font-semibold">
          Metrics <span className="text-sm font-normal text-muted-foreground">({c.mode} mode; Δ = B − A)</span>
        </h2>
        <div className="overflow-x-auto rounded-lg border bg-card">
          <table className="w-full text-sm" data-testid="metric-deltas">
            <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Metric</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">A</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">B</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">Δ</th>
              </tr>
            </thead>
            <tbody>
              {c.metrics.map((m) => (
                <tr key={m.key} className="border-b last:border-0" data-testid="metric-delta" data-metric={m.key}>
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">{m.label}</th>
                  <td className="px-3 py-1.5 text-right tabular-nums">{formatValue(m.a, m.format)}</td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{formatValue(m.b, m.format)}</td>
                  <td
                    className={cn(
                      "px-3 py-1.5 text-right font-medium tabular-nums",
                      m.better === "b" && "text-success",
                      m.better === "a" && "text-destructive",
                    )}
                    data-testid="delta"
                  >
                    {formatDelta(m.delta, m.format)}
                    {m.better && m.better !== "same" && <span className="sr-only">{m.better === "b" ? " (B better)" : " (A better)"}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <BarChart
        testId="chart-compare-f1-by-type"
        title="F1 by question type, A vs B"
        description="Macro F1 over all scored questions of each type."
        categories={c.byType.map((t) => t.type)}
        series={[
          { label: `A · ${A.llm.model}`, values: c.byType.map((t) => t.a) },
          { label: `B · ${B.llm.model}`, values: c.byType.map((t) => t.b) },
        ]}
        format="score"
        max={1}
        yLabel="F1"
        className="lg:max-w-3xl"
      />

      <section aria-labelledby="questions-heading" className="flex flex-col gap-2">
        <h2 id="questions-heading" className="text-base font-semibold">
          Per question
        </h2>
        <p className="flex flex-wrap gap-2 text-sm" data-testid="outcome-tally">
          <Badge variant="success">B better {c.tally.win}</Badge>
          <Badge variant="destructive">A better {c.tally.loss}</Badge>
          <Badge variant="muted">ties {c.tally.tie}</Badge>
          {c.tally["only-a"] + c.tally["only-b"] > 0 && (
            <Badge variant="outline">
              only in A {c.tally["only-a"]} · only in B {c.tally["only-b"]}
            </Badge>
          )}
        </p>
        <div className="overflow-x-auto rounded-lg border bg-card">
          <table className="w-full text-sm" data-testid="question-outcomes">
            <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Id</th>
                <th scope="col" className="px-3 py-2 font-medium">Question</th>
                <th scope="col" className="px-3 py-2 font-medium">Type</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">F1 A</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">F1 B</th>
                <th scope="col" className="px-3 py-2 font-medium">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {c.questions.map((q) => (
                <tr key={q.key} className="border-b align-top last:border-0" data-testid="question-outcome" data-outcome={q.outcome}>
                  <td className="px-3 py-1.5 font-mono text-xs whitespace-nowrap">{q.id}</td>
                  <td className="px-3 py-1.5">{q.question}</td>
                  <td className="px-3 py-1.5">{q.type}</td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{formatScore(q.f1A)}</td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{formatScore(q.f1B)}</td>
                  <td className="px-3 py-1.5">
                    <Badge variant={OUTCOME[q.outcome].variant}>{OUTCOME[q.outcome].label}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

async function ManyRuns({ refs, mode }: { refs: string[]; mode?: string }) {
  if (refs.length < 2) {
    return (
      <>
        <BackLink />
        <p className="text-sm text-muted-foreground">Select at least two runs to compare on the runs page.</p>
      </>
    );
  }
  const loaded = [];
  for (const ref of refs) loaded.push({ ref, run: await loadRunOr404(ref) });
  const broken = loaded.find((l) => !l.run.result);
  if (broken) {
    return (
      <>
        <BackLink />
        <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm">
          Run {broken.ref} has no usable result.
        </p>
      </>
    );
  }
  return (
    <>
      <BackLink />
      <FixturesAmong runs={loaded.map((l) => l.run.result!)} />
      <CompareMany c={compareMany(loaded.map((l) => ({ ref: l.ref, result: l.run.result! })), mode)} />
    </>
  );
}

/** The note on hand-written test runs, naming them, when any of the compared runs is one. */
function FixturesAmong({ runs }: { runs: RunResult[] }) {
  const fixtures = runs.filter(isFixtureRun).map((r) => r.runId);
  return fixtures.length > 0 ? <FixtureNote runIds={fixtures} /> : null;
}

function BackLink() {
  return (
    <Link href="/eval" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeftIcon className="size-4" /> All runs
    </Link>
  );
}
