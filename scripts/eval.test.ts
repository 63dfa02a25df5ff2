// The eval CLI as a user runs it: exit code 2 with a clear message for bad input, a full replay run, and --check-gold.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PROFILE_PRESETS } from "@/lib/kg/profile";
import { runResultSchema } from "@/lib/eval/result-schema";

const run = promisify(execFile);
const TSX = path.join(process.cwd(), "node_modules/.bin/tsx");
const FX = "test/fixtures/eval";
// no provider keys: "no LLM configured" must be reported, not guessed around
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

describe("npm run eval", () => {
  it("exits 2 for an unknown dataset, a missing file and no LLM configured", async () => {
    const unknown = await evalCli(["--dataset", "nope", "--kg", `${FX}/tiny.ttl`, "--file", `${FX}/single.jsonl`]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown dataset "nope"/);
    const missing = await evalCli(["--dataset", "jsonl", "--kg", `${FX}/tiny.ttl`, "--file", `${FX}/missing.jsonl`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Dataset file not found: .*missing\.jsonl/);
    const noLlm = await evalCli(["--dataset", "jsonl", "--kg", `${FX}/tiny.ttl`, "--file", `${FX}/single.jsonl`]);
    expect(noLlm.code).toBe(2);
    expect(noLlm.stderr).toMatch(/No LLM is configured/);
  }, 120_000);

  it("exits 2 naming the field for a bad --profile file, and runs with a valid one", async () => {
    const bad = await evalCli(["--dataset", "jsonl", "--kg", `${FX}/tiny.ttl`, "--file", `${FX}/single.jsonl`, "--profile", "test/fixtures/cli/bad-profile.json"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid profile file .*bad-profile\.json: labelPredicates\.0 must be an absolute IRI/);
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const ok = await evalCli(["--dataset", "jsonl", "--file", `${FX}/single.jsonl`, "--kg", `${FX}/tiny.ttl`, "--llm", "replay", "--replay", `${FX}/replay.json`, "--out", out, "--profile", "dbpedia", "--label-search", "index"]);
    expect(ok.stderr).not.toMatch(/error \[/);
    expect(ok.code).toBe(0);
    // the flags as typed and the profile they gave the KG are in result.json and in summary.md's header
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    expect(result.config.kgProfile?.flags).toEqual({ profile: "dbpedia", "label-search": "index" });
    expect(result.config.kgProfile?.effective.labelSearch).toBe("index");
    expect(result.config.kgProfile?.effective.labelPredicates).toEqual(PROFILE_PRESETS.dbpedia.profile.labelPredicates);
    const summary = readFileSync(path.join(out, "summary.md"), "utf8");
    expect(summary).toContain("- KG profile flags: `--profile dbpedia --label-search index`");
    expect(summary).toMatch(/- KG profile used: label search index · language en · labels /);
  }, 120_000);

  it("runs a benchmark with the replay model and writes the result under --out", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const r = await evalCli(["--dataset", "jsonl", "--file", `${FX}/single.jsonl`, "--kg", `${FX}/tiny.ttl`, "--llm", "replay", "--replay", `${FX}/replay.json`, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/single: F1 100\.0 \(all 3\)/);
    expect(r.stderr).toMatch(/3\/3/);
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    expect(result.questions).toHaveLength(3);
    // no profile flag: recorded as none, with the embedded store's default profile
    expect(result.config.kgProfile?.flags).toEqual({});
    expect(result.config.kgProfile?.effective).toMatchObject({ labelSearch: "index", labelPredicates: expect.arrayContaining(["http://www.w3.org/2000/01/rdf-schema#label"]) });
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toContain("- KG profile flags: none");
    expect(result.config.experience).toBeUndefined();
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toContain("- experience: none (no solved examples shown)");
  }, 120_000);

  it("--generated-pool: the KG is onboarded first and the run says so (result.json, summary.md), unlike an empty-pool run", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const args = ["--dataset", "jsonl", "--file", "kg/music-questions.jsonl", "--kg", "kg/music.ttl", "--mode", "single", "--limit", "2"];
    const r = await evalCli([...args, "--strategy", "one-call", "--llm", "oracle", "--generated-pool", "--out", out]);
    expect(r.stderr).not.toMatch(/error \[/);
    expect(r.code).toBe(0);
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    const examples = Number(/generated pool: (\d+) examples/.exec(r.stderr)?.[1]);
    expect(examples).toBeGreaterThan(0);
    expect(result.config.experience?.generated).toMatchObject({ examples, status: "done" });
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toContain(`- experience: a generated pool (${examples} examples from onboarding the KG in`);
  }, 120_000);

  it("runs RAGONITE (--strategy ragonite): SQL over the induced database, answers scored like any strategy", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const r = await evalCli(["--dataset", "jsonl", "--file", `${FX}/single.jsonl`, "--kg", `${FX}/tiny.ttl`, "--strategy", "ragonite", "--llm", "replay", "--replay", `${FX}/replay-ragonite.json`, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/single: F1 100\.0 \(all 3\)/);
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    expect(result.strategy.id).toBe("ragonite");
    const hobbit = result.questions.find((q) => q.id === "hobbit");
    expect(hobbit?.answer).toMatchObject({ kind: "items", items: [{ type: "uri", value: "http://example.org/eval/Tolkien" }], citations: expect.arrayContaining([expect.objectContaining({ kind: "sql-row" })]) });
  }, 120_000);

  it("replays a queries file without any LLM configured, scoring under the chosen scoring, the rejected query recorded", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const r = await evalCli(["--dataset", "jsonl", "--file", `${FX}/single.jsonl`, "--kg", `${FX}/tiny.ttl`, "--queries", `${FX}/queries/tiny.json`, "--out", out, "--scoring", "text2sparql"]);
    expect(r.stderr).not.toMatch(/error \[/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/scoring: TEXT2SPARQL official .*values compared exact/);
    // hobbit: book + author returned, gold = author (P 1/2); neuromancer exact; the ASK has a syntax error
    expect(r.stdout).toMatch(/single: F1 55\.6 \(all 3\)/);
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    expect(result.strategy).toEqual({ id: "query-replay", label: "Replay of queries/tiny.json" });
    expect(result.config.queries).toEqual({ file: path.resolve(`${FX}/queries/tiny.json`), count: 3 });
    expect(result.questions[2].trace.error?.code).toBe("sparql_syntax");
    expect(result.questions[0].answer).toMatchObject({ kind: "table", columns: ["book", "a"] });
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toContain("- replay: the 3 queries of ");
    const bad = await evalCli(["--dataset", "jsonl", "--file", `${FX}/single.jsonl`, "--kg", `${FX}/tiny.ttl`, "--queries", `${FX}/queries/scalar.json`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/scalar\.json is not a queries file/);
  }, 120_000);

  it("--question-lang all: every language its own item (<id>-<lang>), scored as the official client incl. its per-language table", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const L = `${FX}/languages`;
    const r = await evalCli(["--dataset", "text2sparql", "--file", `${L}/questions.yml`, "--kg", `${FX}/tiny.ttl`, "--queries", `${L}/answers.json`, "--gold", `${L}/result_set_2026.json`, "--question-lang", "all", "--out", out]);
    expect(r.stderr).not.toMatch(/error \[/);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/well-known prefixes declared in 1 gold queries \(rdfs: 1\)/);
    expect(r.stderr).toMatch(/lx:9-en: not a \{ value: number \} result/);
    // 1-en, 2-en, 3-en right; 1-de wrong; 2-de has no query (empty, as the client scores a missing qname); ndcg on q2 only
    expect(r.stdout).toMatch(/single: F1 60\.0 \(all 5\).* ndcg 50\.0 · set_F_ndcg 58\.3/);
    expect(r.stdout).toMatch(/^\| en \| 3 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \/ 56\.3 \|$/m);
    expect(r.stdout).toMatch(/^\| de \| 2 \| 0\.0 \| 0\.0 \| 0\.0 \| 0\.0 \| 0\.0 \| 0\.0 \/ 56\.3 \|$/m);
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(out, "result.json"), "utf8")));
    expect(result.questions.map((q) => `${q.id}:${q.lang}`)).toEqual(["lx:1-en:en", "lx:1-de:de", "lx:2-en:en", "lx:2-de:de", "lx:3-en:en"]);
    expect(result.questions[1].question).toBe("Wer hat Dune geschrieben?");
    expect(result.questions[0].metrics?.f1).toBe(1); // the first of two queries named lx:1-en counts
    expect(result.config.load).toMatchObject({ goldPrefixesDeclared: 1, questionLang: "all", languages: ["en", "de"] });
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toMatch(/### By language[\s\S]*\| en \| 3 \|/);
  }, 120_000);

  it("runs a QALD file with one malformed answer (that record reported), and refuses it with --strict", async () => {
    const args = ["--dataset", "qald", "--file", `${FX}/qald-one-bad.json`, "--kg", `${FX}/tiny.ttl`, "--queries", `${FX}/queries/qald-one-bad.json`];
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const r = await evalCli([...args, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/1 record\(s\) of .*qald-one-bad\.json cannot be read and are not run:\n {2}2: answers\.0\.results\.bindings\.0\.a\.type: /);
    expect(r.stdout).toMatch(/single: F1 100\.0 \(all 2\)/);
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toContain("- dataset load: 1 unreadable record(s) not run (2: answers.0");
    const strict = await evalCli([...args, "--strict"]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/cannot be read \(--strict\): 2: answers\.0/);
  }, 120_000);

  it("runs several strategies on the same questions with --llm oracle, one result each, and prints them side by side", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
    const args = ["--dataset", "jsonl", "--file", "kg/music-questions.jsonl", "--kg", "kg/music.ttl", "--profile", "kg/music.profile.json", "--mode", "single", "--limit", "4"];
    const r = await evalCli([...args, "--strategy", "chatty-kg,triad", "--llm", "oracle", "--out", out, "--triad-retries", "1"]);
    expect(r.stderr).not.toMatch(/error \[/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/== Chatty-KG \(chatty-kg\) ==[\s\S]*== Triad \(triad\) ==/);
    expect(r.stdout).toMatch(/^\| chatty-kg \| single \| [\d.]+ \| \d+\/4 \|/m);
    expect(r.stdout).toMatch(/^\| triad \| single \| 100\.0 \| 4\/4 \|/m);
    for (const id of ["chatty-kg", "triad"]) {
      const result = runResultSchema.parse(JSON.parse(readFileSync(`${out}-${id}/result.json`, "utf8")));
      expect(result).toMatchObject({ strategy: { id }, llm: { provider: "oracle" }, config: { pipeline: { strategy: id, triadRetries: 1 } } });
      expect(result.questions.map((q) => q.id)).toEqual(["m01", "m02", "m03", "m04"]);
    }
    const noOracle = await evalCli([...args, "--strategy", "triad,llm-only", "--llm", "oracle"]);
    expect(noOracle.code).toBe(2);
    expect(noOracle.stderr).toMatch(/--llm oracle is not available for strategy "llm-only"/);
  }, 120_000);

  const KG = path.resolve("../shared/data/ck25/graphs/prod-inst.ttl");
  it.skipIf(!existsSync(KG))("--check-gold on CK25 prints gold reproduced: N/50 with N ≥ 46", async () => {
    const r = await evalCli(["--check-gold", "--dataset", "ck25", "--kg", KG]);
    expect(r.code).toBe(0);
    const n = Number(/gold reproduced: (\d+)\/50/.exec(r.stdout)?.[1]);
    expect(n).toBeGreaterThanOrEqual(46);
    expect(r.stdout).toMatch(/✗ ck25:25: official 0 values, computed 1/);
  }, 120_000);
});

describe("npm run eval --strategy explorer", () => {
  it("runs the explorer's oracle, prints the tool calls per question, and the run lists next to a Chatty-KG run", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "eval-explorer-"));
    const common = ["--dataset", "jsonl", "--file", `${FX}/oracle-items.jsonl`, "--kg", `${FX}/oracle-kg.ttl`, "--llm", "oracle"];
    const explorer = await evalCli([...common, "--strategy", "explorer", "--out", path.join(dir, "explorer-run")]);
    expect(explorer.code, explorer.stderr).toBe(0);
    expect(explorer.stdout).toMatch(/^tool calls per question: \d+\.\d mean over \d+ \(max \d+\)$/m);
    expect(explorer.stderr).toMatch(/CEILING/);
    expect(explorer.stdout).toMatch(/^single: oracle: question-grounded ceiling: final queries equal to the gold query \(normalised\) \d+\/\d+ · constants dropped as ungrounded \d+ \(in \d+ questions\) · normalisations used \d+/m);
    const copy = await evalCli([...common.slice(0, -1), "oracle-gold-shape", "--strategy", "explorer", "--out", path.join(dir, "copy-run")]);
    expect(copy.stderr).toMatch(/gold shape copied — not a pipeline ceiling/);
    expect(copy.stdout).toMatch(/^single: oracle: gold shape copied — not a pipeline ceiling: final queries equal to the gold query \(normalised\) \d+\/\d+/m);
    const chatty = await evalCli([...common, "--strategy", "chatty-kg", "--out", path.join(dir, "chatty-run")]);
    expect(chatty.code, chatty.stderr).toBe(0);
    const { createEvalRunStore } = await import("@/lib/server/eval-runs");
    const listed = createEvalRunStore({ dir }).list(null);
    expect(listed.map((r) => (r.status === "ok" ? r.strategy : r.status)).sort()).toEqual(["Chatty-KG", "Explorer", "Explorer"]);
    const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(dir, "explorer-run", "result.json"), "utf8")));
    expect(result.llm.provider).toBe("oracle");
    expect(result.questions.every((q) => (q.trace.toolCalls ?? 0) >= 2)).toBe(true);
  }, 240_000);
});
