// Replaying a system's queries: on the sample KG (tables, refused and missing queries as empty results with their
// error), on the music KG through the runner under both scorings, and on CK25 against a team's published scores.
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KgProfile, KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type TurnResult } from "@/lib/pipeline/types";
import { createFixtureKg } from "@/test/fixtures/kg/harness";
import { readJsonl } from "./datasets/jsonl";
import { readText2SparqlQuestions, readText2SparqlResultSet } from "./datasets/text2sparql";
import { readOfficialEval } from "./official-eval";
import { readQueriesFile } from "./queries-file";
import { createQueryReplayStrategy } from "./query-replay";
import { runBenchmark } from "./runner";
import type { BenchmarkItem } from "./types";

const item = (id: string): BenchmarkItem => ({ id, question: `question ${id}` });
const deps = (kg: KnowledgeGraph) => ({ kg, llm: createScriptedLlm({}).gateway, similarity: createLexicalSimilarity() });

async function replay(queries: Record<string, string>, id: string, kg: KnowledgeGraph): Promise<TurnResult> {
  const gen = createQueryReplayStrategy(new Map(Object.entries(queries)), "test").run({ question: "q", dialogue: [], config: DEFAULT_CONFIG, item: item(id) }, deps(kg));
  let next = await gen.next();
  while (!next.done) next = await gen.next();
  return next.value;
}

describe("query replay on the sample KG", () => {
  const kg = createFixtureKg("kg/sample.ttl");
  const ONT = "PREFIX ont: <http://example.org/chatty-kg/ontology/> ";

  it("runs the query as given (no LIMIT added) and answers with a table for several variables", async () => {
    const r = await replay({ a: `${ONT}SELECT ?film ?runtime WHERE { ?film a ont:Film ; ont:runtime ?runtime }` }, "a", kg);
    expect(r.source).toBe("kg");
    expect(r.answer).toMatchObject({ kind: "table", columns: ["film", "runtime"] });
    expect(r.sparql).toEqual([`${ONT}SELECT ?film ?runtime WHERE { ?film a ont:Film ; ont:runtime ?runtime }`]);
    expect(kg.queries.at(-2)).not.toMatch(/LIMIT/);
    expect(r.stats.queries).toBe(2); // the query and one label batch
  });

  it("declares the well-known prefixes a system's query uses undeclared (as the official endpoint did) and records that query", async () => {
    const written = `${ONT}SELECT ?name WHERE { ?p a ont:Person ; rdfs:label ?name FILTER(lang(?name) = "de") }`;
    const r = await replay({ a: written }, "a", kg);
    expect(r.source).toBe("kg");
    expect(r.answer.kind).not.toBe("none");
    expect(r.sparql).toEqual([`PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n${written}`]);
  });

  it("an update, a syntax error, a CONSTRUCT, an empty or a missing query is an empty result with its error", async () => {
    const cases = {
      upd: "DELETE WHERE { ?s ?p ?o }",
      syn: "SELECT ?x WHERE { ?x ",
      con: "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }",
      emp: "  ",
    };
    const errors: Record<string, string | undefined> = {};
    for (const id of [...Object.keys(cases), "none"]) {
      const r = await replay(cases, id, kg);
      expect(r.answer.kind).toBe("none");
      expect(r.source).toBe("failed");
      errors[id] = r.error?.code;
    }
    expect(errors).toEqual({ upd: "sparql_forbidden", syn: "sparql_syntax", con: "bad_request", emp: "bad_request", none: "not_found" });
  });
});

describe("query replay on the music KG through the runner", () => {
  const profile = JSON.parse(readFileSync("kg/music.profile.json", "utf8")) as Partial<KgProfile>;
  const music = createFixtureKg("kg/music.ttl", profile);
  const items = readJsonl("kg/music-questions.jsonl").filter((i) => ["m01", "m02", "m03", "m05"].includes(i.id));
  const { queries } = readQueriesFile("test/fixtures/eval/queries/music.json");

  for (const scoring of ["text2sparql", "items"] as const) {
    it(`scores a table, a count, a syntax error and an update (${scoring})`, async () => {
      const out = mkdtempSync(path.join(os.tmpdir(), "replay-music-"));
      const run = await runBenchmark(
        {
          items,
          modes: ["single"],
          config: DEFAULT_CONFIG,
          outDir: out,
          runId: "replay",
          scoring,
          meta: { dataset: "jsonl", file: "kg/music-questions.jsonl", kg: "kg/music.ttl", limit: null, llm: { provider: "none", model: "none" }, queries: { file: "music.json", count: queries.size } },
        },
        { strategy: createQueryReplayStrategy(queries, "Replay of music.json"), ...deps(music) },
      );
      const by = Object.fromEntries(run.result.questions.map((q) => [q.id, q]));
      expect(run.result.config.scoring).toBe(scoring);
      expect(run.result.strategy).toEqual({ id: "query-replay", label: "Replay of music.json" });
      // m01: three members and their names returned, the gold holds the members: P 1/2, R 1
      expect(by.m01.answer).toMatchObject({ kind: "table", columns: ["member", "name"] });
      expect(by.m01.metrics).toMatchObject({ precision: 0.5, recall: 1 });
      expect(by.m03.answer).toEqual({ kind: "count", count: 2 });
      expect(by.m03.metrics?.f1).toBe(1);
      expect(by.m02.trace.error?.code).toBe("sparql_syntax");
      expect(by.m05.trace.error?.code).toBe("sparql_forbidden");
      expect(by.m02.metrics?.f1).toBe(0);
    });
  }
});

const DATA = path.resolve("../shared/data");
const KG = path.join(DATA, "ck25/graphs/prod-inst.ttl");
const TEAM = path.join(DATA, "text2sparql25/docs/results/IIS-L");
describe.skipIf(!existsSync(KG) || !existsSync(TEAM))("CK25: IIS-L's published queries replayed against its published scores", () => {
  let kg: KnowledgeGraph;
  beforeAll(async () => {
    kg = await openKg({ kind: "files", paths: [KG] });
  }, 60_000);
  afterAll(async () => kg?.close());

  it("reproduces the official per-question F1 on ≥ 48/50 questions and the average within 1.5 points", async () => {
    const official = readOfficialEval(path.join(TEAM, "ck25_eval.json"));
    const gold = readText2SparqlResultSet(path.join(DATA, "text2sparql25/docs/benchmark/ck25_true_result_set.json"));
    const items = readText2SparqlQuestions(path.join(DATA, "ck25/questions.yml")).map((i) => ({ ...i, goldAnswers: gold.byId.get(i.id)!.gold }));
    const { queries } = readQueriesFile(path.join(TEAM, "ck25_answers.json"));
    const out = mkdtempSync(path.join(os.tmpdir(), "replay-ck25-"));
    const run = await runBenchmark(
      {
        items,
        modes: ["single"],
        config: { ...DEFAULT_CONFIG, rowLimit: 1_000_000 },
        outDir: out,
        runId: "replay-ck25",
        scoring: "text2sparql",
        official,
        meta: { dataset: "ck25", file: "questions.yml", kg: KG, limit: null, llm: { provider: "none", model: "none" } },
      },
      { strategy: createQueryReplayStrategy(queries, "Replay of IIS-L"), ...deps(kg) },
    );
    const c = run.result.comparison!;
    expect(c.compared).toBe(50);
    expect(c.equal).toBeGreaterThanOrEqual(48);
    const macro = run.result.summary.modes[0].macro.all;
    expect(Math.abs(macro.f1 - official.average!.f1)).toBeLessThan(0.015);
    expect(macro.ndcg).toBeDefined();
  }, 120_000);
});
