// RAGONITE end to end with scripted models on the sample KG and the music KG: one round, three rounds with an SQL
// error fed back, refusal (with and without evidence), citations, and the Chat agent's standalone rewrite.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { DEFAULT_CONFIG, type DerivationEvent, type DialogueTurn, type PipelineConfig, type TurnResult } from "@/lib/pipeline/types";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { createKnowledgeCache, type KnowledgeCache } from "./knowledge";
import { createRagoniteStrategy } from "./strategy";

const dir = mkdtempSync(path.join(tmpdir(), "ragonite-strategy-"));
let cache: KnowledgeCache;
let sample: KnowledgeGraph;
let music: KnowledgeGraph;
const similarity = createLexicalSimilarity();

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

async function turn(kg: KnowledgeGraph, question: string, script: Script, opts: { dialogue?: DialogueTurn[]; config?: Partial<PipelineConfig> } = {}) {
  const llm = createScriptedLlm(script);
  const strategy = createRagoniteStrategy({ cache });
  const gen = strategy.run({ question, dialogue: opts.dialogue ?? [], config: { ...DEFAULT_CONFIG, strategy: "ragonite", ...opts.config } }, { kg, llm: llm.gateway, similarity });
  const events: DerivationEvent[] = [];
  let next = await gen.next();
  while (!next.done) {
    events.push(next.value);
    next = await gen.next();
  }
  return { result: next.value as TurnResult, events, llm };
}

const ask = (question: string, language = "en") => ({ toolCall: { name: KG_TOOL, input: { question, language, context_dependent: false } } });
const sql = (query: string) => ({ toolCall: { name: "sql", input: { query } } });
const search = (query: string) => ({ toolCall: { name: "search_facts", input: { query } } });
const lastText = (messages: PlainMessage[]) => messages[messages.length - 1]?.text ?? "";
const toolEvents = (events: DerivationEvent[], tool: string) => events.filter((e): e is Extract<DerivationEvent, { type: "tool-call" }> => e.type === "tool-call" && e.tool === tool);

describe("RAGONITE on the sample KG", () => {
  it("answers in one round from an SQL result, citing the row, and searches the facts for the agent", async () => {
    const { result, events, llm } = await turn(sample, "When was Daniel Radcliffe born?", {
      chat: [ask("When was Daniel Radcliffe born?")],
      retrieval: [sql("SELECT a.iri, a.birth_date FROM actor a WHERE a.label = 'Daniel Radcliffe'"), "DONE"],
      answer: [{ json: { answerable: true, sql_result: "S1", facts: null, yes_no: null, citations: ["S1.1"], text: "He was born on 23 July 1989 [S1.1]." } }],
    });
    expect(result.error).toBeUndefined();
    expect(result.source).toBe("kg");
    // two columns came back: a table whose cells are KG terms (the IRI and the typed date), each citing its row
    expect(result.answer).toMatchObject({
      kind: "table",
      rows: [[{ type: "uri", value: "http://example.org/chatty-kg/resource/Daniel_Radcliffe", cite: ["S1.1"] }, { type: "literal", value: "1989-07-23", datatype: "http://www.w3.org/2001/XMLSchema#date", cite: ["S1.1"] }]],
    });
    const citations = result.answer.kind === "table" ? result.answer.citations : undefined;
    expect(citations?.find((c) => c.id === "S1.1")).toMatchObject({ kind: "sql-row", iris: ["http://example.org/chatty-kg/resource/Daniel_Radcliffe"] });
    expect(result.sql).toEqual(["SELECT a.iri, a.birth_date FROM actor a WHERE a.label = 'Daniel Radcliffe'"]);
    expect(result.naturalAnswer).toBe("He was born on 23 July 1989 [S1.1].");
    // one SQL round, then the agent stopped; the fact search it skipped ran with the question
    expect(toolEvents(events, "sql")).toHaveLength(1);
    expect(toolEvents(events, "search_facts")).toMatchObject([{ input: { query: "When was Daniel Radcliffe born?", automatic: true } }]);
    expect(events.some((e) => e.type === "progress" && e.stage === "induction")).toBe(true);
    // the retrieval agent saw the schema with its comments
    expect(llm.calls.find((c) => c.role === "retrieval")!.messages[0].text).toMatch(/CREATE TABLE actor \(\n\s+iri VARCHAR PRIMARY KEY/);
    expect(llm.remaining()).toEqual({});
  }, 60_000);

  it("refuses when the evidence does not answer, and never accepts a value no passage states", async () => {
    const { result, llm } = await turn(sample, "Who is the mayor of Hogsmeade?", {
      chat: [ask("Who is the mayor of Hogsmeade?")],
      retrieval: [sql("SELECT iri, label, comment FROM fictional_place WHERE label ILIKE '%hogsmeade%'"), search("Hogsmeade mayor"), "DONE"],
      answer: [
        // a name that none of the passages states: rejected, the model is told why
        { json: { answerable: true, facts: [{ value: "Albus Dumbledore", passage: "P1" }], citations: ["P1"], text: "Albus Dumbledore [P1]." } },
        (messages: PlainMessage[]) => {
          expect(lastText(messages)).toMatch(/does not state "Albus Dumbledore"|not in the evidence/);
          return { json: { answerable: false, citations: ["S1"], text: "The KG knows Hogsmeade [S1] but names no mayor." } };
        },
      ],
    });
    expect(result.source).toBe("none");
    expect(result.answer).toMatchObject({ kind: "none", reason: "The KG knows Hogsmeade [S1] but names no mayor." });
    expect(llm.records.filter((r) => r.role === "answer").map((r) => Boolean(r.validationError))).toEqual([true, false]);
  }, 60_000);

  it("refuses without a model call when neither branch found anything", async () => {
    const { result, llm } = await turn(sample, "qqqzzx?", {
      chat: [ask("qqqzzx?")],
      retrieval: [sql("SELECT iri FROM actor WHERE label = 'qqqzzx'"), search("qqqzzx"), "DONE"],
    });
    expect(result.answer).toMatchObject({ kind: "none" });
    expect(result.source).toBe("none");
    expect(llm.calls.some((c) => c.role === "answer")).toBe(false);
  }, 60_000);

  it("carries the Chat agent's standalone rewrite and language into retrieval and the answer (multi-turn, German)", async () => {
    const dialogue: DialogueTurn[] = [{ question: "Who founded Warner Bros.?", answer: { kind: "items", items: [{ type: "uri", value: "http://example.org/chatty-kg/resource/Warner_Bros", label: "Warner Bros." }] } }];
    const { result, llm } = await turn(
      sample,
      "Und wann wurde es gegründet?",
      {
        chat: [{ toolCall: { name: KG_TOOL, input: { question: "When was Warner Bros. founded?", language: "de", context_dependent: true } } }],
        retrieval: [search("Warner Bros. founding year"), "DONE"],
        answer: [
          (messages: PlainMessage[]) => {
            const p = messages.map((m) => m.text).join("\n");
            expect(p).toContain('language with code "de"');
            const passage = /\[(P\d+)\] Warner Bros\./.exec(p)![1];
            return { json: { answerable: true, facts: [{ value: "1923", passage }], citations: [passage], text: `Warner Bros. wurde 1923 gegründet [${passage}].` } };
          },
        ],
      },
      { dialogue },
    );
    expect(llm.calls.find((c) => c.role === "retrieval")!.messages.map((m) => m.text).join("\n")).toContain("Question: When was Warner Bros. founded?");
    expect(result.standaloneQuestion).toBe("When was Warner Bros. founded?");
    expect(result.answer).toMatchObject({ kind: "items", items: [{ type: "literal", value: "1923" }] });
    const item = result.answer.kind === "items" ? result.answer.items[0] : undefined;
    const cited = result.answer.kind === "items" ? result.answer.citations?.find((c) => c.id === item?.cite?.[0]) : undefined;
    expect(cited).toMatchObject({ kind: "passage", iris: ["http://example.org/chatty-kg/resource/Warner_Bros"] });
    expect(result.naturalAnswer).toMatch(/^Warner Bros\. wurde 1923 gegründet \[P\d+\]\.$/);
  }, 60_000);
});

describe("RAGONITE on the music KG", () => {
  it("uses three rounds: an SQL error goes back to the agent, it fixes the query, then searches", async () => {
    const { result, events, llm } = await turn(music, "How many bands are from Iceland?", {
      chat: [ask("How many bands are from Iceland?")],
      retrieval: [
        sql("SELECT count(*) AS bands FROM band WHERE origin_country = 'Iceland'"),
        (messages: PlainMessage[]) => {
          // the error (with DuckDB's hint at the right column) came back as the tool result
          expect(messages.map((m) => m.text).join("\n")).toMatch(/ERROR: .*origin_country.*country_of_origin/s);
          return sql("SELECT count(*) AS bands FROM band WHERE country_of_origin = 'Iceland'");
        },
        search("bands from Iceland"),
        // never asked: three rounds is the limit
        "DONE",
      ],
      answer: [{ json: { answerable: true, sql_result: "S2", citations: ["S2"], text: "Two bands are from Iceland [S2]." } }],
    });
    expect(result.error).toBeUndefined();
    const gold = await music.select("SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE { ?b a <http://example.org/tunes/vocab#Band> ; <http://example.org/tunes/vocab#originCountry> \"Iceland\" }");
    expect(result.answer).toMatchObject({ kind: "count", count: Number(gold.results.bindings[0].n.value) });
    expect(toolEvents(events, "sql").map((e) => [e.input, Boolean(e.error)])).toEqual([
      [{ round: 1, id: "S1", sql: "SELECT count(*) AS bands FROM band WHERE origin_country = 'Iceland'" }, true],
      [{ round: 2, id: "S2", sql: "SELECT count(*) AS bands FROM band WHERE country_of_origin = 'Iceland'" }, false],
    ]);
    expect(toolEvents(events, "search_facts")).toMatchObject([{ input: { round: 3, query: "bands from Iceland" } }]);
    expect(llm.remaining()).toEqual({ retrieval: 1 });
    const retrievalEnd = events.find((e) => e.type === "stage-end" && e.stage === "retrieval");
    expect(retrievalEnd).toMatchObject({ summary: expect.stringContaining("3 round(s): 2 SQL queries (1 with rows, 1 failed), 1 fact search(es)") });
  }, 60_000);

  it("answers a list from an SQL result with every item citing its row and linking to the KG IRI", async () => {
    const { result } = await turn(music, "Which albums did Mira Solberg release?", {
      chat: [ask("Which albums did Mira Solberg release?")],
      retrieval: [sql("SELECT al.iri FROM album al JOIN solo_artist s ON al.performer = s.iri WHERE s.label ILIKE '%mira solberg%' ORDER BY al.release_date"), "DONE"],
      answer: [
        // a marker for evidence that does not exist is refused
        { json: { answerable: true, sql_result: "S1", citations: ["S1"], text: "Three albums [S1], see also [P999]." } },
        { json: { answerable: true, sql_result: "S1", citations: ["S1"], text: "These albums [S1]." } },
      ],
    });
    const gold = await music.select("SELECT ?a WHERE { ?a <http://example.org/tunes/vocab#performer> <http://example.org/tunes/id/artist/Mira%20Solberg> }");
    expect(result.answer.kind).toBe("items");
    if (result.answer.kind !== "items") return;
    expect(result.answer.items.map((i) => i.value).sort()).toEqual(gold.results.bindings.map((b) => b.a.value).sort());
    for (const item of result.answer.items) {
      expect(item).toMatchObject({ type: "uri", label: expect.any(String) });
      const c = result.answer.citations!.find((x) => x.id === item.cite?.[0]);
      expect(c).toMatchObject({ kind: "sql-row", iris: [item.value] });
    }
  }, 60_000);
});
