// A suite run (`npm run eval -- --suite`): macro F1 per KG, per gold query shape and per language, under the run's
// headline (which is the macro over all questions of all KGs).
import { formatMs, formatScore } from "@/lib/eval/view-model";
import type { ModeSummary, RunResult } from "@/lib/eval/result-schema";
import { GOLD_SHAPE_TAG } from "@/lib/eval/oracle-llm";

type Macro = ModeSummary["macro"];

function ScoreTable({ id, title, first, rows, extra }: { id: string; title: string; first: string; rows: [string, Macro][]; extra?: (key: string) => React.ReactNode[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2" data-testid={id}>
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h2>
      <div className="overflow-x-auto rounded-lg border">
        <table className="w-full min-w-max text-sm">
          <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">{first}</th>
              <th className="px-3 py-2 text-right font-medium">Questions</th>
              <th className="px-3 py-2 text-right font-medium">Answered</th>
              <th className="px-3 py-2 text-right font-medium">F1 (all)</th>
              <th className="px-3 py-2 text-right font-medium">F1 (answered)</th>
              {extra && (
                <>
                  <th className="px-3 py-2 text-right font-medium">LLM calls / q</th>
                  <th className="px-3 py-2 text-right font-medium">Time / q</th>
                  <th className="px-3 py-2 font-medium">Note</th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map(([key, m]) => (
              <tr key={key} className="border-t">
                <td className="px-3 py-1.5 whitespace-nowrap">{key}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{m.all.n}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{m.answeredOnly.n}</td>
                <td className="px-3 py-1.5 text-right font-medium tabular-nums">{formatScore(m.all.f1)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{m.answeredOnly.n ? formatScore(m.answeredOnly.f1) : "—"}</td>
                {extra?.(key).map((c, i) => (
                  <td key={i} className={i < 2 ? "px-3 py-1.5 text-right tabular-nums" : "px-3 py-1.5 text-xs text-muted-foreground"}>
                    {c}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function SuiteTables({ result, summary }: { result: RunResult; summary: ModeSummary }) {
  const suite = result.suite;
  if (!suite) return null;
  const kgs = new Map(suite.kgs.map((k) => [k.db, k]));
  const empty: Macro = { all: { n: 0, precision: 0, recall: 0, f1: 0, qaldF1: 0, p1: 0, mrr: 0, hit5: 0 }, answeredOnly: { n: 0, precision: 0, recall: 0, f1: 0, qaldF1: 0, p1: 0, mrr: 0, hit5: 0 } };
  const byKg: [string, Macro][] = suite.kgs.map((k) => [k.db, summary.byKg?.[k.db] ?? empty]);
  const byShape = Object.entries(summary.byFeature)
    .filter(([f]) => f.startsWith(GOLD_SHAPE_TAG))
    .map(([f, m]): [string, Macro] => [f.slice(GOLD_SHAPE_TAG.length), m])
    .sort((a, b) => b[1].all.n - a[1].all.n);
  const byLanguage = Object.entries(summary.byLanguage ?? {});
  return (
    <div className="flex flex-col gap-4" data-testid="suite-tables">
      <p className="text-sm text-muted-foreground" data-testid="suite-line">
        Suite of {suite.kgs.length} KGs from <span className="break-all text-foreground">{suite.manifest}</span>: the headline is the macro over all{" "}
        {summary.scored} scored questions; each KG&apos;s own run is in <code>kgs/&lt;db&gt;/</code> beside this result.
      </p>
      <ScoreTable
        id="suite-by-kg"
        title="F1 per KG"
        first="KG"
        rows={byKg}
        extra={(db) => {
          const k = kgs.get(db);
          return [k?.cost ? k.cost.meanLlmCalls.toFixed(1) : "—", k?.cost ? formatMs(k.cost.meanMs) : "—", k?.error ?? (k?.complete ? (k.domain ?? "") : "incomplete")];
        }}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <ScoreTable id="suite-by-shape" title="F1 per gold query shape" first="Shape" rows={byShape} />
        <ScoreTable id="suite-by-language" title="F1 per language" first="Language" rows={byLanguage} />
      </div>
    </div>
  );
}
