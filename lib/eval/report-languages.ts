// The per-language table of a run asked per language (--question-lang): each language's own scores, and the averages
// as the official TEXT2SPARQL client prints them (with its quirks), next to a published evaluation's when there is one.
// One set of rows for the CLI and summary.md (Markdown) and the eval page (components/eval/language-table.tsx).
import type { ModeSummary, RunResult } from "./result-schema";

type Published = NonNullable<RunResult["comparison"]>["languageAverages"];
type Official = NonNullable<ModeSummary["officialByLanguage"]>[string];

export interface LanguageRow {
  lang: string;
  /** this language's own macro scores (all its questions) */
  own: ModeSummary["macro"]["all"];
  /** the official client's averages for the language, when it prints one */
  official?: Official;
  /** the published evaluation's, when the run replayed one */
  published?: NonNullable<Published>[string];
}

/** The rows, in the order the languages were asked (the official averages keep it; the breakdown is alphabetical). */
export function languageRows(s: ModeSummary, published?: Published): LanguageRow[] {
  if (!s.byLanguage) return [];
  const rows: LanguageRow[] = [];
  for (const lang of Object.keys(s.officialByLanguage ?? s.byLanguage)) {
    const m = s.byLanguage[lang];
    if (!m) continue;
    rows.push({ lang, own: m.all, official: s.officialByLanguage?.[lang], published: published?.[lang] });
  }
  return rows;
}

const pct = (x: number | undefined) => (x === undefined ? "—" : (x * 100).toFixed(1));

export function languageTableLines(s: ModeSummary, published?: Published): string[] {
  const rows = languageRows(s, published);
  if (rows.length === 0) return [];
  const withPublished = published !== undefined && Object.keys(published).length > 0;
  return [
    "| language | n | P | R | F1 | ndcg | set_F_ndcg (this language) | official client set_F / set_F_ndcg |" + (withPublished ? " published set_F / set_F_ndcg |" : ""),
    "|---|---:|---:|---:|---:|---:|---:|---:|" + (withPublished ? "---:|" : ""),
    ...rows.map(
      ({ lang, own: a, official: o, published: p }) =>
        `| ${lang} | ${a.n} | ${pct(a.precision)} | ${pct(a.recall)} | ${pct(a.f1)} | ${pct(a.ndcg)} | ${pct(a.f1Ndcg)} | ${o ? `${pct(o.f1)} / ${pct(o.f1Ndcg)}` : "—"} |` +
        (withPublished ? ` ${p ? `${pct(p.f1)} / ${pct(p.f1Ndcg)}` : "—"} |` : ""),
    ),
  ];
}
