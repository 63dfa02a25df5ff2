// Triad's oracle: the gold query as the template, D-agent choices read from the real prompts by label, a run over the
// music KG's gold questions (the ceiling documented in docs/eval.md), and the per-strategy oracle map.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { templateFromQuery } from "@/lib/pipeline/triad/template-from-query";
import { triadStrategy } from "@/lib/pipeline/triad/strategy";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { openKg } from "@/lib/kg/open-kg";
import { musicKg } from "@/test/fixtures/kg/triad-harness";
import { readJsonl } from "./datasets/jsonl";
import { ORACLE_LLM_INFO, withGoldShape, type OracleKgFacts } from "./oracle-llm";
import { groundAnyName, oracleEntityChoices, oracleGeneralist, oracleQueryChoice, oracleRelationChoices } from "./oracle-llm-triad";
import { createOracleLog } from "./oracle-grounding";
import { oracleFor } from "./oracles";
import type { BenchmarkItem } from "./types";
import { runResultSchema } from "./result-schema";
import { runBenchmark } from "./runner";

const V = "http://example.org/x/v#";
const R = "http://example.org/x/r/";
const gold = templateFromQuery(`SELECT ?w WHERE { <${R}aurora-album> <${V}weight_g> ?w ; a <${V}Album> }`);
const facts: OracleKgFacts = {
  labels: new Map([
    [`${R}aurora-album`, "Aurora"],
    [`${V}weight_g`, "weight (g)"],
  ]),
  types: new Map([[`${R}aurora-album`, ["album"]]]),
  prefixes: { v: V },
};

describe("the Triad oracle's roles", () => {
  it("G-agent: the gold query with its IRIs as slots, each slot named by the KG label of what it replaced", () => {
    expect(oracleGeneralist(gold, facts)).toEqual({
      triplets: [["Aurora", "weight (g)", "?w"], ["Aurora", "type", "album"]],
      template: "SELECT ?w WHERE {\n  <e0> <r0> ?w;\n    <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <e1>.\n}",
      slots: { e0: "Aurora", r0: "weight (g)", e1: "album" },
      answer_type: "entities",
    });
  });

  it("D-agent: entities by label, same-named ones by the gold IRI's type; relations by label (a label with parentheses too) or compact IRI, as written first", () => {
    const entities = 'Slot e0: "Aurora"\nOptions:\n1. Aurora Hall\n2. Aurora — type: venue\n3. Aurora — type: album; "an album"\n\nSlot e1: "album"\nOptions:\n1. album';
    expect(oracleEntityChoices(entities, gold, facts, 2)).toEqual({ e0: [3], e1: [1] });
    const relations = 'Slot r0: "weight (g)" — in the template: "Aurora" <r0> ?w\nOptions:\n1. weight (g) (reversed)\n2. height (mm)\n3. weight (g)\n4. weight (g) [w:other]';
    expect(oracleRelationChoices(relations, gold, facts, 2)).toEqual({ r0: [3, 1] });
  });

  it("D-agent: the candidate whose fillers are all the gold's (a same-labelled entity told apart by its type hint)", () => {
    const prompt = [
      'Candidate 1\nFillers: {"e0":"Aurora — type: venue","r0":"weight (g)","e1":"album"}\nReturned: 1 row',
      'Candidate 2\nFillers: {"e0":"Aurora — type: album","r0":"weight (g) (reversed)","e1":"album"}\nReturned: 1 row',
      'Candidate 3\nFillers: {"e0":"Aurora — type: album","r0":"weight (g)","e1":"album"}\nReturned: 2 rows',
    ].join("\n\n");
    expect(oracleQueryChoice(prompt, gold, facts)).toBe(3);
  });
});

describe("oracleFor", () => {
  it("picks each strategy's own oracle and names the ones that have one", () => {
    expect(oracleFor("triad")).toBeTypeOf("function");
    expect(oracleFor("chatty-kg")).toBeTypeOf("function");
    expect(oracleFor("explorer")).toBeTypeOf("function");
    let caught: unknown;
    try {
      oracleFor("llm-only");
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught, "bad_request")).toBe(true);
    // every strategy with an oracle is named (strategies add theirs over time)
    expect((caught as Error).message).toMatch(/available: chatty-kg, .*triad/);
  });
});

describe("the Triad gold-shape oracle on the music KG (kg/music-questions.jsonl)", () => {
  it("answers every gold question exactly: the gold template is linked and its filling found among the candidates", async () => {
    const kg = musicKg();
    const items = withGoldShape(readJsonl(path.join(process.cwd(), "kg/music-questions.jsonl")));
    const config = { ...DEFAULT_CONFIG, strategy: "triad" as const };
    const out = mkdtempSync(path.join(os.tmpdir(), "eval-oracle-triad-"));
    const run = await runBenchmark(
      { items, modes: ["single"], config, outDir: out, runId: "triad-oracle", meta: { dataset: "jsonl", file: "kg/music-questions.jsonl", kg: "kg/music.ttl", limit: null, llm: { ...ORACLE_LLM_INFO } } },
      { strategy: triadStrategy, kg, llm: createScriptedLlm({}).gateway, similarity: createLexicalSimilarity(), llmFor: (i, signal) => oracleFor("triad", "gold-shape")(i, kg, config, signal) },
    );
    const file = runResultSchema.parse(JSON.parse(readFileSync(run.resultFile, "utf8")));
    const wrong = file.questions.filter((q) => q.metrics?.f1 !== 1).map((q) => `${q.id}: ${q.failure}`);
    expect(wrong).toEqual([]);
    expect(file.summary.modes[0].macro.all.n).toBe(items.length);
  }, 60_000);
});

describe("the question-grounded Triad oracle on a KG whose names are in its own predicate (urn:uuid IRIs)", () => {
  const FR = "http://example.org/ferries/";
  const TIDEWALKER = "urn:uuid:3f0c9a52-8d1e-4b6a-9c21-5e7d1a0b2c02";
  async function run(question: string, goldSparql = `SELECT ?c WHERE { <${TIDEWALKER}> <${FR}operatedBy> ?c . <${TIDEWALKER}> a <${FR}Ferry> . }`) {
    const kg = await openKg({ kind: "files", paths: [path.join(process.cwd(), "test/fixtures/kg/any-kg/ferries.trig")] });
    try {
      const item: BenchmarkItem = { id: "f1", question, goldSparql };
      const config = { ...DEFAULT_CONFIG, strategy: "triad" as const };
      const llm = await oracleFor("triad")(item, kg, config);
      const gen = triadStrategy.run({ question, dialogue: [], config }, { kg, llm, similarity: createLexicalSimilarity() });
      let step = await gen.next();
      while (!step.done) step = await gen.next();
      return { result: step.value, log: llm.oracleLog };
    } finally {
      await kg.close();
    }
  }

  it("knows the vessel by its name literal, so the question naming it grounds the slot and the turn answers", async () => {
    const { result, log } = await run("Which company operates the Tidewalker?");
    // the class is not in the question ("Ferry"): dropped as ungrounded; the vessel is kept
    expect(log.dropped).toEqual([`iri <${FR}Ferry>`]);
    expect(result.answer).toMatchObject({ kind: "items", items: [{ value: "urn:uuid:7a2b4c6d-1e3f-4a5b-8c9d-0e1f2a3b4c91" }] });
  });

  it("prefers the name the question writes whole to stray letters or digits its IRI's id shares with the question", async () => {
    // the id's words "3f0c9a52 8d1e 4b6a …" share a "4" with the question; the vessel's name is written whole
    const { result, log } = await run("Which company operates the Tidewalker on route 4?");
    expect(log.dropped).not.toContain(`iri <${TIDEWALKER}>`);
    expect(result.answer).toMatchObject({ kind: "items", items: [{ value: "urn:uuid:7a2b4c6d-1e3f-4a5b-8c9d-0e1f2a3b4c91" }] });
  });

  it("grounds an id quoted by its first part as the question's whole word, not a piece cut from it", async () => {
    // "5150277a": the grounding's words would cut it to "5150277" (digits, then a letter read as a word of its own)
    const { result, log } = await run("Which ferries does 5150277a operate?", `SELECT ?f WHERE { ?f <${FR}operatedBy> <urn:uuid:5150277a-2b3c-4d5e-8f90-a1b2c3d4e5f6> . }`);
    expect(log.dropped).toEqual([]);
    const got = result.answer.kind === "items" ? result.answer.items.map((i) => i.value).sort() : [];
    expect(got).toEqual(["urn:uuid:3f0c9a52-8d1e-4b6a-9c21-5e7d1a0b2c04"]);
  });

  it("still refuses a name the question does not contain (another vessel's name is no grounding)", async () => {
    const { log } = await run("Which company operates the Morning Gull?");
    expect(log.dropped).toContain(`iri <${TIDEWALKER}>`);
  });
});

describe("groundAnyName", () => {
  it("takes the id the question quotes out of a span of several words that overlapped the IRI's id words", () => {
    const q = { text: "Which ferry links pier 5150277a and the dock c9d8e7f6?", language: "en" };
    const names = ["5150277a 2b3c 4d5e 8f90 a1b2c3d4e5f6", "5150277a-2b3c-4d5e-8f90-a1b2c3d4e5f6"];
    expect(groundAnyName(names, q, createOracleLog("question-grounded"), [])).toBe("5150277a");
  });
});
