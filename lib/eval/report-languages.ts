// The per-language table of a run asked per language (--question-lang): each language's own scores, and the averages
// as the official TEXT2SPARQL client prints them (with its quirks), next to a published evaluation's when there is one.
import type { ModeSummary, RunResult } from "./result-schema";

const pct = (x: number | undefined) => (x === undefined ? "—" : (x * 100).toFixed(1));

export function languageTableLines(s: ModeSummary, published?: NonNullable<RunResult["comparison"]>["languageAverages"]): string[] {
  if (!s.byLanguage) return [];
  const official = s.officialByLanguage ?? {};
  const withPublished = published && Object.keys(published).length > 0;
  const lines = [
    "| language | n | P | R | F1 | ndcg | set_F_ndcg (this language) | official client set_F / set_F_ndcg |" + (withPublished ? " published set_F / set_F_ndcg |" : ""),
    "|---|---:|---:|---:|---:|---:|---:|---:|" + (withPublished ? "---:|" : ""),
  ];
  // languages in the order asked (the official averages keep it; the breakdown is alphabetical)
  for (const lang of Object.keys(s.officialByLanguage ?? s.byLanguage)) {
    const m = s.byLanguage[lang];
    if (!m) continue;
    const a = m.all;
    const o = official[lang];
    const p = published?.[lang];
    lines.push(
      `| ${lang} | ${a.n} | ${pct(a.precision)} | ${pct(a.recall)} | ${pct(a.f1)} | ${pct(a.ndcg)} | ${pct(a.f1Ndcg)} | ${o ? `${pct(o.f1)} / ${pct(o.f1Ndcg)}` : "—"} |` +
        (withPublished ? ` ${p ? `${pct(p.f1)} / ${pct(p.f1Ndcg)}` : "—"} |` : ""),
    );
  }
  return lines;
}
