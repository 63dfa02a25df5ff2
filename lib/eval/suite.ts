// A suite run (`--suite <manifest.tsv>`) as one result: each KG runs as its own resumable run (`<out>/kgs/<db>/`), and
// their question records merge into one result.json — ids `<db>/<id>`, macro F1 over all questions, per KG, per gold
// shape (the `gold_shape:` tags) and per language — which the eval page lists as one run.
import { AppError } from "@/lib/errors";
import { breakdown, asNoKgAnswer, type Prices } from "./metrics";
import { GOLD_SHAPE_TAG, withGoldShape } from "./oracle-llm";
import { RESULT_VERSION, runResultSchema, type ModeSummary, type RunExperience, type QuestionRecord, type RunMode, type RunResult } from "./result-schema";
import { summarizeRun } from "./summarize";
import type { SuiteEntry } from "./suite-manifest";
import type { BenchmarkItem } from "./types";

export const SUITE_DATASET = "suite";

/** One KG's part of the suite: its entry and its run (null when it could not run at all, with the reason). */
export interface SuitePart {
  entry: SuiteEntry;
  result: RunResult | null;
  error?: string;
}

/** The suite's items of one KG: every question tagged with its gold query's shape, so the suite breaks down by shape. */
export function suiteItemsOf(items: BenchmarkItem[]): BenchmarkItem[] {
  return withGoldShape(items);
}

/** A question's id in the merged result. */
export const suiteIdOf = (db: string, id: string) => `${db}/${id}`;

function mergedRecords(parts: SuitePart[]): QuestionRecord[] {
  return parts.flatMap(({ entry, result }) =>
    (result?.questions ?? []).map((q) => ({
      ...q,
      key: `${q.mode}:${suiteIdOf(entry.db, q.id)}`,
      id: suiteIdOf(entry.db, q.id),
      ...(q.dialogueId !== undefined ? { dialogueId: suiteIdOf(entry.db, q.dialogueId) } : {}),
      // why: a question asked without --question-lang is in the manifest's language (default English)
      lang: q.lang ?? entry.lang ?? "en",
    })),
  );
}

/** Per KG and per language, from the merged records (the language table of a suite is its own, not the TEXT2SPARQL client's). */
function withSuiteBreakdowns(s: ModeSummary, records: QuestionRecord[], dbOf: Map<string, string>): ModeSummary {
  const scored = records
    .filter((r) => r.mode === s.mode && r.metrics)
    .map((r) => ({ ...r, score: r.source === "llm" ? asNoKgAnswer(r.metrics!) : r.metrics! }));
  const { officialByLanguage: _official, ...rest } = s;
  return {
    ...rest,
    byKg: breakdown(scored, (r) => [dbOf.get(r.id) ?? "?"]),
    byLanguage: breakdown(scored, (r) => [r.lang ?? "en"]),
  };
}

export interface SuiteMeta {
  manifest: string;
  runId: string;
  startedAt: string;
  finishedAt: string;
  strategy: { id: string; label: string };
  llm: { provider: string; model: string };
  modes: RunMode[];
  prices?: Prices | null;
}

/** The suite's one result: every KG's records, summarised together, with the per-KG run facts under `suite`. */
export function mergeSuite(parts: SuitePart[], meta: SuiteMeta): RunResult {
  const records = mergedRecords(parts);
  const dbOf = new Map(parts.flatMap(({ entry, result }) => (result?.questions ?? []).map((q) => [suiteIdOf(entry.db, q.id), entry.db] as const)));
  const summary = summarizeRun(meta.modes, records, meta.prices);
  const first = parts.find((p) => p.result)?.result;
  if (!first) throw new AppError("kg_load", `No KG of the suite ran: ${parts.map((p) => `${p.entry.db}: ${p.error ?? "not run"}`).join("; ")}.`);
  const manifestName = meta.manifest.split(/[\\/]/).pop() ?? meta.manifest;
  return runResultSchema.parse({
    version: RESULT_VERSION,
    runId: meta.runId,
    startedAt: meta.startedAt,
    finishedAt: meta.finishedAt,
    complete: parts.every((p) => p.result?.complete),
    config: {
      ...first.config,
      dataset: SUITE_DATASET,
      file: meta.manifest,
      kg: meta.manifest,
      modes: meta.modes,
      kgProfile: undefined,
      queries: undefined,
      load: undefined,
      goldKg: undefined,
      experience: suiteExperience(parts.flatMap((p) => (p.result ? [p.result.config.experience] : []))),
    },
    strategy: meta.strategy,
    llm: meta.llm,
    kg: { id: `suite:${meta.manifest}`, name: `${manifestName} (${parts.length} KGs)`, kind: "suite" },
    summary: { ...summary, modes: summary.modes.map((s) => withSuiteBreakdowns(s, records, dbOf)) },
    questions: records,
    suite: {
      manifest: meta.manifest,
      kgs: parts.map(({ entry, result, error }) => ({
        db: entry.db,
        kg: entry.kg,
        questions: entry.questions,
        dataset: entry.dataset,
        ...(entry.domain ? { domain: entry.domain } : {}),
        ...(result ? { runId: result.runId, complete: result.complete, kgName: result.kg.name, cost: result.summary.modes[0]?.cost } : { complete: false }),
        ...(error ? { error } : {}),
      })),
    },
  } satisfies RunResult);
}

const pct = (x: number) => (x * 100).toFixed(1);
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").slice(0, 80);

/** The suite's tables (per KG, per shape, per language), for the CLI and summary.md. */
export function suiteTableLines(r: RunResult): string[] {
  const s = r.summary.modes[0];
  if (!s || !r.suite) return [];
  const kgRow = new Map(r.suite.kgs.map((k) => [k.db, k]));
  const lines = [
    `Suite ${r.suite.manifest}: macro F1 ${pct(s.macro.all.f1)} over all ${s.scored} scored questions (${s.answered} answered) of ${r.suite.kgs.length} KGs${r.complete ? "" : " — INCOMPLETE"}`,
    "",
    "| KG | n | answered | F1 (all) | LLM calls/q | s/q | note |",
    "|---|---:|---:|---:|---:|---:|---|",
  ];
  for (const k of r.suite.kgs) {
    const m = s.byKg?.[k.db];
    const cost = kgRow.get(k.db)?.cost;
    const note = k.error ?? (k.complete ? "" : "incomplete");
    lines.push(`| ${cell(k.db)} | ${m?.all.n ?? 0} | ${m ? Math.round(m.answeredOnly.n) : 0} | ${m ? pct(m.all.f1) : "—"} | ${cost ? cost.meanLlmCalls.toFixed(1) : "—"} | ${cost ? (cost.meanMs / 1000).toFixed(2) : "—"} | ${cell(note)} |`);
  }
  const shapes = Object.entries(s.byFeature).filter(([f]) => f.startsWith(GOLD_SHAPE_TAG)).sort((a, b) => b[1].all.n - a[1].all.n);
  if (shapes.length) {
    lines.push("", "| gold shape | n | F1 (all) | F1 (answered) |", "|---|---:|---:|---:|");
    for (const [f, m] of shapes) lines.push(`| ${f.slice(GOLD_SHAPE_TAG.length)} | ${m.all.n} | ${pct(m.all.f1)} | ${pct(m.answeredOnly.f1)} |`);
  }
  const langs = Object.entries(s.byLanguage ?? {});
  if (langs.length) {
    lines.push("", "| language | n | F1 (all) | F1 (answered) |", "|---|---:|---:|---:|");
    for (const [l, m] of langs) lines.push(`| ${l} | ${m.all.n} | ${pct(m.all.f1)} | ${pct(m.answeredOnly.f1)} |`);
  }
  return lines;
}

/** The pools over all KGs of a suite: entries and examples summed; "done" only when every KG's onboarding finished. */
function suiteExperience(per: (RunExperience | undefined)[]): RunExperience | undefined {
  const imported = per.flatMap((e) => (e?.imported ? [e.imported] : []));
  const generated = per.flatMap((e) => (e?.generated ? [e.generated] : []));
  if (!imported.length && !generated.length) return undefined;
  return {
    ...(imported.length ? { imported: { pool: `${imported.length} KGs' imported pools`, entries: imported.reduce((n, i) => n + i.entries, 0), excludeTestSplit: imported.every((i) => i.excludeTestSplit) } } : {}),
    ...(generated.length
      ? { generated: { examples: generated.reduce((n, g) => n + g.examples, 0), ms: generated.reduce((n, g) => n + g.ms, 0), status: generated.every((g) => g.status === "done") ? "done" : "not done on every KG", notes: generated.some((g) => g.notes) } }
      : {}),
  };
}
