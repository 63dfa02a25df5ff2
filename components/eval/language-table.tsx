// A run asked per language (`npm run eval -- --question-lang …`): the table the CLI and summary.md print — each
// language's own scores, the official TEXT2SPARQL client's per-language averages, and a published evaluation's.
import { languageRows } from "@/lib/eval/report-languages";
import type { ModeSummary, RunResult } from "@/lib/eval/result-schema";
import { formatScore } from "@/lib/eval/view-model";

const score = (x: number | undefined) => (x === undefined ? "—" : formatScore(x));

export function LanguageTable({ result, summary }: { result: RunResult; summary: ModeSummary }) {
  // a suite shows its languages among its own tables (suite-tables.tsx)
  if (result.suite) return null;
  const published = result.comparison?.languageAverages;
  const rows = languageRows(summary, published);
  if (rows.length === 0) return null;
  const withPublished = published !== undefined && Object.keys(published).length > 0;
  const head = ["Language", "Questions", "P", "R", "F1", "ndcg", "set_F_ndcg (this language)", "Official client set_F / set_F_ndcg", ...(withPublished ? ["Published set_F / set_F_ndcg"] : [])];
  return (
    <section aria-labelledby="by-language-heading" className="flex flex-col gap-2" data-testid="language-table">
      <h2 id="by-language-heading" className="text-base font-semibold">
        By language
      </h2>
      <p className="text-sm text-muted-foreground">
        Each language&apos;s own questions, and the averages as the official TEXT2SPARQL client prints them (it counts a question
        for every language code that occurs in its id, and averages set_F_ndcg over all entries: one number for every language).
      </p>
      <div className="overflow-x-auto rounded-lg border">
        <table className="w-full min-w-max text-sm">
          <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              {head.map((h, i) => (
                <th key={h} className={`px-3 py-2 font-medium ${i > 0 ? "text-right" : ""}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(({ lang, own, official, published: p }) => (
              <tr key={lang} className="border-t" data-testid={`language-row-${lang}`}>
                <td className="px-3 py-1.5 whitespace-nowrap">{lang}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{own.n}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{score(own.precision)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{score(own.recall)}</td>
                <td className="px-3 py-1.5 text-right font-medium tabular-nums">{score(own.f1)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{score(own.ndcg)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{score(own.f1Ndcg)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{official ? `${score(official.f1)} / ${score(official.f1Ndcg)}` : "—"}</td>
                {withPublished && <td className="px-3 py-1.5 text-right tabular-nums">{p ? `${score(p.f1)} / ${score(p.f1Ndcg)}` : "—"}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
