import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { failureReason, scoreQuestion } from "./metrics";
import { runResultSchema, type QuestionRecord, type RunResult } from "./result-schema";
import { summarizeRun } from "./summarize";
import { mergeSuite, suiteTableLines } from "./suite";
import { readSuiteManifest, type SuiteEntry } from "./suite-manifest";
import { poolLabelOf } from "./view-model-list";

const IRI = "http://example.org/x";
function record(id: string, right: boolean, lang?: string): QuestionRecord {
  const gold = { kind: "items" as const, items: [{ type: "uri" as const, value: IRI }] };
  const answer = { kind: "items" as const, items: [{ type: "uri" as const, value: right ? IRI : `${IRI}/other` }] };
  const metrics = scoreQuestion(answer, gold);
  return {
    key: `single:${id}`, id, mode: "single", question: `q ${id}`, ...(lang ? { lang } : {}), type: "factoid", features: [right ? "gold_shape:bgp" : "gold_shape:aggregate"],
    gold, answer, source: "kg", sparql: [], metrics, failure: failureReason({ source: "kg" }, metrics),
    trace: { ms: 1000, llmCalls: 2, tokensIn: 1, tokensOut: 1, queries: 1, stageMs: {} }, finishedAt: "2026-01-01T00:00:00Z",
  };
}

function runOf(id: string, records: QuestionRecord[]): RunResult {
  return runResultSchema.parse({
    version: 1, runId: id, startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:01:00Z", complete: true,
    config: { dataset: "qald", file: `${id}.json`, kg: `${id}.nt`, modes: ["single"], limit: null, concurrency: 1, goldSource: "auto", prices: null, pipeline: { strategy: "explorer" } },
    strategy: { id: "explorer", label: "Explorer" }, llm: { provider: "oracle", model: "m" }, kg: { id, name: id, kind: "embedded" },
    summary: summarizeRun(["single"], records), questions: records,
  });
}

const entry = (db: string): SuiteEntry => ({ db, kg: `/x/${db}.nt`, questions: `/x/${db}.json`, dataset: "qald" });

describe("a suite's one result", () => {
  // three right questions on one KG, one wrong on the other: the macro is over questions (75), not over KGs (50)
  const merged = mergeSuite(
    [
      { entry: entry("big"), result: runOf("big", [record("1", true), record("2", true), record("3", true, "de")]) },
      { entry: entry("small"), result: runOf("small", [record("1", false)]) },
      { entry: entry("broken"), result: null, error: "KG not loaded: bad Turtle" },
    ],
    { manifest: "/x/m.tsv", runId: "suite-1", startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:02:00Z", strategy: { id: "explorer", label: "Explorer" }, llm: { provider: "oracle", model: "m" }, modes: ["single"] },
  );
  const s = merged.summary.modes[0];

  it("averages F1 over all questions of all KGs, with ids that stay unique", () => {
    expect(s.macro.all).toMatchObject({ n: 4, f1: 0.75 });
    expect(merged.questions.map((q) => q.id)).toEqual(["big/1", "big/2", "big/3", "small/1"]);
    expect(new Set(merged.questions.map((q) => q.key)).size).toBe(4);
  });

  it("breaks down per KG, per gold shape and per language (unlabelled questions are the manifest's language, English)", () => {
    expect(s.byKg?.big.all).toMatchObject({ n: 3, f1: 1 });
    expect(s.byKg?.small.all).toMatchObject({ n: 1, f1: 0 });
    expect(s.byFeature["gold_shape:aggregate"].all).toMatchObject({ n: 1, f1: 0 });
    expect(Object.fromEntries(Object.entries(s.byLanguage ?? {}).map(([l, m]) => [l, m.all.n]))).toEqual({ de: 1, en: 3 });
    expect(s.officialByLanguage).toBeUndefined();
  });

  it("records the generated pools of its KGs summed, and none when no KG had one (the eval page's run list shows it)", () => {
    expect(merged.config.experience).toBeUndefined();
    expect(poolLabelOf(merged.config.experience)).toBeNull();
    const withPool = (id: string, examples: number, status: string): RunResult => {
      const r = runOf(id, [record("1", true)]);
      return { ...r, config: { ...r.config, experience: { generated: { examples, ms: 1000, status, notes: true } } } };
    };
    const meta = { manifest: "/x/m.tsv", runId: "suite-2", startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:02:00Z", strategy: { id: "one-call", label: "One call" }, llm: { provider: "oracle", model: "m" }, modes: ["single" as const] };
    const pooled = mergeSuite([{ entry: entry("a"), result: withPool("a", 120, "done") }, { entry: entry("b"), result: withPool("b", 80, "failed") }], meta);
    expect(pooled.config.experience?.generated).toEqual({ examples: 200, ms: 2000, status: "not done on every KG", notes: true });
    expect(poolLabelOf(pooled.config.experience)).toBe("generated pool (200)");
  });

  it("is incomplete when a KG did not run, and says why in its row", () => {
    expect(merged.complete).toBe(false);
    expect(merged.suite?.kgs.find((k) => k.db === "broken")).toMatchObject({ complete: false, error: "KG not loaded: bad Turtle" });
    const lines = suiteTableLines(merged).join("\n");
    expect(lines).toMatch(/macro F1 75\.0 over all 4 scored questions .* of 3 KGs — INCOMPLETE/);
    expect(lines).toMatch(/^\| broken \| 0 \| 0 \| — \| — \| — \| KG not loaded: bad Turtle \|$/m);
    expect(lines).toMatch(/^\| big \| 3 \| 3 \| 100\.0 \| 2\.0 \| 1\.00 \|/m);
  });
});

describe("reading a suite manifest", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "suite-manifest-"));
  for (const f of ["a.nt", "b.ttl", "a.json", "b.jsonl", "c.txt"]) writeFileSync(path.join(dir, f), "");
  const write = (text: string) => {
    const file = path.join(dir, `m${Math.random().toString(36).slice(2)}.tsv`);
    writeFileSync(file, text);
    return file;
  };

  it("resolves paths beside the manifest and tells the dataset from the file's extension or its column", () => {
    const m = readSuiteManifest(write("# comment\ndb\tkg\tquestions\tdomain\tlang\na\ta.nt\ta.json\tshops\t\nb\tb.ttl,a.nt\tb.jsonl\t\tde\n"));
    expect(m.entries).toEqual([
      { db: "a", kg: path.join(dir, "a.nt"), questions: path.join(dir, "a.json"), dataset: "qald", domain: "shops" },
      { db: "b", kg: `${path.join(dir, "b.ttl")},${path.join(dir, "a.nt")}`, questions: path.join(dir, "b.jsonl"), dataset: "jsonl", lang: "de" },
    ]);
    expect(readSuiteManifest(write("db\tkg\tquestions\tdataset\nc\ta.nt\tc.txt\tjsonl\n")).entries[0].dataset).toBe("jsonl");
  });

  it("refuses a bad line with its number and the reason", () => {
    expect(() => readSuiteManifest(write("db\tkg\tquestions\nc\ta.nt\tc.txt\n"))).toThrow(/line 2: cannot tell the dataset of c\.txt/);
    expect(() => readSuiteManifest(write("db\tkg\tquestions\na\ta.nt\ta.json\na\ta.nt\ta.json\n"))).toThrow(/line 3: db "a" appears twice/);
    expect(() => readSuiteManifest(write("db\tkg\tquestions\na b\ta.nt\ta.json\n"))).toThrow(/line 2: column db must be letters/);
    expect(() => readSuiteManifest(write("db\tkg\tquestions\na\t\ta.json\n"))).toThrow(/line 2: column kg is missing/);
    expect(() => readSuiteManifest(write("db\tkg\tquestions\n"))).toThrow(/lists no KG/);
    expect(() => readSuiteManifest(path.join(dir, "none.tsv"))).toThrow(/Suite manifest not found/);
  });
});
