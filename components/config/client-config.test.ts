// The stored config parser: whatever localStorage holds, the strip gets a valid config (field by field when possible).
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, STRATEGY_IDS } from "@/lib/pipeline/types";
import { DEFAULT_CLIENT_CONFIG, followKgDefault, parseStoredConfig } from "./client-config";
import { strategyOptions } from "./strategy-info";

describe("parseStoredConfig", () => {
  it("falls back to the defaults for nothing, bad JSON or a wrong shape", () => {
    for (const text of [null, "", "{not json", "[]", "42", JSON.stringify({ kgId: 5 }), JSON.stringify({ llm: { provider: "evil" } })]) {
      expect(parseStoredConfig(text), String(text)).toEqual(DEFAULT_CLIENT_CONFIG);
    }
  });

  it("keeps valid stored values and fills the rest from the defaults", () => {
    const c = parseStoredConfig(JSON.stringify({ kgId: "upload-1", pipeline: { theta: 5, mode: "single" } }));
    expect(c.kgId).toBe("upload-1");
    expect(c.pipeline).toEqual({ ...DEFAULT_CONFIG, theta: 5, mode: "single" });
    expect(c.llm).toBeUndefined();
  });

  it("rejects out-of-range pipeline values instead of sending them", () => {
    const c = parseStoredConfig(JSON.stringify({ kgId: "sample", pipeline: { theta: 99 } }));
    expect(c.pipeline.theta).toBe(DEFAULT_CONFIG.theta);
    const d = parseStoredConfig(JSON.stringify({ pipeline: { strategy: "rm -rf" } }));
    expect(d.pipeline.strategy).toBe("chatty-kg");
  });

  it("follows the server's default strategy until the user picks one", () => {
    expect(parseStoredConfig(null, "explorer").pipeline.strategy).toBe("explorer");
    // a stored strategy the user never picked (saved with other settings) does not pin it
    expect(parseStoredConfig(JSON.stringify({ pipeline: { strategy: "chatty-kg", theta: 5 } }), "explorer").pipeline).toMatchObject({ strategy: "explorer", theta: 5 });
    const picked = parseStoredConfig(JSON.stringify({ pipeline: { strategy: "triad" }, strategyPicked: true }), "explorer");
    expect(picked).toMatchObject({ pipeline: { strategy: "triad" }, strategyPicked: true });
    expect(parseStoredConfig(JSON.stringify({ pipeline: { theta: 5 } })).pipeline.strategy).toBe(DEFAULT_CONFIG.strategy);
  });

  it("keeps an LLM override", () => {
    const llm = { provider: "openai-compatible", model: "llama3", baseURL: "http://127.0.0.1:11434/v1" };
    expect(parseStoredConfig(JSON.stringify({ llm })).llm).toMatchObject(llm);
  });
});

describe("strategyOptions", () => {
  it("uses the registry's labels and descriptions, in id order, with ids for unknown ones", () => {
    const opts = strategyOptions([
      { id: "llm-only", label: "LLM only", description: "Baseline: model only." },
      { id: "chatty-kg", label: "Chatty-KG", description: "Multi-agent pipeline." },
    ]);
    // every registered id, in STRATEGY_IDS order (strategies are added over time)
    expect(opts.map((o) => o.id)).toEqual([...STRATEGY_IDS]);
    expect(opts[0].label).toBe("Chatty-KG");
    expect(opts[1].description).toBe("Baseline: model only.");
    expect(opts[2]).toEqual({ id: "one-shot-sparql", label: "one-shot-sparql", description: "" });
    expect(strategyOptions(undefined).map((o) => o.label)).toEqual([...STRATEGY_IDS]);
  });
});

describe("followKgDefault", () => {
  const base = parseStoredConfig(null, "explorer");
  it("switches an unpicked strategy to the KG's own default, keeping the other settings", () => {
    const next = followKgDefault({ ...base, kgId: "upload-1" }, "triad");
    expect(next.pipeline.strategy).toBe("triad");
    expect(next.kgId).toBe("upload-1");
    expect(next.strategyPicked).toBeUndefined();
  });
  it("keeps a strategy the user picked", () => {
    const picked = { ...base, pipeline: { ...base.pipeline, strategy: "chatty-kg" as const }, strategyPicked: true };
    expect(followKgDefault(picked, "triad")).toBe(picked);
  });
  it("changes nothing when the KG names no default or the same one", () => {
    expect(followKgDefault(base, undefined)).toBe(base);
    expect(followKgDefault(base, "explorer")).toBe(base);
  });
});
