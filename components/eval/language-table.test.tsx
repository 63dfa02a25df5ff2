// The eval page's per-language table: the rows the CLI and summary.md print (lib/eval/report-languages.ts), for a run
// asked per language — each language's own scores beside the official client's averages (and a published run's).
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ModeSummary, RunResult } from "@/lib/eval/result-schema";
import { LanguageTable } from "./language-table";

const macro = (n: number, f1: number) => ({ n, precision: f1, recall: f1, f1, qaldF1: f1, p1: f1, mrr: f1, hit5: f1, ndcg: f1, f1Ndcg: f1 });
const summary = {
  mode: "single",
  byLanguage: { de: { all: macro(2, 0), answeredOnly: macro(2, 0) }, en: { all: macro(3, 1), answeredOnly: macro(3, 1) } },
  // the order asked: en first
  officialByLanguage: { en: { n: 3, precision: 1, recall: 1, f1: 1, f1Ndcg: 0.5625 }, de: { n: 2, precision: 0, recall: 0, f1: 0, f1Ndcg: 0.5625 } },
} as unknown as ModeSummary;
const result = (extra: Partial<RunResult> = {}) => ({ summary: { modes: [summary] }, ...extra }) as unknown as RunResult;
const cells = (html: string, lang: string) =>
  [...(new RegExp(`<tr[^>]*data-testid="language-row-${lang}"[^>]*>(.*?)</tr>`).exec(html)?.[1] ?? "").matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]);

describe("LanguageTable", () => {
  it("shows each language's own scores and the official client's averages, in the order asked", () => {
    const html = renderToStaticMarkup(<LanguageTable result={result()} summary={summary} />);
    expect(html).toContain("By language");
    expect(html.indexOf("language-row-en")).toBeLessThan(html.indexOf("language-row-de"));
    expect(cells(html, "en")).toEqual(["en", "3", "1.000", "1.000", "1.000", "1.000", "1.000", "1.000 / 0.563"]);
    expect(cells(html, "de")).toEqual(["de", "2", "0.000", "0.000", "0.000", "0.000", "0.000", "0.000 / 0.563"]);
    expect(html).not.toContain("Published");
  });

  it("adds a replayed system's published averages when the run has them", () => {
    const html = renderToStaticMarkup(
      <LanguageTable result={result({ comparison: { languageAverages: { en: { n: 3, precision: 1, recall: 1, f1: 0.9, f1Ndcg: 0.5 } } } as never })} summary={summary} />,
    );
    expect(cells(html, "en").at(-1)).toBe("0.900 / 0.500");
    expect(cells(html, "de").at(-1)).toBe("—");
  });

  it("shows nothing for a run not asked per language, or a suite (its own tables show languages)", () => {
    expect(renderToStaticMarkup(<LanguageTable result={result()} summary={{ ...summary, byLanguage: undefined }} />)).toBe("");
    expect(renderToStaticMarkup(<LanguageTable result={result({ suite: {} as never })} summary={summary} />)).toBe("");
  });
});
