// Turns question records into per-mode summaries (macro scores, breakdowns, cost, failures) and the run's retention.
import { asNoKgAnswer, breakdown, costSummary, countBy, macro, retention, type Prices, type QuestionScore } from "./metrics";
import { equalsGold } from "./oracle-grounding";
import type { ModeSummary, QuestionRecord, RunMode } from "./result-schema";
import { officialLanguageAverages } from "./text2sparql-languages";

type Scored = QuestionRecord & { score: QuestionScore };

/**
 * The scores are KG-grounded: an answer from the model's own knowledge (source "llm") counts there as no answer, and
 * is scored on its own in `modelKnowledge` (present only when there are such answers).
 */
export function summarizeMode(mode: RunMode, records: QuestionRecord[], prices?: Prices | null): ModeSummary {
  const mine = records.filter((r) => r.mode === mode);
  const scored: Scored[] = mine.flatMap((r) => (r.metrics ? [{ ...r, score: r.source === "llm" ? asNoKgAnswer(r.metrics) : r.metrics }] : []));
  const fromModel = mine.flatMap((r) => (r.metrics && r.source === "llm" ? [r.metrics] : []));
  return {
    mode,
    questions: mine.length,
    scored: scored.length,
    answered: scored.filter((r) => r.score.answered).length,
    macro: macro(scored.map((r) => r.score)),
    byType: breakdown(scored, (r) => [r.type]),
    byFeature: breakdown(scored, (r) => r.features),
    ...languageSummaries(scored),
    cost: costSummary(mine.map((r) => r.trace), prices ?? undefined),
    failures: countBy(scored, (r) => r.failure),
    ...(fromModel.length ? { modelKnowledge: { questions: fromModel.length, macro: macro(fromModel) } } : {}),
    ...oracleSummary(mine),
  };
}

/** Oracle runs: how many final queries are the gold query (normalised), and the oracles' drop/normalisation counts. */
function oracleSummary(records: QuestionRecord[]): Pick<ModeSummary, "oracle"> {
  const logged = records.filter((r) => r.oracle);
  const first = logged[0]?.oracle;
  if (!first) return {};
  return {
    oracle: {
      kind: first.kind,
      questions: logged.length,
      equalToGold: logged.filter((r) => equalsGold(r.sparql, r.goldSparql)).length,
      dropped: logged.reduce((n, r) => n + (r.oracle?.dropped.length ?? 0), 0),
      questionsWithDropped: logged.filter((r) => r.oracle?.dropped.length).length,
      normalisations: logged.reduce((n, r) => n + (r.oracle?.normalisations.length ?? 0), 0),
      refused: logged.reduce((n, r) => n + (r.oracle?.refused.length ?? 0), 0),
      datasetTexts: [...new Set(logged.flatMap((r) => r.oracle?.datasetTexts ?? []))],
    },
  };
}

export function summarizeRun(modes: RunMode[], records: QuestionRecord[], prices?: Prices | null): { modes: ModeSummary[]; retention: number | null } {
  const summaries = modes.map((m) => summarizeMode(m, records, prices));
  const dialogue = summaries.find((s) => s.mode === "dialogue");
  const standalone = summaries.find((s) => s.mode === "standalone");
  return { modes: summaries, retention: dialogue && standalone ? retention(dialogue.macro.all.f1, standalone.macro.all.f1) : null };
}

/** Per-language scores of a run asked per language: this language's questions, and the official client's averages. */
function languageSummaries(scored: Scored[]): Pick<ModeSummary, "byLanguage" | "officialByLanguage"> {
  const languages = [...new Set(scored.flatMap((r) => (r.lang ? [r.lang] : [])))];
  if (languages.length === 0) return {};
  const entries = scored.map((r) => ({ id: r.id, precision: r.score.precision, recall: r.score.recall, f1: r.score.f1, ...(r.score.ndcg !== undefined ? { ndcg: r.score.ndcg } : {}) }));
  return { byLanguage: breakdown(scored, (r) => (r.lang ? [r.lang] : [])), officialByLanguage: officialLanguageAverages(entries, languages) };
}
