// `npm run eval -- --suite <manifest.tsv>` as a user runs it: two fixture KGs, one merged result the eval page lists as
// one run, resumable KG by KG, and clear exit-2 errors for a bad manifest.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runResultSchema } from "@/lib/eval/result-schema";
import { createEvalRunStore } from "@/lib/server/eval-runs";

const run = promisify(execFile);
const TSX = path.join(process.cwd(), "node_modules/.bin/tsx");
const MANIFEST = "test/fixtures/eval/suite/manifest.tsv";
const ENV = { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: os.tmpdir(), EMBEDDING_ALLOW_REMOTE: "false", DOTENV_CONFIG_PATH: "/nonexistent" } as const;

async function evalCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, ["scripts/eval.ts", ...args], { env: ENV, cwd: process.cwd(), timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe("npm run eval -- --suite", () => {
  it("runs every KG of the manifest into one result: macro over all questions, per KG, shape and language; resumes KG by KG", async () => {
    const runs = mkdtempSync(path.join(os.tmpdir(), "eval-suite-"));
    const out = path.join(runs, "suite-run");
    const r = await evalCli(["--suite", MANIFEST, "--llm", "oracle", "--strategy", "explorer", "--question-lang", "all", "--out", out]);
    expect(r.stderr).not.toMatch(/error \[/);
    expect(r.code).toBe(0);
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    // harbour: 3 questions, one also in German; orchard: 2
    expect(result.questions.map((q) => q.id)).toEqual(["harbour/harbour:1-en", "harbour/harbour:1-de", "harbour/harbour:2-en", "harbour/harbour:3-en", "orchard/planted-before-2000-en", "orchard/count-trees-en"]);
    expect(result.config.dataset).toBe("suite");
    expect(result.kg.name).toBe("manifest.tsv (2 KGs)");
    expect(result.suite?.kgs.map((k) => [k.db, k.dataset, k.complete])).toEqual([["harbour", "qald", true], ["orchard", "jsonl", true]]);
    const s = result.summary.modes[0];
    expect(s.questions).toBe(6);
    expect(Object.fromEntries(Object.entries(s.byKg ?? {}).map(([k, m]) => [k, m.all.n]))).toEqual({ harbour: 4, orchard: 2 });
    expect(Object.fromEntries(Object.entries(s.byLanguage ?? {}).map(([k, m]) => [k, m.all.n]))).toEqual({ de: 1, en: 5 });
    expect(s.byFeature["gold_shape:count"]?.all.n).toBe(2);
    expect(s.byFeature["gold_shape:order"]?.all.n).toBe(1);
    expect(r.stdout).toMatch(/^\| harbour \| 4 \| \d+ \| [\d.]+ \|/m);
    expect(r.stdout).toMatch(/^\| de \| 1 \|/m);
    // the eval page lists the suite as one run (the per-KG runs live below it, in kgs/<db>/)
    const listed = createEvalRunStore({ dir: runs }).list(null);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: "ok", dataset: "suite", questions: 6 });

    // resume: harbour is done; orchard lost its result and its last question
    const orchard = path.join(out, "kgs", "orchard");
    rmSync(path.join(orchard, "result.json"));
    const lines = readFileSync(path.join(orchard, "checkpoint.jsonl"), "utf8").trim().split("\n");
    writeFileSync(path.join(orchard, "checkpoint.jsonl"), `${lines[0]}\n`);
    const again = await evalCli(["--suite", MANIFEST, "--llm", "oracle", "--strategy", "explorer", "--question-lang", "all", "--out", out, "--resume"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/harbour: done earlier \(4 questions\)/);
    expect(again.stderr).toMatch(/orchard: F1 [\d.]+ \(\d\/2 answered\), 1 resumed/);
    const resumed = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    expect(resumed.runId).toBe(result.runId);
    expect(resumed.questions.map((q) => q.id)).toEqual(result.questions.map((q) => q.id));
  }, 240_000);

  it("exits 2 with the reason for a bad manifest or a flag the manifest replaces", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "eval-suite-bad-"));
    const bad = path.join(dir, "m.tsv");
    writeFileSync(bad, "db\tquestions\nx\tq.json\n");
    const noKg = await evalCli(["--suite", bad, "--llm", "oracle"]);
    expect(noKg.code).toBe(2);
    expect(noKg.stderr).toMatch(/header has no column kg/);
    writeFileSync(bad, "db\tkg\tquestions\nx\tmissing.nt\tq.json\n");
    const missing = await evalCli(["--suite", bad, "--llm", "oracle"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/m\.tsv, line 2: KG file not found: .*missing\.nt/);
    const both = await evalCli(["--suite", MANIFEST, "--kg", "test/fixtures/eval/tiny.ttl", "--llm", "oracle"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/leave out --kg/);
  }, 120_000);
});
