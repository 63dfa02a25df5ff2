// Evaluation runs: the CLI's runs (public to this installation) and this browser's imported ones, with headline
// scores, a link to each, a two-run comparison picker, and "Import result file".
import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { ImportRun } from "@/components/eval/import-run";
import { FIXTURE_NOTE } from "@/lib/eval/fixture-run";
import { formatScore } from "@/lib/eval/view-model";
import { runHref, type RunListEntry } from "@/lib/eval/view-model-list";
import { getEvalRunStore } from "@/lib/server/eval-runs";
import { evalSession } from "./load-run";

export const metadata: Metadata = { title: "Evaluation · Chatty-KG" };

const dateFmt = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${dateFmt.format(d)} UTC`;
};

/** Picker text: the run id, marked when it is this browser's import (an imported copy keeps the CLI run's id). */
const optionLabel = (r: Extract<RunListEntry, { status: "ok" }>) => `${r.runId} · ${r.llm}${r.owner === "session" ? " (imported)" : ""}`;

export default async function EvalRunsPage() {
  const sessionId = await evalSession();
  const runs = getEvalRunStore().list(sessionId);
  const ok = runs.filter((r): r is Extract<RunListEntry, { status: "ok" }> => r.status === "ok");
  const problems = runs.filter((r): r is Exclude<RunListEntry, { status: "ok" }> => r.status !== "ok");

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">Evaluation runs</h1>
          <p className="text-sm text-muted-foreground">
            Runs of <code className="rounded bg-muted px-1">npm run eval</code> are shared by everyone using this installation; files you import are
            visible to this browser only.
          </p>
        </div>
        <ImportRun />
      </div>

      {ok.length === 0 && (
        <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground" data-testid="no-runs">
          No runs yet. Run a benchmark with <code className="rounded bg-muted px-1">npm run eval -- --dataset …</code> (results go to{" "}
          <code className="rounded bg-muted px-1">.data/eval/&lt;run-id&gt;/</code>), or import a <code>result.json</code>.
        </p>
      )}

      {ok.length > 0 && (
        <div className="overflow-x-auto rounded-lg border bg-card">
          <table className="w-full text-sm" data-testid="runs-table">
            <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
              <tr>
                {ok.length >= 2 && (
                  <th scope="col" className="px-3 py-2 font-medium">
                    <span className="sr-only">Select to compare</span>
                  </th>
                )}
                <th scope="col" className="px-3 py-2 font-medium">Run</th>
                <th scope="col" className="px-3 py-2 font-medium">Dataset</th>
                <th scope="col" className="px-3 py-2 font-medium">Strategy</th>
                <th scope="col" className="px-3 py-2 font-medium">LLM</th>
                <th scope="col" className="px-3 py-2 font-medium">Started</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">Questions</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Macro F1 <span className="font-normal">(all)</span>
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Macro F1 <span className="font-normal">(answered only)</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {ok.map((r) => (
                <tr key={r.ref} className="border-b last:border-0 hover:bg-muted/40" data-testid="run-row" data-ref={r.ref}>
                  {ok.length >= 2 && (
                    <td className="px-3 py-2">
                      {/* belongs to the "compare selected" form below the table (the form attribute) */}
                      <input type="checkbox" name="run" value={r.ref} form="compare-many" aria-label={`Compare ${r.runId}`} data-testid="run-select" className="size-4" />
                    </td>
                  )}
                  <td className="px-3 py-2">
                    <Link href={runHref(r.ref)} className="font-medium text-primary underline-offset-4 hover:underline" data-testid="run-link">
                      {r.runId}
                    </Link>
                    <div className="mt-0.5 flex flex-wrap gap-1">
                      <Badge variant={r.owner === "session" ? "default" : "muted"}>{r.owner === "session" ? "imported by you" : "CLI run"}</Badge>
                      {!r.complete && <Badge variant="warning">incomplete</Badge>}
                      {r.fixture && (
                        <Badge variant="warning" title={FIXTURE_NOTE} data-testid="fixture-badge">
                          test fixture
                        </Badge>
                      )}
                    </div>
                  </td>
                  <td className="px-3 py-2">{r.dataset}</td>
                  <td className="px-3 py-2">
                    {r.strategy}
                    {r.pool && (
                      <div className="text-xs text-muted-foreground" data-testid="run-pool">
                        {r.pool}
                      </div>
                    )}
                  </td>
                  <td className="px-3 py-2">{r.llm}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{when(r.startedAt)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{r.questions}</td>
                  <td className="px-3 py-2 text-right tabular-nums" data-testid="run-f1-all">
                    {r.modes.map((m) => (
                      <div key={m.mode}>
                        {r.modes.length > 1 && <span className="mr-1 text-xs text-muted-foreground">{m.mode}</span>}
                        {formatScore(m.f1All)}
                      </div>
                    ))}
                    {r.oracle && (
                      <div className="text-xs text-muted-foreground" data-testid="run-oracle">
                        {r.oracle}
                      </div>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums" data-testid="run-f1-answered">
                    {r.modes.map((m) => (
                      <div key={m.mode}>
                        {r.modes.length > 1 && <span className="mr-1 text-xs text-muted-foreground">{m.mode}</span>}
                        {formatScore(m.f1Answered)}
                        {r.oracle && <div className="text-xs text-muted-foreground">{r.oracle}</div>}
                        <span className="ml-1 text-xs text-muted-foreground">
                          ({m.answered}/{m.scored})
                        </span>
                      </div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {ok.length >= 2 && (
        <form action="/eval/compare" method="get" className="flex flex-wrap items-end gap-3 rounded-lg border bg-card p-4" data-testid="compare-form">
          <div className="text-sm font-medium">Compare two runs</div>
          <label className="flex flex-col gap-1 text-xs text-muted-foreground">
            Run A
            <Select name="a" defaultValue={ok[1].ref} className="min-w-64">
              {ok.map((r) => (
                <option key={r.ref} value={r.ref}>
                  {optionLabel(r)}
                </option>
              ))}
            </Select>
          </label>
          <label className="flex flex-col gap-1 text-xs text-muted-foreground">
            Run B
            <Select name="b" defaultValue={ok[0].ref} className="min-w-64">
              {ok.map((r) => (
                <option key={r.ref} value={r.ref}>
                  {optionLabel(r)}
                </option>
              ))}
            </Select>
          </label>
          <Button type="submit" size="sm" data-testid="compare-submit">
            Compare
          </Button>
        </form>
      )}

      {ok.length >= 2 && (
        <form id="compare-many" action="/eval/compare" method="get" className="flex flex-wrap items-center gap-3 rounded-lg border bg-card p-4" data-testid="compare-many-form">
          <div className="text-sm font-medium">Compare any number of runs</div>
          <p className="text-xs text-muted-foreground">Tick two or more runs in the table (for example the strategies of one multi-strategy run).</p>
          <Button type="submit" size="sm" data-testid="compare-many-submit">
            Compare selected
          </Button>
        </form>
      )}

      {problems.length > 0 && (
        <section className="flex flex-col gap-2" aria-labelledby="problem-runs">
          <h2 id="problem-runs" className="text-sm font-medium">
            Folders without a usable result
          </h2>
          <ul className="flex flex-col gap-1 text-sm">
            {problems.map((p) => (
              <li key={p.ref} className="rounded-md border bg-card px-3 py-2" data-testid="broken-run" data-ref={p.ref}>
                <span className="font-medium">{p.ref}</span>{" "}
                <Badge variant={p.status === "broken" ? "destructive" : "warning"}>{p.status === "broken" ? "invalid" : "no result yet"}</Badge>
                <div className="mt-0.5 text-xs break-words text-muted-foreground">{p.reason}</div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
