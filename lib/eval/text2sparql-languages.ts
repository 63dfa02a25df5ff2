// Per-language averages of a run asked in several languages, as the official TEXT2SPARQL client (text2sparql-client
// 2.1.x `evaluate --languages`) prints them — quirks included, because they decide published numbers (docs/eval.md):
// - a question counts for a language when the language code occurs anywhere in its id (substring, not the suffix);
// - the per-language `set_F_ndcg` is computed over every entry of the result (all languages' questions, the overall
//   average's ndcg and every per-language average's ndcg), so it is the same number for every language.
// The honest per-language scores (this language's questions only) are the runner's byLanguage breakdown.

export interface ScoredEntry {
  /** the question's id as the client names it ("ck26:27-de") */
  id: string;
  precision: number;
  recall: number;
  f1: number;
  /** only for questions whose order matters */
  ndcg?: number;
}

export interface OfficialLanguageAverage {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  /** mean ndcg of this language's order-sensitive questions (absent when it has none: the client would stop with an error) */
  ndcg?: number;
  /** what the client prints as this language's set_F_ndcg (see the quirk above); absent when no question has an ndcg */
  f1Ndcg?: number;
}

const fmean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The client's `average-<lang>` entries. With a single language the client prints none: the overall average is it, so
 * the one language gets the overall numbers (its set_F_ndcg being the overall one).
 */
export function officialLanguageAverages(entries: ScoredEntry[], languages: string[]): Record<string, OfficialLanguageAverage> {
  const ordered = entries.filter((e) => e.ndcg !== undefined);
  const withOrder = ordered.length > 0;
  const overall = {
    precision: fmean(entries.map((e) => e.precision)),
    recall: fmean(entries.map((e) => e.recall)),
    f1: fmean(entries.map((e) => e.f1)),
    ...(withOrder ? { ndcg: fmean(ordered.map((e) => e.ndcg!)) } : {}),
  };
  const perQuestion = entries.map((e) => e.ndcg ?? e.f1);
  if (entries.length === 0) return {};
  if (languages.length === 1) {
    const f1Ndcg = withOrder ? fmean([...perQuestion, overall.ndcg!]) : undefined;
    return { [languages[0]]: { n: entries.length, ...overall, ...(f1Ndcg !== undefined ? { f1Ndcg } : {}) } };
  }
  // "average" is a key of the client's result too: it counts for a language whose code occurs in the word
  const keyed: { key: string; precision: number; recall: number; f1: number; ndcg?: number }[] = [...entries.map((e) => ({ ...e, key: e.id })), { key: "average", ...overall }];
  const out: Record<string, OfficialLanguageAverage> = {};
  for (const lang of languages) {
    const mine = keyed.filter((e) => e.key.includes(lang));
    if (mine.length === 0) continue;
    const ndcgs = mine.flatMap((e) => (e.ndcg === undefined ? [] : [e.ndcg]));
    out[lang] = {
      n: mine.filter((e) => e.key !== "average").length,
      precision: fmean(mine.map((e) => e.precision)),
      recall: fmean(mine.map((e) => e.recall)),
      f1: fmean(mine.map((e) => e.f1)),
      ...(withOrder && ndcgs.length ? { ndcg: fmean(ndcgs) } : {}),
    };
  }
  if (withOrder) {
    const averages = Object.values(out).map((a) => a.ndcg ?? a.f1);
    const f1Ndcg = fmean([...perQuestion, overall.ndcg!, ...averages]);
    for (const a of Object.values(out)) a.f1Ndcg = f1Ndcg;
  }
  return out;
}
