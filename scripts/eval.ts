// `npm run eval -- --dataset <name> --kg <file|URL> …`: runs a strategy over a benchmark, or (--check-gold) checks the gold.
import "dotenv/config";
import path from "node:path";
import { parseArgs } from "node:util";
import { AppError, toAppError } from "@/lib/errors";
import { openKg, parseKgArg } from "@/lib/kg/open-kg";
import { createSimilarity, embeddingConfigFromEnv } from "@/lib/embeddings/similarity";
import { getStrategy } from "@/lib/pipeline/registry";
import { pipelineConfigSchema, type PipelineConfig } from "@/lib/pipeline/types";
import { checkGold } from "@/lib/eval/check-gold";
import { DATASETS, defaultCk25File, defaultCk25ResultSet, isDatasetName } from "@/lib/eval/datasets";
import { readText2SparqlResultSet } from "@/lib/eval/datasets/text2sparql";
import { createProgressPrinter } from "@/lib/eval/progress";
import { withGoldShape } from "@/lib/eval/oracle-llm";
import { oracleFor } from "@/lib/eval/oracles";
import type { OracleKind } from "@/lib/eval/oracle-grounding";
import { oracleCountsLine } from "@/lib/eval/report";
import { RUN_MODES, type RunExperience, type RunMode, type RunResult } from "@/lib/eval/result-schema";
import { runBenchmark, type EvalStrategy } from "@/lib/eval/runner";
import { readOfficialEval } from "@/lib/eval/official-eval";
import { queryForItem, readQueriesFile } from "@/lib/eval/queries-file";
import { createQueryReplayStrategy } from "@/lib/eval/query-replay";
import { SCORING_LABELS } from "@/lib/eval/scoring";
import { languageTableLines } from "@/lib/eval/report-languages";
import type { BenchmarkItem } from "@/lib/eval/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { LlmGateway } from "@/lib/llm/types";
import { guardedSource } from "@/lib/eval/experience-guard";
import { experienceKgKey } from "@/lib/pipeline/common/experience";
import type { ExperienceSource, KgNotesSource } from "@/lib/pipeline/types";
import { readImportedPool } from "./experience-pool";
import { generatedPool } from "./eval-generated-pool";
import { KG_PROFILE_OPTIONS, KG_PROFILE_USAGE, kgSpecFromArgs } from "./kg-profile-args";
import { parseScoringArgs, SCORING_OPTIONS, SCORING_USAGE } from "./eval-args";
import { DATASET_OPTIONS, DATASET_USAGE, itemsInLanguage, itemsWithTranslations, itemsWithOfficialGold, loadItems, runLoad } from "./eval-dataset";
import { setupEvalLlm } from "./eval-llm";
import { runSuite, SUITE_USAGE } from "./eval-suite";
import { outDirFor, strategyConfigFromArgs, strategyIdsFromArg, STRATEGY_OPTIONS, STRATEGY_USAGE } from "./eval-strategy-args";

const USAGE = `Usage: npm run eval -- --dataset <${DATASETS.join("|")}> --kg <file.ttl[,more] | https://endpoint/sparql> [options]
       npm run eval -- --suite <manifest.tsv> [options]
${SUITE_USAGE}
  --file <path>          dataset file (ck25: defaults to questions.yml beside the KG's parent folder)
  --gold <path>          ck25/text2sparql: official flattened result set to score against (default: recompute on the KG);
                         chatty-dialogue: the gold-answer file (default: ../files_processing/<name>_dialogue.json)
  --ids <path>           lcquad: keep only these ids (one per line)
${STRATEGY_USAGE}
  --llm <provider|replay|oracle|oracle-gold-shape> provider from env (openai, google, openai-compatible), replay (offline),
                         oracle: every LLM role played from the gold SPARQL, writing only what the question and the
                         tools give (a question-grounded CEILING of the non-LLM parts, not a model score), or
                         oracle-gold-shape: the gold's wording and constants copied (not a pipeline ceiling)
  --replay <file>        replies for --llm replay ({ replies: [{ role?, question?, reply }] })
  --mode <m>             single | dialogue | standalone | both (dialogue + standalone, with retention)
  --limit <n>            first n questions (dialogue modes: first n dialogues)
  --concurrency <n>      questions (or dialogues) in flight, default 1
  --out <dir>            default $EVAL_RUNS_DIR/<run-id>/ (EVAL_RUNS_DIR defaults to .data/eval)
  --resume               continue the run in --out, skipping finished questions
  --gold-source <s>      auto | dataset | kg (default auto: dataset answers, else run the gold SPARQL)
  --gold-kg <file|URL>   run the gold SPARQL on this KG instead of --kg (a reference store, e.g. the RDF file an
                         endpoint under test was loaded from, when that engine deviates from the SPARQL spec)
  --price-in <usd> --price-out <usd>   prices per 1M tokens for the cost column
  --check-gold           recompute the gold answers and compare them with the official file (ck25/text2sparql)
  --generated-pool       onboard the KG in memory first (lib/kg/onboarding; template questions, no model) and give strategies
                         its generated examples (with --experience: beside the imported pool) and its KG notes
  --experience           show strategies that use it (explorer, triad) the KG's experience pool (imported with npm run experience);
                         the question being asked is always left out
  --exclude-test-split   with --experience: also leave out every item of this run and every entry imported as split "test"
  --theta <n> --vlimit <n> --query-num <n> --answer-limit <n>   pipeline parameters
${SCORING_USAGE}
${DATASET_USAGE}
${KG_PROFILE_USAGE}`;

/** One line per strategy of a multi-strategy run, on the same questions: the first mode's KG-grounded scores and cost. */
function printComparison(runs: { id: string; result: RunResult }[]): void {
  console.log("\n| strategy | mode | F1 (all) | answered | model knowledge | LLM calls/q | s/q |\n|---|---|---:|---:|---:|---:|---:|");
  for (const { id, result } of runs) {
    for (const s of result.summary.modes) {
      const mk = s.modelKnowledge ? `${s.modelKnowledge.questions} (F1 ${pct(s.modelKnowledge.macro.all.f1)})` : "—";
      console.log(`| ${id} | ${s.mode} | ${pct(s.macro.all.f1)} | ${s.answered}/${s.questions} | ${mk} | ${s.cost.meanLlmCalls.toFixed(1)} | ${(s.cost.meanMs / 1000).toFixed(2)} |`);
    }
  }
}

/** "IIS-Q/ck25_answers.json": the file and its folder, enough to tell replays apart. */
function replayName(file: string): string {
  const abs = path.resolve(file);
  return `${path.basename(path.dirname(abs))}/${path.basename(abs)}`;
}

const pct = (x: number) => (x * 100).toFixed(1);

/** The run's scores per mode under its scoring, row-limit hits, and the agreement with a published evaluation. */
function printScores(r: RunResult): void {
  const scoring = r.config.scoring ?? "items";
  console.log(`scoring: ${SCORING_LABELS[scoring]}${scoring === "text2sparql" ? `; values compared ${r.config.valueComparison ?? "exact"}` : ""}`);
  for (const s of r.summary.modes) {
    const a = s.macro.all;
    const o = s.macro.answeredOnly;
    const official = a.ndcg !== undefined ? ` · ndcg ${pct(a.ndcg)} · set_F_ndcg ${pct(a.f1Ndcg ?? 0)}` : "";
    console.log(
      `${s.mode}: F1 ${pct(a.f1)} (all ${a.n}) · ${pct(o.f1)} (answered ${o.n}) · P ${pct(a.precision)} · R ${pct(a.recall)}${official} · P@1 ${pct(a.p1)} · MRR ${pct(a.mrr)} · Hit@5 ${pct(a.hit5)} · ${(s.cost.meanMs / 1000).toFixed(2)} s/question`,
    );
  }
  for (const s of r.summary.modes) if (s.byLanguage) console.log(`${s.mode} by language:\n${languageTableLines(s, r.comparison?.languageAverages).join("\n")}`);
  const cut = r.questions.filter((q) => q.rowLimit);
  if (cut.length) console.log(`row limit (${r.config.pipeline.rowLimit}) reached, answers may be cut: ${cut.map((q) => q.id).join(", ")}`);
  const c = r.comparison;
  if (c) {
    const avg = c.officialAverage ? `official average F1 ${pct(c.officialAverage.f1)}, ours ${pct(r.summary.modes[0]?.macro.all.f1 ?? 0)} (Δ ${((r.summary.modes[0]?.macro.all.f1 ?? 0) * 100 - c.officialAverage.f1 * 100).toFixed(2)} points); ` : "";
    console.log(`vs ${c.file}: ${avg}per-question F1 equal on ${c.equal}/${c.compared}`);
    for (const d of c.differing) {
      const ours = d.ours ? `F1 ${d.ours.f1.toFixed(4)} (P ${d.ours.precision.toFixed(4)}, R ${d.ours.recall.toFixed(4)}${d.ours.ndcg !== undefined ? `, ndcg ${d.ours.ndcg.toFixed(4)}` : ""})` : "not scored";
      console.log(`  ≠ ${d.id}: official F1 ${d.official.f1.toFixed(4)} (P ${d.official.precision.toFixed(4)}, R ${d.official.recall.toFixed(4)}${d.official.ndcg !== undefined ? `, ndcg ${d.official.ndcg.toFixed(4)}` : ""}) · ours ${ours}`);
    }
  }
}

const usageError = (message: string) => new AppError("bad_request", `${message}\n\n${USAGE}`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      dataset: { type: "string" },
      suite: { type: "string" },
      file: { type: "string" },
      gold: { type: "string" },
      ids: { type: "string" },
      kg: { type: "string" },
      llm: { type: "string" },
      replay: { type: "string" },
      mode: { type: "string" },
      limit: { type: "string" },
      concurrency: { type: "string", default: "1" },
      out: { type: "string" },
      resume: { type: "boolean", default: false },
      "gold-source": { type: "string", default: "auto" },
      "gold-kg": { type: "string" },
      "price-in": { type: "string" },
      "price-out": { type: "string" },
      "check-gold": { type: "boolean", default: false },
      experience: { type: "boolean", default: false },
      "generated-pool": { type: "boolean", default: false },
      "exclude-test-split": { type: "boolean", default: false },
      theta: { type: "string" },
      vlimit: { type: "string" },
      "query-num": { type: "string" },
      "answer-limit": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
      ...SCORING_OPTIONS,
      ...DATASET_OPTIONS,
      ...STRATEGY_OPTIONS,
      ...KG_PROFILE_OPTIONS,
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.suite !== undefined) return runSuite(values, usageError);
  const dataset = values.dataset;
  if (!dataset) throw usageError("Missing --dataset (or --suite <manifest.tsv>).");
  if (!isDatasetName(dataset)) throw usageError(`Unknown dataset "${dataset}". Available: ${DATASETS.join(", ")}.`);
  if (!values.kg) throw usageError("Missing --kg (RDF file(s) or an http(s) SPARQL endpoint URL).");
  const kgArg = values.kg;
  // why: a bad profile flag is reported before the dataset loads or any LLM is set up
  const kgSpec = kgSpecFromArgs(kgArg, values);
  const scoringArgs = parseScoringArgs(values, dataset);
  const replay = scoringArgs.queries ? readQueriesFile(scoringArgs.queries) : undefined;
  if (replay && values.llm) throw usageError("--queries replays a system's SPARQL: it takes no --llm.");
  const file = values.file ?? (dataset === "ck25" ? defaultCk25File(kgArg) : undefined);
  if (!file) throw usageError(dataset === "ck25" ? "No --file given and no questions.yml found beside the KG's parent folder." : "Missing --file.");
  const int = (name: string, v: string | undefined, min = 1) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw usageError(`--${name} must be an integer ≥ ${min} (got "${v}").`);
    return n;
  };
  const limit = int("limit", values.limit) ?? null;
  const concurrency = int("concurrency", values.concurrency)!;

  const load = loadItems(dataset, file, { goldFile: dataset === "chatty-dialogue" ? values.gold : undefined, idsFile: values.ids, strict: values.strict });
  let items = load.items;
  const officialFile = dataset === "ck25" || dataset === "text2sparql" ? (values.gold ?? (dataset === "ck25" ? defaultCk25ResultSet(kgArg) : undefined)) : undefined;

  if (values["check-gold"]) {
    if (!officialFile) throw usageError("--check-gold needs the official result set: pass --gold <…_true_result_set.json>.");
    const official = readText2SparqlResultSet(officialFile);
    const kg = await openKg(kgSpec);
    try {
      const report = await checkGold(kg, limit ? items.slice(0, limit) : items, official.byId);
      for (const c of report.checks.filter((c) => !c.ok)) {
        const detail = c.error ?? `official ${c.officialSize} values, computed ${c.computedSize}; missing ${JSON.stringify(c.missing)}; extra ${JSON.stringify(c.extra)}`;
        console.log(`✗ ${c.id}: ${detail}`);
      }
      console.log(`gold reproduced: ${report.reproduced}/${report.total}`);
      return 0;
    } finally {
      await kg.close();
    }
  }

  const hasDialogues = items.some((i) => i.dialogueId !== undefined);
  const modeArg = values.mode ?? (hasDialogues ? "dialogue" : "single");
  if (modeArg !== "both" && !(RUN_MODES as readonly string[]).includes(modeArg)) throw usageError(`--mode must be single, dialogue, standalone or both (got "${modeArg}").`);
  const modes: RunMode[] = modeArg === "both" ? ["dialogue", "standalone"] : [modeArg as RunMode];
  if (limit) {
    if (modes.includes("dialogue") || modes.includes("standalone")) {
      const keep = new Set([...new Set(items.map((i) => i.dialogueId ?? i.id))].slice(0, limit));
      items = items.filter((i) => keep.has(i.dialogueId ?? i.id));
    } else items = items.slice(0, limit);
  }
  items = itemsWithTranslations(items, values.translations);
  const asked = itemsInLanguage(items, values["question-lang"]);
  items = asked.items;
  // scoring against the official file instead of recomputed answers
  const official = officialFile && values.gold ? itemsWithOfficialGold(items, officialFile, values.strict) : undefined;
  if (official) items = official.items;
  const goldSource = values["gold-source"];
  if (goldSource !== "auto" && goldSource !== "dataset" && goldSource !== "kg") throw usageError(`--gold-source must be auto, dataset or kg.`);
  const priceIn = values["price-in"] === undefined ? undefined : Number(values["price-in"]);
  const priceOut = values["price-out"] === undefined ? undefined : Number(values["price-out"]);
  const prices = priceIn !== undefined || priceOut !== undefined ? { inputPerMTok: priceIn ?? 0, outputPerMTok: priceOut ?? 0 } : null;

  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const strategyIds = strategyIdsFromArg(values.strategy);
  const config = pipelineConfigSchema.parse({
    ...strategyConfigFromArgs(values),
    strategy: strategyIds[0],
    theta: num(values.theta),
    vlimit: num(values.vlimit),
    queryNum: num(values["query-num"]),
    answerLimit: num(values["answer-limit"]),
    rowLimit: scoringArgs.rowLimit,
  });
  // a replay runs the given queries instead of a strategy; otherwise every strategy asked for, in order
  const strategies: EvalStrategy[] =
    replay && scoringArgs.queries
      ? [createQueryReplayStrategy(new Map(items.flatMap((i) => { const q = queryForItem(replay, i); return q === undefined ? [] : [[i.id, q] as const]; })), `Replay of ${replayName(scoringArgs.queries)}`)]
      : strategyIds.map((id) => getStrategy(id));

  // The LLM is settled before the KG loads: a missing key is reported at once.
  let llm: LlmGateway;
  let llmInfo: { provider: string; model: string };
  let oracleKind: OracleKind | undefined;
  if (replay) {
    // why: a replay calls no model; an empty scripted gateway stands in for the run-level one
    llm = createScriptedLlm({}).gateway;
    llmInfo = { provider: "none", model: "no model (replayed queries)" };
  } else {
    ({ llm, llmInfo, oracleKind } = setupEvalLlm(values, strategies, items.some((i) => i.goldSparql), usageError));
    if (oracleKind) items = withGoldShape(items);
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, "-").replace(/Z$/, "");
  const several = strategies.length > 1;
  // Same folder the app's evaluation page reads (EVAL_RUNS_DIR), so a CLI run shows up there.
  const runsDir = process.env.EVAL_RUNS_DIR?.trim() || path.join(".data", "eval");
  const runs = strategies.map((strategy) => {
    const runId = `${dataset}-${strategy.id}-${stamp}`;
    return { strategy, runId, outDir: outDirFor(strategy.id, runId, values.out, several, runsDir) };
  });
  if (values.resume && !values.out) throw usageError("--resume needs --out <the run's folder>.");

  const kg = await openKg(kgSpec);
  // no profile flags for the gold KG: it only runs the gold queries (the oracle reads labels from the KG under test)
  const goldKg = values["gold-kg"] ? await openKg(parseKgArg(values["gold-kg"])).catch(async (e: unknown) => {
    await kg.close();
    throw e;
  }) : undefined;
  const abort = new AbortController();
  process.once("SIGINT", () => {
    console.error(`\ninterrupted: finishing the questions in flight; resume with --resume --out ${values.out ?? runs[0].outDir}`);
    abort.abort();
  });
  try {
    await kg.ask("ASK { ?s ?p ?o }", { timeoutMs: 15_000 });
    await goldKg?.ask("ASK { ?s ?p ?o }", { timeoutMs: 15_000 });
    const similarity = await createSimilarity(embeddingConfigFromEnv());
    if (similarity.warning) console.error(`note: ${similarity.warning}`);
    let experienceFor: ((item: BenchmarkItem) => ExperienceSource) | undefined;
    const experience: RunExperience = {};
    if (values.experience) {
      const pool = await readImportedPool(experienceKgKey(kg.info.id));
      const guard = { dataset, items, excludeTestSplit: values["exclude-test-split"] };
      console.error(`note: experience pool of ${experienceKgKey(kg.info.id)}: ${pool.length} entries; each question sees ${guard.excludeTestSplit ? "none of this run's items nor the test split" : "all but itself"}`);
      experienceFor = (item) => guardedSource(item, pool, guard);
      experience.imported = { pool: experienceKgKey(kg.info.id), entries: pool.length, excludeTestSplit: Boolean(guard.excludeTestSplit) };
    } else if (values["exclude-test-split"]) throw usageError("--exclude-test-split needs --experience.");
    let kgNotes: KgNotesSource | undefined;
    if (values["generated-pool"]) {
      const generated = await generatedPool(kg, (l) => console.error(l));
      experienceFor = generated.experienceFor(experienceFor);
      kgNotes = generated.kgNotes;
      experience.generated = generated.record;
    }
    const done: { id: string; label: string; out: Awaited<ReturnType<typeof runBenchmark>> }[] = [];
    for (const { strategy, runId, outDir } of runs) {
      if (abort.signal.aborted) break;
      const runConfig = replay ? config : { ...config, strategy: strategy.id as PipelineConfig["strategy"] };
      if (several) console.log(`\n== ${strategy.label} (${strategy.id}) ==`);
      const out = await runBenchmark(
        {
          items,
          modes,
          config: runConfig,
          outDir,
          runId,
          concurrency,
          resume: values.resume,
          goldSource,
          prices,
          scoring: scoringArgs.scoring,
          valueComparison: scoringArgs.valueComparison,
          ...(scoringArgs.officialEval ? { official: readOfficialEval(scoringArgs.officialEval) } : {}),
          meta: {
            dataset,
            file: path.resolve(file),
            kg: kgArg,
            limit,
            llm: llmInfo,
            kgProfileFlags: { profile: values.profile, "label-predicates": values["label-predicates"], lang: values.lang, "label-search": values["label-search"] },
            ...(values["gold-kg"] ? { goldKg: values["gold-kg"] } : {}),
            ...(replay && scoringArgs.queries ? { queries: { file: path.resolve(scoringArgs.queries), count: replay.queries.size } } : {}),
            ...(experience.imported || experience.generated ? { experience } : {}),
            load: runLoad(load, { officialSkipped: official?.skipped, questionLang: values["question-lang"], languages: asked.languages }),
          },
          signal: abort.signal,
          onProgress: createProgressPrinter(),
        },
        { strategy, kg, llm, similarity, ...(goldKg ? { goldKg } : {}), ...(experienceFor ? { experienceFor } : {}), ...(kgNotes ? { kgNotes } : {}), ...(oracleKind ? { llmFor: (item: BenchmarkItem, signal?: AbortSignal): Promise<LlmGateway> => oracleFor(strategy.id, oracleKind)(item, kg, runConfig, signal) } : {}) },
      );
      if (out.resumed > 0) console.error(`resumed: ${out.resumed} questions taken from ${out.checkpointFile}`);
      printScores(out.result);
      for (const s of out.result.summary.modes) if (s.oracle) console.log(`${s.mode}: ${oracleCountsLine(s.oracle)}`);
      const toolCalls = out.result.questions.map((q) => q.trace.toolCalls).filter((n): n is number => n !== undefined);
      if (toolCalls.length) {
        const mean = toolCalls.reduce((a, b) => a + b, 0) / out.result.questions.length;
        console.log(`tool calls per question: ${mean.toFixed(1)} mean over ${out.result.questions.length} (max ${Math.max(...toolCalls)})`);
      }
      if (out.result.summary.retention !== null) console.log(`retention: ${(out.result.summary.retention * 100).toFixed(1)}%`);
      console.log(`result: ${out.resultFile}\nsummary: ${out.summaryFile}`);
      done.push({ id: strategy.id, label: strategy.label, out });
    }
    if (several) printComparison(done.map((d) => ({ id: d.id, result: d.out.result })));
    return done.length === runs.length && done.every((d) => d.out.result.complete) ? 0 : 1;
  } finally {
    await kg.close();
    await goldKg?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    const err = toAppError(e);
    console.error(`error [${err.code}]: ${err.message}`);
    process.exit(["llm_not_configured", "bad_request", "not_found"].includes(err.code) ? 2 : 1);
  },
);
