import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type DerivationEvent } from "@/lib/pipeline/types";
import type { TriadState } from "./state";
import { buildTriadResult, kgToolSummary } from "./turn-result";

const base: TriadState = { question: "q", dialogue: [], config: DEFAULT_CONFIG, attempt: 1, misses: [], route: "kg", standaloneQuestion: "q?" };
const events: DerivationEvent[] = [{ type: "sparql", stage: "execution", purpose: "p", query: "ASK {}", ms: 1, rows: 1 }];
const chosen = { id: 2, sparql: "SELECT ?x WHERE { ?x ?p ?o }", fillers: {}, rank: 0 };

describe("buildTriadResult", () => {
  it("marks an answer from the chosen query's rows as KG-grounded, with that query", () => {
    const r = buildTriadResult({ ...base, chosen, answer: { kind: "count", count: 3 }, answerSource: "kg" }, events, {}, 5);
    expect(r).toMatchObject({ source: "kg", sparql: [chosen.sparql], standaloneQuestion: "q?", stats: { queries: 1, ms: 5 } });
  });

  it("marks a model-knowledge answer as source llm with no query, and tells the Chat agent it is not from the KG", () => {
    const state: TriadState = { ...base, chosen, answer: { kind: "items", items: [{ type: "literal", value: "Oslo" }] }, answerSource: "llm" };
    expect(buildTriadResult(state, events, {}, 5)).toMatchObject({ source: "llm", sparql: [] });
    expect(kgToolSummary(state)).toBe("(not from the KG) 1 item: Oslo");
  });

  it("reports no answer as none, a failure with its stage, and a conversation reply as such", () => {
    expect(buildTriadResult({ ...base, answer: { kind: "none", reason: "nothing" } }, [], {}, 1)).toMatchObject({ source: "none" });
    const failed = buildTriadResult({ ...base, failure: { stage: "qir", code: "pipeline_failed", message: "bad" } }, [], {}, 1);
    expect(failed).toMatchObject({ source: "failed", error: { stage: "qir", code: "pipeline_failed", message: "bad" } });
    expect(buildTriadResult({ ...base, route: "reply", reply: { kind: "chat", text: "hi" } }, [], {}, 1).source).toBe("conversation");
  });
});
