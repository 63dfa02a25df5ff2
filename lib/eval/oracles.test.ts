// The question-grounded oracles (`--llm oracle`) on the music and sample KGs, scripted end to end: what they write
// comes from the asked question — after the translation step, its English version (a relation phrase not in it is refused),
// what nothing grounds is dropped and counted, normalisations are logged, and no oracle ever reads gold answers.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { getStrategy } from "@/lib/pipeline/registry";
import { DEFAULT_CONFIG, type PipelineConfig } from "@/lib/pipeline/types";
import { readJsonl } from "./datasets/jsonl";
import { groundQir } from "./oracle-grounded-qir";
import { createOracleLog, isQuestionSpan, normalisedQuery, type OracleKind } from "./oracle-grounding";
import { createOracleResponder, fetchOracleFacts, goldPlanOf, oracleQir } from "./oracle-llm";
import { groundQueryConstants } from "./oracle-query-constants";
import { ORACLES, oracleFor, oracleView } from "./oracles";
import { runBenchmark } from "./runner";
import type { BenchmarkItem } from "./types";

const MUSIC = readJsonl(path.join(process.cwd(), "kg/music-questions.jsonl"));
const byId = (id: string) => MUSIC.find((i) => i.id === id)!;
const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";

let music: KnowledgeGraph;
let sample: KnowledgeGraph;
beforeAll(async () => {
  const profile = JSON.parse(readFileSync("kg/music.profile.json", "utf8")) as Record<string, unknown>;
  music = await openKg({ kind: "files", paths: ["kg/music.ttl"], profile });
  sample = await openKg({ kind: "sample" });
}, 60_000);
afterAll(async () => {
  await music?.close();
  await sample?.close();
});

/** The QIR the question-grounded Chatty-KG oracle writes for an item, and its log. */
async function groundedQir(item: BenchmarkItem, kg: KnowledgeGraph, language = "en") {
  const plan = goldPlanOf(item);
  const facts = await fetchOracleFacts(kg, plan);
  const log = createOracleLog("question-grounded");
  return { ...groundQir(oracleQir(plan, facts), plan, facts, { text: item.question, language }, log), log, gold: oracleQir(plan, facts) };
}

/** One question run by the strategy with its oracle of that kind: the turn's result and the oracle's log. */
async function runWith(strategy: string, kind: OracleKind, item: BenchmarkItem, kg: KnowledgeGraph) {
  const config: PipelineConfig = { ...DEFAULT_CONFIG, strategy: strategy as PipelineConfig["strategy"] };
  const llm = await oracleFor(strategy, kind)(item, kg, config);
  const gen = getStrategy(strategy).run({ question: item.question, dialogue: [], config }, { kg, llm, similarity: createLexicalSimilarity() });
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  return { result: step.value, log: llm.oracleLog };
}

describe("the question-grounded Chatty-KG oracle", () => {
  it("refuses a relation phrase the question does not contain and writes the question's words instead (music KG)", async () => {
    const { qir, log, gold } = await groundedQir(byId("m02"), music); // "Which albums did Mira Solberg release?" (gold: tv:performer)
    expect(gold.relations).toEqual(["performer"]);
    expect(qir.relations).not.toContain("performer");
    expect(qir.relations).toEqual(["release"]);
    expect(qir.entities).toEqual(["Mira Solberg"]);
    for (const t of [...qir.relations, ...qir.entities]) expect(isQuestionSpan(t, byId("m02").question)).toBe(true);
    expect(log.dropped).toEqual([]);
    // and no gold variable name reaches the pipeline
    expect(JSON.stringify(qir)).not.toMatch(/\?a\b/);
  });

  it("on the sample KG too: the gold predicate's name is not a mention, the question's word is", async () => {
    const item: BenchmarkItem = { id: "s1", question: "Who wrote Harry Potter?", goldSparql: `SELECT ?a WHERE { <${RES}Harry_Potter> <${ONT}author> ?a }` };
    const { qir } = await groundedQir(item, sample);
    expect(qir.relations).toEqual(["wrote"]);
    expect(qir.entities).toEqual(["Harry Potter"]);
  });

  it("drops and counts a constant found nowhere, and logs the reviewed normalisation it uses (music KG)", async () => {
    // "What are the three longest tracks on Glass Harbour?": LIMIT 3 from "three", a normalisation
    const three = await groundedQir(byId("m10"), music);
    expect(three.qir.limit).toBe(3);
    expect(three.log.normalisations).toContain("number word: three → 3");
    // the same gold asked without the number: LIMIT 3 is grounded nowhere, so it is dropped and counted
    const vague = await groundedQir({ ...byId("m10"), question: "What are the longest tracks on Glass Harbour?" }, music);
    expect(vague.qir.limit).toBeUndefined();
    expect(vague.log.dropped).toContain("LIMIT 3");
  });

  it("asked in German: German text grounds German words, but after the Chat agent's translation the turn is written from the English version (labelled)", async () => {
    const en = byId("m02");
    const de = "Welche Alben hat Mira Solberg veröffentlicht?";
    const item: BenchmarkItem = { ...en, question: de, questions: { en: en.question, de } };
    const { qir } = await groundedQir(item, music, "de");
    expect(qir.relations).toEqual(["veröffentlicht"]);
    expect(qir.entities).toEqual(["Mira Solberg"]);
    const plan = goldPlanOf(item);
    const facts = await fetchOracleFacts(music, plan);
    const log = createOracleLog("question-grounded");
    const respond = createOracleResponder(item, facts, plan, { grounding: groundQir(oracleQir(plan, facts), plan, facts, { text: de, language: "de" }, log), log });
    const chat = respond({ role: "chat", tools: [KG_TOOL], messages: [{ role: "user", text: de }], model: "oracle" }) as { toolCall: { input: Record<string, unknown> } };
    expect(chat.toolCall.input).toMatchObject({ language: "de", question: en.question, qir: { relations: ["veröffentlicht"], entities: ["Mira Solberg"] } });
    expect(log.datasetTexts).toEqual(["translator: the dataset's own English version of the question"]);
    // through `--llm oracle` the QIR comes after the Chat agent's translation: written from the English version
    const run = await runWith("chatty-kg", "question-grounded", item, music);
    expect(run.log.datasetTexts).toEqual(["translator: the dataset's own English version of the question"]);
    const english = await runWith("chatty-kg", "question-grounded", en, music);
    expect(run.result.answer).toEqual(english.result.answer);
    expect(run.result.sparql).toEqual(english.result.sparql);
  });

  it("asked in German without an English version, every text stays the question's German words", async () => {
    const de = "Welche Alben hat Mira Solberg veröffentlicht?";
    const item: BenchmarkItem = { ...byId("m02"), question: de, questions: { de } };
    const run = await runWith("chatty-kg", "question-grounded", item, music);
    expect(run.log.datasetTexts).toEqual([]);
    const { qir } = await groundedQir(item, music, "de");
    expect(qir.relations).toEqual(["veröffentlicht"]);
  });
});

describe("final-query constants", () => {
  it("a number, literal or IRI no output shows becomes a variable (LIMIT: removed) and is counted", () => {
    const log = createOracleLog("question-grounded");
    const g = groundQueryConstants(
      'SELECT ?x WHERE { ?x <http://ex.org/p> <http://ex.org/a> ; <http://ex.org/q> "Oslo" ; <http://ex.org/n> ?n FILTER(?n > 7) } LIMIT 5',
      { question: "Which things in Oslo have more than seven parts?" },
      log,
      (iri) => iri === "http://ex.org/p" || iri === "http://ex.org/q" || iri === "http://ex.org/n",
    );
    expect(log.dropped).toEqual(["iri <http://ex.org/a>", "LIMIT 5"]);
    expect(log.normalisations).toEqual(["number word: seven → 7"]);
    expect(g.sparql).toContain('"Oslo"');
    expect(g.sparql).not.toContain("LIMIT");
    expect(g.sparql).toMatch(/\?ungrounded_1/);
    // VALUES cannot hold a variable: the ungrounded row goes, the query still parses; COUNT(*) survives neutral names
    const v = groundQueryConstants(
      "SELECT ?x WHERE { VALUES ?p { <http://ex.org/p> <http://ex.org/q> } ?x ?p ?y } GROUP BY ?x ORDER BY DESC(COUNT(*))",
      { question: "Which?" },
      log,
      (iri) => iri === "http://ex.org/p",
      { neutralVariables: true },
    );
    expect(v.sparql).toMatch(/VALUES \?v2 \{\s*<http:\/\/ex\.org\/p>\s*\}/);
    expect(v.sparql).toMatch(/\?v1 \?v2 \?v3/);
    expect(v.sparql).toContain("COUNT(*)");
    expect(log.dropped).toContain("iri <http://ex.org/q>");
    // a yes/no question whose subject nothing grounded gets no query (it would ask whether anything borders anything)
    const ask = "ASK { <http://ex.org/a> <http://ex.org/borders> <http://ex.org/b> }";
    const known = (iri: string) => iri !== "http://ex.org/b";
    expect(() => groundQueryConstants(ask, { question: "Does A border B?" }, createOracleLog("question-grounded"), known)).toThrow(/no yes\/no query without iri <http:\/\/ex\.org\/b>/);
    expect(groundQueryConstants(ask, { question: "Does A border B?" }, createOracleLog("question-grounded"), () => true).sparql).toMatch(/^ASK/);
  });

  it("the explorer's and Triad's oracles drop the gold's LIMIT a question does not state (music KG)", async () => {
    const item = { ...byId("m10"), question: "What are the longest tracks on Glass Harbour?" };
    for (const strategy of ["explorer", "triad"]) {
      const { log, result } = await runWith(strategy, "question-grounded", item, music);
      expect(log.dropped, strategy).toContain("LIMIT 3");
      expect(result.sparql.join("\n"), strategy).not.toMatch(/LIMIT 3\b/);
    }
  });
});

describe("no oracle reads gold answers", () => {
  it("an oracle's view of an item throws when its gold answers are read", () => {
    const item: BenchmarkItem = { id: "x", question: "q?", goldSparql: "ASK {}", goldAnswers: { kind: "boolean", value: true } };
    const view = oracleView(item);
    expect(view.goldSparql).toBe("ASK {}");
    expect(() => view.goldAnswers).toThrow(/read the gold answers/);
  });

  it("every oracle of both kinds runs its strategy with gold answers present, never reads them, and never runs the gold query", async () => {
    const items = ["m01", "m03", "m10", "m11"].map((id) => ({ ...byId(id), goldAnswers: { kind: "items" as const, items: [{ type: "uri" as const, value: "http://example.org/never" }] } }));
    const gold = new Set(items.map((i) => normalisedQuery(i.goldSparql!)));
    const ran: string[] = [];
    // the KG the oracles see records every query they run before the strategy starts
    const watched: KnowledgeGraph = Object.create(music, {
      select: { value: (q: string, o: unknown) => (ran.push(q), music.select(q, o as never)) },
      ask: { value: (q: string, o: unknown) => (ran.push(q), music.ask(q, o as never)) },
    });
    const tmp = mkdtempSync(path.join(os.tmpdir(), "oracles-"));
    for (const kind of Object.keys(ORACLES) as OracleKind[]) {
      for (const strategy of Object.keys(ORACLES[kind])) {
        const config: PipelineConfig = { ...DEFAULT_CONFIG, strategy: strategy as PipelineConfig["strategy"] };
        const out = await runBenchmark(
          { items, modes: ["single"], config, outDir: path.join(tmp, `${kind}-${strategy}`), runId: "t", meta: { dataset: "jsonl", file: "x", kg: "music", limit: null, llm: { provider: "oracle", model: kind } } },
          { strategy: getStrategy(strategy), kg: music, llm: music as never, similarity: createLexicalSimilarity(), llmFor: (item, signal) => oracleFor(strategy, kind)(item, watched, config, signal) },
        );
        const errors = out.result.questions.flatMap((q) => (q.trace.error ? [`${q.id}: ${q.trace.error.message}`] : []));
        expect(errors.filter((e) => /gold answers/.test(e)), `${kind} ${strategy}`).toEqual([]);
        expect(out.result.questions.every((q) => q.oracle?.kind === kind)).toBe(true);
        // the answers scored against are the dataset's (none right): the oracle could not have copied them
        expect(out.result.summary.modes[0].macro.all.f1).toBe(0);
      }
    }
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.filter((q) => gold.has(normalisedQuery(q)))).toEqual([]);
  }, 120_000);
});
