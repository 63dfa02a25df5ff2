// Analytic questions (issue 28) end to end on a small town KG with a scripted model: the QIR marks "compose", linking
// runs as for any question, and the query writer's query — checked against what the prompt listed and the KG — gives
// the answer: several columns ordered by several keys, counts per group with a condition, two aggregates compared
// (yes/no, a percentage), both / either / neither, above the average, the most common with ties kept. A simple
// question never reaches the writer; a query naming what was not listed goes back; a declined one falls back.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { lastUserText, type PlainMessage } from "@/lib/llm/testing/replies";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { DEFAULT_CONFIG, type Answer } from "@/lib/pipeline/types";
import { createFixtureKg, runToEnd } from "@/test/fixtures/kg/harness";
import { chattyKgStrategy } from "../strategy";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import type sparqljs from "sparqljs";
import { withTieBreaks } from "./query-writer";

const T = "http://example.org/town/";
const kg = createFixtureKg(path.join(process.cwd(), "test/fixtures/kg/chatty/town-shops.ttl"));
const similarity = createLexicalSimilarity();

const ask = (question: string, qir: Record<string, unknown>) => ({ toolCall: { name: KG_TOOL, input: { question, language: "en", context_dependent: false, qir } } });
/** A predicate-selection reply choosing the listed predicates whose text passes `test`. */
const pickPredicates = (test: (text: string) => boolean) => (messages: PlainMessage[]) => {
  const listed = lastUserText(messages).split("\nPredicates:\n")[1] ?? "";
  const predicates = [...listed.matchAll(/^(\d+)\. (.*)$/gm)].filter((m) => test(m[2])).map((m) => Number(m[1]));
  return { json: { reasoning: "scripted", predicates, none_fit: predicates.length === 0 } };
};
const written = (sparql: string) => ({ json: { reasoning: "scripted", sparql } });

async function turn(question: string, script: Script) {
  const llm = createScriptedLlm(script);
  const { result, events } = await runToEnd(chattyKgStrategy.run({ question, dialogue: [], config: DEFAULT_CONFIG }, { kg, llm: llm.gateway, similarity }));
  return { result, events, llm, roles: llm.calls.map((c) => c.role) };
}

type Item = { value: string; label?: string };
const shown = (i: Item | null) => (i ? (i.label ?? i.value) : null);
const labels = (a: Answer) => (a.kind === "items" ? a.items.map((i) => shown(i as Item)).sort() : []);
const cells = (a: Answer) => (a.kind === "table" ? a.rows.map((r) => r.map((c) => shown(c as Item | null))) : []);

// the QIR of "cafés and their seats" questions: a class and a relation, composed
const cafeSeats = { entities: [], unknowns: ["?cafe", "?seats"], relations: ["seats"], triples: [["?cafe", "seats", "?seats"]], target: "?cafe", question_type: "factoid", classes: [{ var: "?cafe", class: "cafe" }], compose: true };

describe("Chatty-KG's query writer (QIR compose)", () => {
  it("several columns ordered by two keys, ties in the first key kept in order of the second", async () => {
    const q = "List every cafe with its seats and opening year, most seats first, then the oldest.";
    const { result, roles } = await turn(q, {
      chat: [ask(q, { ...cafeSeats, unknowns: ["?cafe", "?seats", "?year"], relations: ["seats", "opening year"], triples: [["?cafe", "seats", "?seats"], ["?cafe", "opening year", "?year"]], columns: ["?seats", "?year"] })],
      "query-writer": [written(`SELECT ?cafe ?seats ?year WHERE { ?cafe a <${T}Cafe> ; <${T}seats> ?seats ; <${T}opened> ?year } ORDER BY DESC(?seats) ?year`)],
    });
    expect(result.error).toBeUndefined();
    expect(cells(result.answer)).toEqual([
      ["Blue Cup", "40", "1998"],
      ["Little Roast", "25", "2001"],
      ["Corner Bean", "25", "2005"],
      ["Quay Cup", "12", "2010"],
    ]);
    // the written query chose its predicates: no predicate-selection call
    expect(roles).toEqual(["chat", "query-writer"]);
  });

  it("counts per group with a condition on the count (HAVING)", async () => {
    const q = "Which streets have at least two cafes?";
    const { result } = await turn(q, {
      chat: [ask(q, { entities: [], unknowns: ["?cafe", "?street"], relations: ["on street"], triples: [["?cafe", "on street", "?street"]], target: "?street", question_type: "factoid", classes: [{ var: "?cafe", class: "cafe" }], compose: true })],
      "query-writer": [written(`SELECT ?street WHERE { ?cafe a <${T}Cafe> ; <${T}onStreet> ?street } GROUP BY ?street HAVING (COUNT(DISTINCT ?cafe) >= 2)`)],
    });
    expect(labels(result.answer)).toEqual(["Mill Lane"]);
  });

  it("compares two aggregates and answers yes or no", async () => {
    const q = "Are there more cafes than bakeries?";
    const { result } = await turn(q, {
      chat: [ask(q, { entities: [], unknowns: ["?cafe", "?bakery"], relations: ["on street"], triples: [["?cafe", "on street", "?s1"], ["?bakery", "on street", "?s2"]], target: null, question_type: "boolean", classes: [{ var: "?cafe", class: "cafe" }, { var: "?bakery", class: "bakery" }], compose: true })],
      "query-writer": [written(`ASK { { SELECT (COUNT(?c) AS ?cafes) WHERE { ?c a <${T}Cafe> } } { SELECT (COUNT(?b) AS ?bakeries) WHERE { ?b a <${T}Bakery> } } FILTER(?cafes > ?bakeries) }`)],
    });
    expect(result.answer).toEqual({ kind: "boolean", value: true });
  });

  it("answers a percentage as a number", async () => {
    const q = "What percentage of the cafes have more than 20 seats?";
    const { result } = await turn(q, {
      chat: [ask(q, cafeSeats)],
      "query-writer": [written(`SELECT ((100 * SUM(IF(?seats > 20, 1, 0)) / COUNT(?cafe)) AS ?percentage) WHERE { ?cafe a <${T}Cafe> ; <${T}seats> ?seats }`)],
    });
    expect(result.answer).toEqual({ kind: "count", count: 75 });
  });

  it("set conditions: both, either and neither", async () => {
    const qir = { entities: [], unknowns: ["?person"], relations: ["speaks"], triples: [["?person", "speaks", "French"], ["?person", "speaks", "Italian"]], target: "?person", question_type: "factoid", values: [{ text: "French", type: "string" }, { text: "Italian", type: "string" }], compose: true };
    const speaks = `<${T}speaks>`;
    const both = await turn("Who speaks both French and Italian?", {
      chat: [ask("Who speaks both French and Italian?", qir)],
      "query-writer": [written(`SELECT ?p WHERE { ?p ${speaks} "French" . ?p ${speaks} "Italian" }`)],
    });
    expect(labels(both.result.answer)).toEqual(["Anna Vik"]);
    const either = await turn("Who speaks either Italian or German?", {
      chat: [ask("Who speaks either Italian or German?", { ...qir, triples: [["?person", "speaks", "Italian"], ["?person", "speaks", "German"]], values: [{ text: "Italian", type: "string" }, { text: "German", type: "string" }] })],
      "query-writer": [written(`SELECT DISTINCT ?p WHERE { { ?p ${speaks} "Italian" } UNION { ?p ${speaks} "German" } }`)],
    });
    expect(labels(either.result.answer)).toEqual(["Anna Vik", "Carl Lund", "Dora Fenn"]);
    const neither = await turn("Which people speak neither French nor Italian?", {
      chat: [ask("Which people speak neither French nor Italian?", { ...qir, classes: [{ var: "?person", class: "person" }] })],
      "query-writer": [written(`SELECT ?p WHERE { ?p a <${T}Person> FILTER NOT EXISTS { ?p ${speaks} ?l FILTER(?l IN ("French", "Italian")) } }`)],
    });
    expect(labels(neither.result.answer)).toEqual(["Dora Fenn"]);
  });

  it("compares two named entities (yes/no), answers a difference as a number, and leaves out what 'except' names", async () => {
    const two = { entities: ["Blue Cup", "Corner Bean"], unknowns: ["?a", "?b"], relations: ["seats"], triples: [["Blue Cup", "seats", "?a"], ["Corner Bean", "seats", "?b"]], target: null, question_type: "boolean", compose: true };
    const more = await turn("Does Blue Cup have more seats than Corner Bean?", {
      chat: [ask("Does Blue Cup have more seats than Corner Bean?", two)],
      "query-writer": [written(`ASK { <${T}bluecup> <${T}seats> ?a . <${T}cornerbean> <${T}seats> ?b FILTER(?a > ?b) }`)],
    });
    expect(more.result.answer).toEqual({ kind: "boolean", value: true });
    // the QIR joins only one of them by a triple: the other is still linked and listed for the writer
    let prompt = "";
    const one = await turn("Does Blue Cup have more seats than Corner Bean?", {
      chat: [ask("Does Blue Cup have more seats than Corner Bean?", { ...two, triples: [["Blue Cup", "seats", "?a"]] })],
      "query-writer": [
        (messages: PlainMessage[]) => {
          prompt = lastUserText(messages);
          return written(`ASK { <${T}bluecup> <${T}seats> ?a . <${T}cornerbean> <${T}seats> ?b FILTER(?a > ?b) }`);
        },
      ],
    });
    expect(prompt).toContain(`"Corner Bean" → <${T}cornerbean>`);
    expect(one.result.answer).toEqual({ kind: "boolean", value: true });
    const diff = await turn("How many more seats does Blue Cup have than Corner Bean?", {
      chat: [ask("How many more seats does Blue Cup have than Corner Bean?", { ...two, target: "?a", question_type: "factoid" })],
      "query-writer": [written(`SELECT ((?a - ?b) AS ?difference) WHERE { <${T}bluecup> <${T}seats> ?a . <${T}cornerbean> <${T}seats> ?b }`)],
    });
    expect(diff.result.answer).toEqual({ kind: "count", count: 15 });
    const except = await turn("Which cafes except those on Mill Lane opened after 2000?", {
      chat: [ask("Which cafes except those on Mill Lane opened after 2000?", { entities: ["Mill Lane"], unknowns: ["?cafe", "?year"], relations: ["on", "opened"], triples: [["?cafe", "on", "Mill Lane"], ["?cafe", "opened", "?year"]], target: "?cafe", question_type: "factoid", classes: [{ var: "?cafe", class: "cafe" }], compose: true })],
      "query-writer": [written(`SELECT ?cafe WHERE { ?cafe a <${T}Cafe> ; <${T}opened> ?year FILTER(?year > 2000) MINUS { ?cafe <${T}onStreet> <${T}mill> } }`)],
    });
    expect(labels(except.result.answer)).toEqual(["Little Roast", "Quay Cup"]);
  });

  it("nested conditions: above the average, and the most common value with ties kept", async () => {
    const q = "Which cafes have more seats than the average cafe?";
    const above = await turn(q, {
      chat: [ask(q, cafeSeats)],
      "query-writer": [written(`SELECT ?cafe WHERE { ?cafe a <${T}Cafe> ; <${T}seats> ?seats { SELECT (AVG(?s) AS ?avg) WHERE { ?c a <${T}Cafe> ; <${T}seats> ?s } } FILTER(?seats > ?avg) }`)],
    });
    expect(labels(above.result.answer)).toEqual(["Blue Cup"]);
    const common = "Which language is the most common among the people?";
    const most = await turn(common, {
      chat: [ask(common, { entities: [], unknowns: ["?person", "?language"], relations: ["speaks"], triples: [["?person", "speaks", "?language"]], target: "?language", question_type: "factoid", classes: [{ var: "?person", class: "person" }], compose: true })],
      "query-writer": [
        written(
          `SELECT ?language WHERE { { SELECT ?language (COUNT(?p) AS ?n) WHERE { ?p <${T}speaks> ?language } GROUP BY ?language } { SELECT (MAX(?m) AS ?top) WHERE { { SELECT (COUNT(?q) AS ?m) WHERE { ?q <${T}speaks> ?l } GROUP BY ?l } } } FILTER(?n = ?top) }`,
        ),
      ],
    });
    expect(labels(most.result.answer)).toEqual(["French", "Italian"]);
  });

  it("shows the writer the classes around the linked parts, blank-node rows included, and sends back a query naming an IRI it did not list", async () => {
    const q = "What is the best inspection score of each cafe?";
    let prompt = "";
    const { result, llm } = await turn(q, {
      chat: [ask(q, { entities: [], unknowns: ["?inspection", "?score"], relations: ["score"], triples: [["?inspection", "score", "?score"]], target: "?score", question_type: "factoid", classes: [{ var: "?inspection", class: "inspection" }], compose: true })],
      "query-writer": [
        (messages: PlainMessage[]) => {
          prompt = lastUserText(messages);
          return written(`SELECT ?name (MAX(?score) AS ?best) WHERE { ?i <${T}shopName> ?name ; <${T}grade> ?score } GROUP BY ?name`);
        },
        written(`SELECT ?name (MAX(?score) AS ?best) WHERE { ?i a <${T}Inspection> ; <${T}shopName> ?name ; <${T}score> ?score } GROUP BY ?name`),
      ],
    });
    // the inspections are blank nodes: their predicates were still read (relation linking and the class card)
    expect(prompt).toContain(`<${T}Inspection>`);
    expect(prompt).toContain(`?x <${T}shopName> ?value`);
    expect(llm.records.find((r) => r.role === "query-writer")?.validationError).toMatch(/<http:\/\/example\.org\/town\/grade> is not among the listed IRIs\./);
    expect(cells(result.answer).sort()).toEqual([
      ["Blue Cup", "9"],
      ["Corner Bean", "6"],
      ["Crumb", "8"],
    ]);
  });

  it("sends a written query that passed the checks but failed to run back once, with the engine's error", async () => {
    const q = "What is the total number of seats of the cafes?";
    let repairPrompt = "";
    const cast = (fn: string) => `SELECT (SUM(${fn}(?seats)) AS ?total) WHERE { ?cafe a <${T}Cafe> ; <${T}seats> ?seats }`;
    const { result, roles } = await turn(q, {
      chat: [ask(q, { ...cafeSeats, target: "?seats" })],
      "query-writer": [
        written(cast("<http://www.w3.org/2001/XMLSchema#int>")),
        (messages: PlainMessage[]) => {
          repairPrompt = lastUserText(messages);
          return written(cast("<http://www.w3.org/2001/XMLSchema#integer>"));
        },
      ],
    });
    expect(repairPrompt).toMatch(/Running it failed: .*XMLSchema#int/);
    expect(roles).toEqual(["chat", "query-writer", "query-writer"]);
    expect(result.answer).toEqual({ kind: "count", count: 102 });
  });

  it("runs the generated queries when the writer declines", async () => {
    const q = "How many seats does each cafe have, and which is the ratio to the bakeries?";
    const { result, roles, events } = await turn(q, {
      chat: [ask(q, { ...cafeSeats, target: "?seats", columns: ["?cafe"] })],
      "query-writer": [{ json: { reasoning: "cannot", sparql: null } }],
      predicates: [pickPredicates((t) => t === "seats")],
    });
    expect(roles).toEqual(["chat", "query-writer", "predicates"]);
    expect(events).toContainEqual(expect.objectContaining({ type: "warning", stage: "query-generation", message: expect.stringMatching(/found the linked parts insufficient/) }));
    expect(cells(result.answer)).toHaveLength(4);
  });

  it("a simple question keeps today's path: no writer call", async () => {
    const q = "Who owns Blue Cup?";
    const { result, roles } = await turn(q, {
      chat: [ask(q, { entities: ["Blue Cup"], unknowns: ["?owner"], relations: ["owns"], triples: [["?owner", "owns", "Blue Cup"]], target: "?owner", question_type: "factoid" })],
      predicates: [{ json: { reasoning: "scripted", predicates: [1], none_fit: false } }],
    });
    expect(roles).not.toContain("query-writer");
    expect(labels(result.answer)).toEqual(["Anna Vik"]);
  });

  it("stays correctable: a candidate correction runs a generated query alone, a relation correction writes the query again", async () => {
    const q = "List every cafe with its seats, most seats first.";
    const qir = { ...cafeSeats, columns: ["?seats"] };
    const query = `SELECT ?cafe ?seats WHERE { ?cafe a <${T}Cafe> ; <${T}seats> ?seats } ORDER BY DESC(?seats) ?cafe`;
    const first = await turn(q, { chat: [ask(q, qir)], "query-writer": [written(query)] });
    const candidates = (first.result.snapshot as { candidates: { id: number; written?: boolean }[] }).candidates;
    expect(candidates[0]).toMatchObject({ id: 1, written: true });
    const generated = candidates.find((c) => !c.written);
    expect(generated).toBeDefined();
    const rerun = async (correction: Parameters<NonNullable<typeof chattyKgStrategy.rerun>["check"]>[0]["correction"], script: Script) => {
      const llm = createScriptedLlm(script);
      const input = { question: q, dialogue: [], config: DEFAULT_CONFIG, correction, snapshot: first.result.snapshot, baseTrace: first.events };
      chattyKgStrategy.rerun!.check(input);
      const { result } = await runToEnd(chattyKgStrategy.rerun!.run(input, { kg, llm: llm.gateway, similarity }));
      return { result, roles: llm.calls.map((c) => c.role) };
    };
    // the generated candidate alone: no model call, its rows (unordered, no ties broken) answer
    const picked = await rerun({ kind: "candidate", id: generated!.id }, {});
    expect(picked.roles).toEqual([]);
    expect(picked.result.sparql).not.toContain(query);
    expect(cells(picked.result.answer)).toHaveLength(4);
    // keeping the ranked predicate for "seats" re-runs generation: the writer is asked again
    const seats = (first.result.snapshot as { relationPredicates: Record<string, { iri: string }[]> }).relationPredicates.seats.map((p) => p.iri);
    const again = await rerun({ kind: "relation-predicates", predicates: { seats: seats.slice(0, 1) } }, { "query-writer": [written(query)] });
    expect(again.roles).toEqual(["query-writer"]);
    expect(cells(again.result.answer)[0]).toEqual(["Blue Cup", "40"]);
  });

  it("breaks ties under a window by the shown variables, so every engine keeps the same rows", () => {
    const parse = (q: string) => parseSparql(q) as sparqljs.SelectQuery;
    const cut = withTieBreaks(parse(`SELECT ?cafe ?seats WHERE { ?cafe <${T}seats> ?seats } ORDER BY DESC(?seats) LIMIT 2`)) ?? "";
    expect(cut.replace(/\s+/g, " ")).toMatch(/ORDER BY DESC ?\(\?seats\) \(?\?cafe\)? LIMIT 2/);
    expect(withTieBreaks(parse(`SELECT ?cafe WHERE { ?cafe <${T}seats> ?seats } ORDER BY DESC(?seats)`))).toBeUndefined();
  });
});
