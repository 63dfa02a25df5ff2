// Calibration end to end (test/fixtures/eval/calibration): each strategy's question-grounded oracle keeps the
// structural literals of the fleet questions (REGEX flags, IF outputs, a yes/no encoding, listed counts, an existence
// test), says so in its log, and reaches the answer; before the calibration these were dropped and the answers lost.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { getStrategy } from "@/lib/pipeline/registry";
import { DEFAULT_CONFIG, type PipelineConfig } from "@/lib/pipeline/types";
import { readJsonl } from "./datasets/jsonl";
import { oracleFor } from "./oracles";
import { runBenchmark } from "./runner";

const FX = "test/fixtures/eval/calibration";
let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: [`${FX}/fleet.ttl`] });
}, 60_000);
afterAll(async () => kg?.close());

describe.each(["explorer", "triad", "one-call"] as const)("the %s oracle on the calibration fixture", (id) => {
  it("keeps every structural literal, logs it, and answers all six questions exactly", async () => {
    const config: PipelineConfig = { ...DEFAULT_CONFIG, strategy: id };
    const out = await runBenchmark(
      { items: readJsonl(`${FX}/fleet.jsonl`), modes: ["single"], config, outDir: mkdtempSync(path.join(os.tmpdir(), "calibration-")), runId: "t", meta: { dataset: "jsonl", file: "fleet.jsonl", kg: "fleet.ttl", limit: null, llm: { provider: "oracle", model: "question-grounded" } } },
      { strategy: getStrategy(id), kg, llm: createScriptedLlm({}).gateway, similarity: createLexicalSimilarity(), llmFor: (item, signal) => oracleFor(id)(item, kg, config, signal) },
    );
    const q = Object.fromEntries(out.result.questions.map((r) => [r.id, r]));
    expect(Object.fromEntries(Object.entries(q).map(([k, r]) => [k, r.metrics?.f1]))).toEqual({ "regex-flag": 1, "if-output": 1, "yes-no": 1, "listed-average": 1, "listed-both": 1, existence: 1 });
    for (const r of Object.values(q)) expect(r.oracle?.dropped).toEqual([]);
    expect(q["regex-flag"].oracle?.normalisations).toContain('structure: REGEX flags "i"');
    expect(q["if-output"].oracle?.normalisations).toEqual(expect.arrayContaining(['structure: output value of IF "True"', 'structure: output value of IF "False"']));
    expect(q["yes-no"].oracle?.normalisations).toContain('structure: yes/no encoding "yes"');
    expect(q["listed-average"].oracle?.normalisations).toContain('structure: count of the items the question lists "2"');
    expect(q.existence.oracle?.normalisations).toContain('structure: 0 of an existence test "0"');
  }, 60_000);
});
