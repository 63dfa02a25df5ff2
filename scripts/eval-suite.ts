// `npm run eval -- --suite <manifest.tsv> …`: every KG of the manifest with its questions, one strategy after the other.
// Each KG runs as its own resumable run in <out>/kgs/<db>/ (one KG in memory at a time); the merged result.json in
// <out> is one run on the eval page, with macro F1 over all questions and the tables per KG, shape and language.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AppError, toAppError } from "@/lib/errors";
import { openKg } from "@/lib/kg/open-kg";
import { createSimilarity, embeddingConfigFromEnv } from "@/lib/embeddings/similarity";
import { getStrategy } from "@/lib/pipeline/registry";
import { pipelineConfigSchema, type PipelineConfig } from "@/lib/pipeline/types";
import { experienceKgKey } from "@/lib/pipeline/common/experience";
import type { ExperienceSource, KgNotesSource } from "@/lib/pipeline/types";
import { guardedSource } from "@/lib/eval/experience-guard";
import { oracleFor } from "@/lib/eval/oracles";
import { createProgressPrinter } from "@/lib/eval/progress";
import { oracleCountsLine, renderMarkdown } from "@/lib/eval/report";
import { RUN_MODES, runResultSchema, type RunExperience, type RunMode, type RunResult } from "@/lib/eval/result-schema";
import { runBenchmark } from "@/lib/eval/runner";
import { defaultScoring, type Scoring } from "@/lib/eval/scoring";
import { mergeSuite, suiteItemsOf, suiteTableLines, type SuitePart } from "@/lib/eval/suite";
import { readSuiteManifest, type SuiteEntry } from "@/lib/eval/suite-manifest";
import type { BenchmarkItem } from "@/lib/eval/types";
import type { LlmGateway } from "@/lib/llm/types";
import { readImportedPool } from "./experience-pool";
import { generatedPool } from "./eval-generated-pool";
import { parseScoringArgs } from "./eval-args";
import { itemsInLanguage, loadItems, runLoad } from "./eval-dataset";
import { setupEvalLlm } from "./eval-llm";
import { outDirFor, strategyConfigFromArgs, strategyIdsFromArg } from "./eval-strategy-args";
import { kgSpecFromArgs } from "./kg-profile-args";

export const SUITE_USAGE = `  --suite <manifest.tsv> run every KG of a manifest (tab-separated: db, kg, questions, [dataset], [lang], …; paths relative
                         to it) instead of --dataset/--file/--kg: one result with macro F1 over all questions, per KG,
                         per gold shape and per language; each KG's own run in <out>/kgs/<db>/ (--resume continues it)`;

/** Flags that name one dataset or KG, which a suite takes from its manifest instead. */
const NOT_WITH_SUITE = ["dataset", "file", "kg", "gold", "ids", "check-gold", "queries", "official-eval", "gold-kg", "translations"] as const;

type Values = Record<string, string | boolean | undefined>;

const str = (v: string | boolean | undefined) => (typeof v === "string" ? v : undefined);

interface Loaded {
  entry: SuiteEntry;
  items: BenchmarkItem[];
  load?: ReturnType<typeof loadItems>;
  languages?: string[];
  error?: string;
}

/** Every KG's questions, read before anything runs: a bad file is a clear error, not a failure half-way through. */
function loadAll(entries: SuiteEntry[], values: Values, limit: number | null): Loaded[] {
  return entries.map((entry) => {
    const load = loadItems(entry.dataset, entry.questions, { strict: values.strict === true });
    let items = limit ? load.items.slice(0, limit) : load.items;
    const asked = str(values["question-lang"]) ? itemsInLanguage(items, str(values["question-lang"])) : { items };
    items = suiteItemsOf(asked.items);
    return { entry, items, load, languages: asked.languages };
  });
}

function readDone(outDir: string): RunResult | null {
  const file = path.join(outDir, "result.json");
  if (!existsSync(file)) return null;
  const parsed = runResultSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  return parsed.success && parsed.data.complete ? parsed.data : null;
}

export async function runSuite(values: Values, usageError: (m: string) => AppError): Promise<number> {
  for (const flag of NOT_WITH_SUITE) if (values[flag] !== undefined && values[flag] !== false) throw usageError(`--suite takes its KGs and questions from the manifest: leave out --${flag}.`);
  const manifest = readSuiteManifest(str(values.suite)!);
  const int = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw usageError(`--${name} must be an integer ≥ 1 (got "${v}").`);
    return n;
  };
  const limit = int("limit", str(values.limit)) ?? null;
  const concurrency = int("concurrency", str(values.concurrency)) ?? 1;
  const mode = str(values.mode) ?? "single";
  if (!(RUN_MODES as readonly string[]).includes(mode)) throw usageError(`--mode with --suite must be single, dialogue or standalone (got "${mode}").`);
  const modes = [mode as RunMode];
  const loaded = loadAll(manifest.entries, values, limit);
  // why: one scoring for the whole suite, else the macro would mix two metrics
  const defaults = new Set(manifest.entries.map((e) => defaultScoring(e.dataset)));
  const scoringArgs = parseScoringArgs({ ...values, scoring: str(values.scoring) ?? (defaults.size === 1 ? [...defaults][0] : "items") } as Record<string, string>, manifest.entries[0].dataset);
  const scoring: Scoring = scoringArgs.scoring;
  const strategyIds = strategyIdsFromArg(str(values.strategy));
  const strategies = strategyIds.map((id) => getStrategy(id));
  const { llm, llmInfo, oracleKind } = setupEvalLlm({ llm: str(values.llm), replay: str(values.replay) }, strategies, loaded.some((l) => l.items.some((i) => i.goldSparql)), usageError);
  const num = (v: string | boolean | undefined) => (typeof v === "string" ? Number(v) : undefined);
  const baseConfig = pipelineConfigSchema.parse({
    ...strategyConfigFromArgs(values as Parameters<typeof strategyConfigFromArgs>[0]),
    strategy: strategyIds[0],
    theta: num(values.theta),
    vlimit: num(values.vlimit),
    queryNum: num(values["query-num"]),
    answerLimit: num(values["answer-limit"]),
    rowLimit: scoringArgs.rowLimit,
  });
  const priceIn = num(values["price-in"]);
  const priceOut = num(values["price-out"]);
  const prices = priceIn !== undefined || priceOut !== undefined ? { inputPerMTok: priceIn ?? 0, outputPerMTok: priceOut ?? 0 } : null;
  if (values.resume && !values.out) throw usageError("--resume needs --out <the suite run's folder>.");
  if (values["exclude-test-split"] && !values.experience) throw usageError("--exclude-test-split needs --experience.");

  const stamp = new Date().toISOString().replace(/[:.]/g, "-").replace(/Z$/, "");
  const runsDir = process.env.EVAL_RUNS_DIR?.trim() || path.join(".data", "eval");
  const several = strategies.length > 1;
  const similarity = await createSimilarity(embeddingConfigFromEnv());
  if (similarity.warning) console.error(`note: ${similarity.warning}`);
  const abort = new AbortController();
  process.once("SIGINT", () => {
    console.error("\ninterrupted: finishing the questions in flight; resume with --resume and the same --out");
    abort.abort();
  });
  const suiteName = path.basename(manifest.file).replace(/\.tsv$/i, "");
  let allComplete = true;
  const summaryRows: string[] = [];
  for (const strategy of strategies) {
    if (abort.signal.aborted) break;
    const runId = `suite-${suiteName}-${strategy.id}-${stamp}`;
    const outDir = outDirFor(strategy.id, runId, str(values.out), several, runsDir);
    mkdirSync(outDir, { recursive: true });
    const metaFile = path.join(outDir, "run-meta.json");
    const meta = values.resume && existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, "utf8")) as { runId: string; startedAt: string }) : { runId, startedAt: new Date().toISOString() };
    writeFileSync(metaFile, JSON.stringify(meta));
    const config: PipelineConfig = { ...baseConfig, strategy: strategy.id as PipelineConfig["strategy"] };
    console.log(`\n== suite ${suiteName}: ${strategy.label} (${strategy.id}), ${loaded.length} KGs → ${outDir} ==`);
    const parts: SuitePart[] = [];
    for (const [i, { entry, items, load, languages }] of loaded.entries()) {
      const kgOut = path.join(outDir, "kgs", entry.db);
      const done = values.resume ? readDone(kgOut) : null;
      if (done) {
        console.error(`[${i + 1}/${loaded.length}] ${entry.db}: done earlier (${done.questions.length} questions)`);
        parts.push({ entry, result: done });
        continue;
      }
      if (abort.signal.aborted) {
        parts.push({ entry, result: null, error: "interrupted before it ran" });
        continue;
      }
      console.error(`[${i + 1}/${loaded.length}] ${entry.db}: ${items.length} questions`);
      let kg;
      try {
        kg = await openKg(kgSpecFromArgs(entry.kg, values as Parameters<typeof kgSpecFromArgs>[1]));
      } catch (e) {
        const err = toAppError(e);
        console.error(`  ${entry.db}: the KG cannot be loaded: ${err.message}`);
        parts.push({ entry, result: null, error: `KG not loaded: ${err.message}` });
        continue;
      }
      try {
        let experience: ((item: BenchmarkItem) => ExperienceSource) | undefined;
        const shown: RunExperience = {};
        if (values.experience) {
          const pool = await readImportedPool(experienceKgKey(kg.info.id));
          const guard = { dataset: entry.dataset, items, excludeTestSplit: values["exclude-test-split"] === true };
          experience = (item) => guardedSource(item, pool, guard);
          shown.imported = { pool: experienceKgKey(kg.info.id), entries: pool.length, excludeTestSplit: guard.excludeTestSplit };
        }
        let kgNotes: KgNotesSource | undefined;
        if (values["generated-pool"]) {
          const generated = await generatedPool(kg, (l) => console.error(`  ${l}`));
          experience = generated.experienceFor(experience);
          kgNotes = generated.kgNotes;
          shown.generated = generated.record;
        }
        const out = await runBenchmark(
          {
            items,
            modes,
            config,
            outDir: kgOut,
            runId: `${meta.runId}-${entry.db}`,
            concurrency,
            resume: values.resume === true,
            goldSource: "auto",
            prices,
            scoring,
            valueComparison: scoringArgs.valueComparison,
            meta: {
              dataset: entry.dataset,
              file: entry.questions,
              kg: entry.kg,
              limit,
              llm: llmInfo,
              kgProfileFlags: { profile: str(values.profile), "label-predicates": str(values["label-predicates"]), lang: str(values.lang), "label-search": str(values["label-search"]) },
              ...(load ? { load: runLoad(load, { questionLang: str(values["question-lang"]), languages }) } : {}),
              ...(shown.imported || shown.generated ? { experience: shown } : {}),
            },
            signal: abort.signal,
            onProgress: createProgressPrinter(),
          },
          {
            strategy,
            kg,
            llm,
            similarity,
            ...(experience ? { experienceFor: experience } : {}),
            ...(kgNotes ? { kgNotes } : {}),
            ...(oracleKind ? { llmFor: (item: BenchmarkItem, signal?: AbortSignal): Promise<LlmGateway> => oracleFor(strategy.id, oracleKind)(item, kg, config, signal) } : {}),
          },
        );
        const m = out.result.summary.modes[0];
        console.error(`  ${entry.db}: F1 ${((m?.macro.all.f1 ?? 0) * 100).toFixed(1)} (${m?.answered ?? 0}/${m?.questions ?? 0} answered)${out.resumed ? `, ${out.resumed} resumed` : ""}`);
        parts.push({ entry, result: out.result });
      } finally {
        await kg.close();
      }
    }
    const merged = mergeSuite(parts, { manifest: manifest.file, runId: meta.runId, startedAt: meta.startedAt, finishedAt: new Date().toISOString(), strategy: { id: strategy.id, label: strategy.label }, llm: llmInfo, modes, prices });
    writeFileSync(path.join(outDir, "result.json"), JSON.stringify(merged, null, 2) + "\n");
    writeFileSync(path.join(outDir, "summary.md"), `${suiteTableLines(merged).join("\n")}\n\n${renderMarkdown(merged)}`);
    console.log(suiteTableLines(merged).join("\n"));
    for (const s of merged.summary.modes) if (s.oracle) console.log(`${s.mode}: ${oracleCountsLine(s.oracle)}`);
    console.log(`result: ${path.join(outDir, "result.json")}`);
    const s = merged.summary.modes[0];
    summaryRows.push(`| ${strategy.id} | ${((s?.macro.all.f1 ?? 0) * 100).toFixed(1)} | ${s?.answered ?? 0}/${s?.questions ?? 0} | ${(s?.cost.meanLlmCalls ?? 0).toFixed(1)} | ${((s?.cost.meanMs ?? 0) / 1000).toFixed(2)} |${merged.complete ? "" : " incomplete"}`);
    allComplete &&= merged.complete;
  }
  if (several) console.log(`\n| strategy | F1 (all) | answered | LLM calls/q | s/q |\n|---|---:|---:|---:|---:|\n${summaryRows.join("\n")}`);
  return allComplete && !abort.signal.aborted ? 0 : 1;
}
