// End to end: the Chatty-KG strategy with a replay model over a tiny KG (embedded and behind a SPARQL endpoint).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { chattyKgStrategy } from "@/lib/pipeline/chatty-kg/strategy";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { DEFAULT_CONFIG, type DerivationEvent, type Strategy, type TurnResult } from "@/lib/pipeline/types";
import { startSparqlEndpoint, type TestSparqlEndpoint } from "@/test/helpers/sparql-endpoint";
import { readJsonl } from "./datasets/jsonl";
import { createReplayLlm } from "./replay-llm";
import { runResultSchema, type RunMode } from "./result-schema";
import { readCheckpoint, runBenchmark, type EvalStrategy, type Progress } from "./runner";
import type { BenchmarkItem } from "./types";

const FX = path.join(process.cwd(), "test/fixtures/eval");
const TINY = path.join(FX, "tiny.ttl");

function options(items: BenchmarkItem[], outDir: string, modes: RunMode[] = ["single"], extra: Partial<Parameters<typeof runBenchmark>[0]> = {}) {
  return {
    items,
    modes,
    config: DEFAULT_CONFIG,
    outDir,
    runId: "test-run",
    meta: { dataset: "jsonl", file: "x.jsonl", kg: TINY, limit: null, llm: { provider: "replay", model: "replay.json" } },
    ...extra,
  };
}

describe("runBenchmark on the embedded store", () => {
  let kg: KnowledgeGraph;
  beforeAll(async () => {
    kg = await openKg({ kind: "files", paths: [TINY] });
  });
  afterAll(async () => kg?.close());
  const deps = (replay = "replay.json", strategy: Strategy = chattyKgStrategy) => ({
    strategy,
    kg,
    llm: createReplayLlm(path.join(FX, replay)).gateway,
    similarity: createLexicalSimilarity(),
  });

  it("answers 3 questions, scores them against dataset and recomputed gold, writes result.json and summary.md", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-run-"));
    const progress: Progress[] = [];
    const items = readJsonl(path.join(FX, "single.jsonl"));
    const run = await runBenchmark({ ...options(items, out), concurrency: 2, prices: { inputPerMTok: 1, outputPerMTok: 2 }, onProgress: (p) => progress.push(p) }, deps());

    const file = runResultSchema.parse(JSON.parse(readFileSync(run.resultFile, "utf8")));
    expect(file.complete).toBe(true);
    // the KG's effective profile is recorded; a result.json from before that field existed still reads
    expect(file.config.kgProfile).toEqual({ flags: {}, effective: JSON.parse(JSON.stringify(kg.profile)) });
    const { kgProfile: _recorded, ...olderConfig } = file.config;
    expect(runResultSchema.parse({ ...file, config: olderConfig }).config.kgProfile).toBeUndefined();
    expect(file.questions.map((q) => [q.id, q.metrics?.f1, q.source])).toEqual([
      ["hobbit", 1, "kg"],
      ["neuromancer", 1, "kg"],
      ["dune-ask", 1, "kg"],
    ]);
    // gold of "hobbit" came from running its gold SPARQL on the KG; the ASK is typed boolean
    expect(file.questions[0].gold).toEqual({ kind: "items", items: [{ type: "uri", value: "http://example.org/eval/Tolkien" }] });
    expect(file.questions[0].sparql[0]).toContain("<http://example.org/eval/author>");
    expect(file.questions[2]).toMatchObject({ type: "boolean", answer: { kind: "boolean", value: true } });
    expect(file.questions[0].trace).toMatchObject({ llmCalls: 2, queries: expect.any(Number) });
    expect(file.questions[0].trace.stageMs.qir).toBeGreaterThanOrEqual(0);
    const mode = file.summary.modes[0];
    expect(mode.macro.all).toMatchObject({ n: 3, f1: 1, p1: 1 });
    expect(mode.byFeature.ASK.all.n).toBe(1);
    expect(mode.cost.llmCalls).toBe(6);
    expect(mode.cost.cost).toBeCloseTo((mode.cost.tokensIn + 2 * mode.cost.tokensOut) / 1e6);
    expect(file.llm).toEqual({ provider: "replay", model: "replay.json" });

    const md = readFileSync(run.summaryFile, "utf8");
    expect(md).toContain("| overall (all questions) | 3 | 100.0 | 100.0 | 100.0 |");
    expect(md).toContain("| single:dune-ask | Is Frank Herbert the author of Dune? | 100.0 | yes |");
    expect(progress.at(-1)).toMatchObject({ done: 3, total: 3, ranNow: 3 });
    expect(readCheckpoint(run.checkpointFile)).toHaveLength(3);
  });

  it("runs the gold SPARQL on goldKg when one is given (a reference store for an engine that deviates)", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-run-"));
    const items = readJsonl(path.join(FX, "single.jsonl")).filter((i) => i.id === "hobbit");
    const goldQueries: string[] = [];
    const goldKg: KnowledgeGraph = { ...kg, query: (q, o) => (goldQueries.push(q), kg.query(q, o)) };
    const run = await runBenchmark({ ...options(items, out), meta: { ...options(items, out).meta, goldKg: "reference.ttl" } }, { ...deps(), goldKg });
    const file = runResultSchema.parse(JSON.parse(readFileSync(run.resultFile, "utf8")));
    expect(goldQueries).toEqual([items[0].goldSparql]);
    expect(file.config.goldKg).toBe("reference.ttl");
    expect(file.questions[0].metrics?.f1).toBe(1);
  });

  it("resumes: questions in the checkpoint are not run again, and a cut-off line is run again", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-resume-"));
    const items = readJsonl(path.join(FX, "single.jsonl"));
    const first = await runBenchmark(options(items.slice(0, 2), out), deps());
    // a crash mid-write leaves a partial line behind
    writeFileSync(first.checkpointFile, readFileSync(first.checkpointFile, "utf8") + '{"key":"single:dune-a');
    const asked: string[] = [];
    const spy: Strategy = { ...chattyKgStrategy, run: (input, d) => (asked.push(input.question), chattyKgStrategy.run(input, d)) };
    const second = await runBenchmark({ ...options(items, out), resume: true }, deps("replay.json", spy));
    expect(asked).toEqual(["Is Frank Herbert the author of Dune?"]);
    expect(second.resumed).toBe(2);
    expect(second.result.questions.map((q) => q.id)).toEqual(["hobbit", "neuromancer", "dune-ask"]);
    expect(second.result.runId).toBe("test-run");
    expect(second.result.complete).toBe(true);
  });

  it("records a failed stage as the failure reason and scores it 0", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-fail-"));
    const items = readJsonl(path.join(FX, "dialogue.jsonl")).filter((i) => i.id === "dune.1");
    // replay.json has no reply for this question: the Chat agent's call fails
    const run = await runBenchmark(options(items, out, ["standalone"]), deps("replay.json"));
    const q = run.result.questions[0];
    expect(q).toMatchObject({ source: "failed", metrics: { f1: 0, answered: false }, failure: "understanding" });
    expect(q.trace.error?.message).toMatch(/no reply for role "chat"/);
    expect(run.result.summary.modes[0].failures).toEqual({ understanding: 1 });
  });
});

describe("row limit and scoring in the result", () => {
  let kg: KnowledgeGraph;
  beforeAll(async () => {
    kg = await openKg({ kind: "files", paths: [TINY] });
  });
  afterAll(async () => kg?.close());

  it("records a question whose query reached the row limit, and says so in summary.md with the scoring used", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-rowlimit-"));
    const items = readJsonl(path.join(FX, "single.jsonl")).slice(0, 2);
    // a strategy whose first question reaches the row limit (the warning the shared converter emits)
    const cutting: EvalStrategy = {
      id: "cutting",
      label: "Cutting",
      run: (input) =>
        streamEvents<DerivationEvent, TurnResult>(async (emit) => {
          if (input.item.id === "hobbit") emit({ type: "warning", stage: "execution", code: "row-limit", message: "The query returned 2 rows, the row limit (2)" });
          else emit({ type: "warning", stage: "relation-linking", code: "budget", message: "A sample was stopped at its time limit (20 s)" });
          emit({ type: "warning", stage: "execution", message: "an unrelated warning" });
          return { answer: { kind: "none", reason: "x" }, source: "none", sparql: [], stats: { ms: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 0, stageMs: {} } };
        }),
    };
    const run = await runBenchmark({ ...options(items, out), config: { ...DEFAULT_CONFIG, rowLimit: 2 }, scoring: "text2sparql" }, { strategy: cutting, kg, llm: createReplayLlm(path.join(FX, "replay.json")).gateway, similarity: createLexicalSimilarity() });
    expect(run.result.questions.map((q) => q.rowLimit ?? null)).toEqual(["The query returned 2 rows, the row limit (2)", null]);
    expect(run.result.config).toMatchObject({ scoring: "text2sparql", valueComparison: "exact", pipeline: { rowLimit: 2 } });
    const md = readFileSync(run.summaryFile, "utf8");
    expect(md).toContain("- scoring: TEXT2SPARQL official");
    expect(md).toContain("- row limit of generated queries: 2 (**reached** by hobbit: those answers may be cut)");
    // a turn whose KG call was cut is recorded and named in the summary
    expect(run.result.questions.map((q) => q.kgCuts ?? null)).toEqual([null, ["relation-linking: A sample was stopped at its time limit (20 s)"]]);
    expect(md).toContain(`- KG calls cut by a timeout or the turn's KG budget: in ${run.result.questions[1].id}`);
  });
});

describe("dialogues against a SPARQL endpoint (remote KG path)", () => {
  let endpoint: TestSparqlEndpoint;
  let kg: KnowledgeGraph;
  beforeAll(async () => {
    endpoint = await startSparqlEndpoint({ turtle: readFileSync(TINY, "utf8") });
    kg = await openKg({ kind: "endpoint", url: endpoint.url });
  });
  afterAll(async () => {
    await kg?.close();
    await endpoint?.close();
  });

  it("carries the conversation turn by turn, runs the standalone rewrites alone, and reports retention", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-dialogue-"));
    const items = readJsonl(path.join(FX, "dialogue.jsonl"));
    const seen: { question: string; history: string[] }[] = [];
    const spy: Strategy = {
      ...chattyKgStrategy,
      run: (input, d) => (seen.push({ question: input.question, history: input.dialogue.map((t) => t.question) }), chattyKgStrategy.run(input, d)),
    };
    const run = await runBenchmark(options(items, out, ["dialogue", "standalone"]), {
      strategy: spy,
      kg,
      llm: createReplayLlm(path.join(FX, "replay-dialogue.json")).gateway,
      similarity: createLexicalSimilarity(),
    });
    expect(seen).toContainEqual({ question: "When was he born?", history: ["Who wrote Dune?"] });
    expect(seen).toContainEqual({ question: "When was Frank Herbert born?", history: [] });
    const byKey = Object.fromEntries(run.result.questions.map((q) => [q.key, q]));
    expect(byKey["dialogue:dune.1"]).toMatchObject({ understoodAs: "When was Frank Herbert born?", metrics: { f1: 1 } });
    expect(byKey["dialogue:emma.1"]).toMatchObject({ answer: { kind: "boolean", value: false }, metrics: { f1: 1 } });
    expect(run.result.summary.modes.map((m) => [m.mode, m.macro.all.f1])).toEqual([
      ["dialogue", 1],
      ["standalone", 1],
    ]);
    expect(run.result.summary.retention).toBe(1);
    expect(run.result.kg.kind).toBe("remote");
    // the queries really went over HTTP
    expect(endpoint.requests.length).toBeGreaterThan(10);
  });
});
