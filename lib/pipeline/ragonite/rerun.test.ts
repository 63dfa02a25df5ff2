// RAGONITE re-run with an edited SQL query on the sample and music KGs: no model call, the rows are the answer with
// every item citing its row, a failing or forbidden query fails clearly.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { USER_CHOICE_TOOL } from "@/lib/pipeline/corrections";
import { DEFAULT_CONFIG, type DerivationEvent, type TurnResult } from "@/lib/pipeline/types";
import { createKnowledgeCache, type KnowledgeCache } from "./knowledge";
import { createRagoniteStrategy } from "./strategy";

const dir = mkdtempSync(path.join(tmpdir(), "ragonite-rerun-"));
let cache: KnowledgeCache;
let sample: KnowledgeGraph;
let music: KnowledgeGraph;

beforeAll(async () => {
  cache = createKnowledgeCache({ dir });
  sample = await openKg({ kind: "sample" });
  const profile = JSON.parse(readFileSync(path.resolve("kg/music.profile.json"), "utf8")) as Record<string, unknown>;
  music = await openKg({ kind: "files", paths: [path.resolve("kg/music.ttl")], profile });
}, 60_000);
afterAll(async () => {
  cache.close();
  await sample?.close();
  await music?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function rerun(kg: KnowledgeGraph, query: string, opts: { unchecked?: boolean } = {}) {
  const strategy = createRagoniteStrategy({ cache });
  const llm = createScriptedLlm({});
  const input = { question: "q", dialogue: [], config: { ...DEFAULT_CONFIG, strategy: "ragonite" as const }, correction: { kind: "final-query" as const, query }, snapshot: null, baseTrace: [] };
  if (!opts.unchecked) await strategy.rerun!.check(input);
  const gen = strategy.rerun!.run(input, { kg, llm: llm.gateway, similarity: createLexicalSimilarity() });
  const events: DerivationEvent[] = [];
  for (let step = await gen.next(); ; step = await gen.next()) {
    if (step.done) return { result: step.value as TurnResult, events, calls: llm.calls.length };
    events.push(step.value);
  }
}

describe("RAGONITE re-run with an edited SQL query", () => {
  it("answers from the rows on the sample KG, each item citing its row, with no model call", async () => {
    const { result, events, calls } = await rerun(sample, "SELECT a.iri, a.birth_date FROM actor a WHERE a.label = 'Daniel Radcliffe';");
    expect(calls).toBe(0);
    expect(result.source).toBe("kg");
    expect(result.answer.kind).toBe("table");
    expect(result.sql).toEqual(["SELECT a.iri, a.birth_date FROM actor a WHERE a.label = 'Daniel Radcliffe'"]);
    const row = result.answer.kind === "table" ? result.answer.rows[0] : [];
    expect(row.map((c) => c?.value)).toEqual(["http://example.org/chatty-kg/resource/Daniel_Radcliffe", "1989-07-23"]);
    expect(row[0]?.cite).toEqual(["S1.1"]);
    expect(events.find((e) => e.type === "tool-call" && e.tool === USER_CHOICE_TOOL)).toMatchObject({ stage: "retrieval" });
  });

  it("on the music KG a count comes back as a count; a forbidden query is refused before it runs, a broken one fails with the reason", async () => {
    const { result } = await rerun(music, "SELECT count(*) AS bands FROM band WHERE country_of_origin = 'Iceland'");
    const gold = await music.select("SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE { ?b a <http://example.org/tunes/vocab#Band> ; <http://example.org/tunes/vocab#originCountry> \"Iceland\" }");
    expect(result.answer).toMatchObject({ kind: "count", count: Number(gold.results.bindings[0].n.value) });
    const broken = await rerun(music, "SELECT nope FROM band");
    expect(broken.result).toMatchObject({ source: "failed", error: { stage: "retrieval" } });
    expect(broken.result.error?.message).toMatch(/The edited SQL query failed/);
    // refused by the check (a bad request, before the turn runner stores an attempt): not one SELECT, or not SQL
    await expect(rerun(music, "DROP TABLE band")).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/single SELECT/) });
    await expect(rerun(music, "SELECT ?b WHERE { ?b a <http://example.org/tunes/vocab#Band> }")).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/SQL syntax error/) });
    // and the run itself still refuses it, should it be reached unchecked
    const forbidden = await rerun(music, "DROP TABLE band", { unchecked: true });
    expect(forbidden.result.source).toBe("failed");
    expect(forbidden.result.error?.message).toMatch(/single SELECT/);
  });
});
