// The default strategy of a KG: its best real-model evaluation runs when at least two strategies ran on the same
// questions; oracle, replayed, fixture and incomplete runs never count; otherwise the documented default, with why.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runResultSchema } from "@/lib/eval/result-schema";
import { chooseDefaultStrategy, defaultStrategiesFor, DOCUMENTED_DEFAULT, evidenceRuns, kgKeyOf, type EvidenceRun } from "./default-strategy";
import { createEvalRunStore } from "./eval-runs";

const KG = "files:/data/shop.ttl";
const run = (strategy: string, f1: number, more: Partial<EvidenceRun> = {}): EvidenceRun => ({
  strategy, f1, kgKey: KG, questionsKey: "jsonl shop.jsonl (20 questions)", startedAt: "2026-11-20T10:00:00Z", complete: true, provider: "openai", model: "gpt-x", ...more,
});

describe("the default-strategy rule", () => {
  it("takes the best macro F1 among real-model runs of this KG on the same questions, and says so", () => {
    const c = chooseDefaultStrategy(KG, [run("chatty-kg", 0.52), run("triad", 0.81), run("explorer", 0.74)]);
    expect(c).toMatchObject({ strategy: "triad", source: "eval-runs" });
    expect(c.reason).toBe("it has the best macro F1 in this KG's evaluation runs with a real model (gpt-x): triad 81.0 %, explorer 74.0 %, chatty-kg 52.0 % — jsonl shop.jsonl (20 questions)");
  });

  it("never counts oracle, replayed, fixture or incomplete runs, nor runs of another KG", () => {
    const noise = [run("one-call", 0.99, { provider: "oracle" }), run("one-call", 0.99, { provider: "fixture" }), run("one-call", 0.99, { provider: "replay" }), run("one-call", 0.99, { complete: false }), run("one-call", 0.99, { kgKey: "sample" })];
    expect(chooseDefaultStrategy(KG, [run("chatty-kg", 0.3), run("triad", 0.4), ...noise]).strategy).toBe("triad");
    // oracle ceilings alone are no evidence: the documented default
    expect(chooseDefaultStrategy(KG, [run("triad", 0.9, { provider: "oracle" }), run("chatty-kg", 0.5, { provider: "oracle" })])).toMatchObject({ strategy: DOCUMENTED_DEFAULT, source: "documented" });
  });

  it("compares strategies only on the same questions, the newest run of each, and needs two of them", () => {
    const older = run("triad", 0.95, { startedAt: "2026-11-01T00:00:00Z" });
    expect(chooseDefaultStrategy(KG, [older, run("triad", 0.4), run("explorer", 0.6)]).strategy).toBe("explorer");
    expect(chooseDefaultStrategy(KG, [run("triad", 0.4), run("explorer", 0.6, { questionsKey: "other" })]).source).toBe("documented");
    expect(chooseDefaultStrategy(null, [run("triad", 0.4), run("explorer", 0.6)]).source).toBe("documented");
  });

  it("keys a KG the same way from the CLI's --kg and the app's KG_DEFAULT or endpoint URL", () => {
    expect(kgKeyOf("b.ttl,a.ttl", "/root")).toBe("files:/root/a.ttl,/root/b.ttl");
    expect(kgKeyOf("/root/a.ttl, /root/b.ttl", "/x")).toBe("files:/root/a.ttl,/root/b.ttl");
    expect(kgKeyOf("https://user:pw@example.org/sparql/?x=1")).toBe("endpoint:https://example.org/sparql");
    expect(kgKeyOf("sample")).toBe("sample");
    expect(kgKeyOf("ftp://x")).toBeNull();
  });
});

describe("reading the installation's runs", () => {
  it("turns CLI result files into evidence and gives every listed KG its default and reason", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "default-strategy-"));
    const base = runResultSchema.parse(JSON.parse(readFileSync("test/fixtures/eval/run-a.json", "utf8")));
    const write = (name: string, strategy: string, f1: number, provider: string) => {
      const r = structuredClone(base);
      r.runId = name;
      r.strategy = { id: strategy, label: strategy };
      r.llm = { provider, model: "gpt-x" };
      r.config.kg = path.join(dir, "shop.ttl");
      r.summary.modes[0].macro.all.f1 = f1;
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, "result.json"), JSON.stringify(r));
    };
    write("a", "chatty-kg", 0.4, "openai");
    write("b", "explorer", 0.7, "openai");
    write("c", "triad", 0.99, "oracle");
    const store = createEvalRunStore({ dir });
    expect(evidenceRuns(store, dir).map((r) => [r.strategy, r.kgKey])).toEqual(expect.arrayContaining([["explorer", `files:${dir}/shop.ttl`]]));
    const env = { KG_DEFAULT: path.join(dir, "shop.ttl") };
    const [main, upload] = defaultStrategiesFor([{ id: "sample", kind: "sample" }, { id: "u1", kind: "upload" }], "sample", store, env);
    expect(main.defaultStrategy).toMatchObject({ strategy: "explorer", source: "eval-runs" });
    expect(upload.defaultStrategy).toMatchObject({ strategy: DOCUMENTED_DEFAULT, source: "documented" });
    // STRATEGY_DEFAULT fixes it for every KG; a name that is no strategy is ignored
    const fixed = defaultStrategiesFor([{ id: "sample", kind: "sample" }], "sample", store, { ...env, STRATEGY_DEFAULT: "triad" });
    expect(fixed[0].defaultStrategy).toEqual({ strategy: "triad", reason: "the server's STRATEGY_DEFAULT setting names it", source: "setting" });
    expect(defaultStrategiesFor([{ id: "sample", kind: "sample" }], "sample", store, { ...env, STRATEGY_DEFAULT: "magic" })[0].defaultStrategy.strategy).toBe("explorer");
  });
});
