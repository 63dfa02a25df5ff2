// The explorer end to end with scripted models on real embedded stores: the sample KG and the music KG (kg/music.ttl).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { createScriptedLlm, type ScriptedReply } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DerivationEvent, type DialogueTurn, type ExperienceSource, type PipelineConfig, type TurnResult } from "@/lib/pipeline/types";
import { createEntityIndexCache } from "./entity-index";
import { createShapeCache } from "./kg-shape";
import { createExplorerStrategy } from "./strategy";

const RES = "http://example.org/chatty-kg/resource/";
const TUNES = "http://example.org/tunes/id/";
let sample: KnowledgeGraph;
let music: KnowledgeGraph;
// one strategy (and so one shape and entity-index cache per KG) for the whole file, as in the app
const strategy = createExplorerStrategy({ shapes: createShapeCache(), entityIndexes: createEntityIndexCache() });

beforeAll(async () => {
  sample = await openKg({ kind: "sample" });
  // the music KG's own profile, but without tv:trackTitle: track titles must be found as label-like literals anyway
  const profile = JSON.parse(readFileSync("kg/music.profile.json", "utf8")) as { labelPredicates: string[] };
  music = await openKg({ kind: "files", paths: ["kg/music.ttl"], profile: { ...profile, labelPredicates: profile.labelPredicates.filter((p) => !p.endsWith("#trackTitle")) } });
}, 60_000);
afterAll(async () => {
  await sample?.close();
  await music?.close();
});

const call = (name: string, input: Record<string, unknown>) => ({ toolCall: { name, input } });
const plan = call("plan", { steps: ["find the entity", "find the property", "query and finish"] });
const chat = (question: string, language = "en", contextDependent = false) =>
  call("ask_knowledge_graph", { question, language, context_dependent: contextDependent });
const lastTool = (m: PlainMessage[]) => [...m].reverse().find((x) => x.role === "tool")?.text ?? "";
/** a reply that is a function of the last tool result (so the script reads what the tools returned) */
const after = (f: (toolText: string) => ReturnType<typeof call>): ScriptedReply => (m) => f(lastTool(m));

async function ask(kg: KnowledgeGraph, question: string, script: { chat: ScriptedReply[]; explorer: ScriptedReply[] }, opts: { dialogue?: DialogueTurn[]; config?: Partial<PipelineConfig>; experience?: ExperienceSource } = {}) {
  const llm = createScriptedLlm(script);
  const gen = strategy.run(
    { question, dialogue: opts.dialogue ?? [], config: { ...DEFAULT_CONFIG, strategy: "explorer", ...opts.config } },
    { kg, llm: llm.gateway, similarity: createLexicalSimilarity(), ...(opts.experience ? { experience: opts.experience } : {}) },
  );
  const events: DerivationEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  const tools = events.flatMap((e) => (e.type === "tool-call" && e.stage === "explore" ? [e] : []));
  const explorerCalls = llm.calls.filter((c) => c.role === "explorer");
  return { result: step.value as TurnResult, events, tools, llm, explorerCalls };
}

describe("explorer on the sample KG", () => {
  it("plans, explores in several steps and answers with the rows of its final query", async () => {
    const final = "SELECT ?author WHERE { res:Harry_Potter ont:author ?author }";
    const { result, events, tools, explorerCalls } = await ask(sample, "Who is the author of Harry Potter?", {
      chat: [chat("Who is the author of Harry Potter?")],
      explorer: [
        plan,
        call("search_entities", { query: "Harry Potter", class: "ont:BookSeries" }),
        after((t) => {
          expect(t).toMatch(/res:Harry_Potter "Harry Potter" — a ont:BookSeries/);
          return call("describe_entity", { iri: "res:Harry_Potter", direction: "out" });
        }),
        after((t) => {
          expect(t).toMatch(/→ ont:author: res:J_K_Rowling "J. K. Rowling"/);
          return call("execute_sparql", { sparql: final });
        }),
        after((t) => {
          expect(t).toMatch(/^1 row, 1 column/);
          return call("finish", { sparql: final, explanation: "the series' author" });
        }),
      ],
    });
    expect(result.source).toBe("kg");
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "uri", value: `${RES}J_K_Rowling`, label: "J. K. Rowling" }] });
    expect(result.sparql).toHaveLength(1);
    expect(result.sparql[0]).toContain("res:Harry_Potter ont:author ?author");
    expect(result.sparql[0]).not.toMatch(/LIMIT/);
    expect(tools.map((t) => t.tool)).toEqual(["search_entities", "describe_entity", "execute_sparql", "finish"]);
    expect(tools.every((t) => typeof t.ms === "number" && t.output !== undefined)).toBe(true);
    expect(result.stats.toolCalls).toBe(4);
    const ended = events.flatMap((e) => (e.type === "stage-end" ? [e.stage] : []));
    expect(ended).toEqual(["plan", "explore", "execution", "chat"]);
    const planEnd = events.find((e) => e.type === "stage-end" && e.stage === "plan");
    expect(planEnd && planEnd.type === "stage-end" && planEnd.summary).toMatch(/^1\. find the entity 2\. find the property/);
    // the model sees the schema summary and every tool result, each with the calls left
    expect(explorerCalls[0].messages[0].text).toContain("ont:author");
    expect(lastTool(explorerCalls[4].messages)).toMatch(/\[17 tool call\(s\) left\]$/);
  });

  it("refuses a final query with an IRI no tool returned, and accepts it once the model found the real one", async () => {
    const { result, tools } = await ask(sample, "Who wrote Harry Potter?", {
      chat: [chat("Who wrote Harry Potter?")],
      explorer: [
        plan,
        // describing an invented IRI shows nothing, and does not make it known
        call("describe_entity", { iri: `<${RES}HarryPotter>` }),
        after((t) => {
          expect(t).toMatch(/this IRI is not in the KG/);
          return call("finish", { sparql: `SELECT ?w WHERE { <${RES}HarryPotter> <http://example.org/chatty-kg/ontology/author> ?w }` });
        }),
        after((t) => {
          expect(t).toMatch(/^Not accepted:/);
          expect(t).toContain(`<${RES}HarryPotter> was not returned by any tool`);
          return call("search_entities", { query: "Harry Potter" });
        }),
        call("finish", { sparql: "SELECT ?w WHERE { res:Harry_Potter ont:author ?w }" }),
      ],
    });
    expect(tools.map((t) => t.tool)).toEqual(["describe_entity", "finish", "search_entities", "finish"]);
    expect(result.answer).toMatchObject({ kind: "items", items: [{ value: `${RES}J_K_Rowling` }] });
  });

  it("feeds a SPARQL syntax error back with its line and column, and the fixed query answers", async () => {
    const broken = "SELECT ?d WHERE {\n  res:Harry_Potter_and_the_Philosophers_Stone_film ont:releaseDate ?d\n";
    const { result } = await ask(sample, "When was the first Harry Potter film released?", {
      chat: [chat("When was the first Harry Potter film released?")],
      explorer: [
        plan,
        call("search_entities", { query: "Philosopher's Stone", class: "ont:Film" }),
        call("execute_sparql", { sparql: broken }),
        after((t) => {
          expect(t).toMatch(/^The query was not run: SPARQL syntax error at line \d+, column \d+/);
          return call("execute_sparql", { sparql: `${broken}}` });
        }),
        after((t) => {
          expect(t).toMatch(/^1 row/);
          return call("finish", { sparql: `${broken}}` });
        }),
      ],
    });
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "literal", value: "2001-11-16", datatype: "http://www.w3.org/2001/XMLSchema#date" }] });
  });

  it("ends the turn clearly when the tool calls run out, without a guess", async () => {
    const search = call("search_entities", { query: "Harry Potter" });
    const { result, tools } = await ask(sample, "Who wrote Harry Potter?", { chat: [chat("Who wrote Harry Potter?")], explorer: [plan, search, search, search] }, { config: { explorerMaxSteps: 3 } });
    expect(tools).toHaveLength(3);
    // with two calls left only the ending tools (and execute_sparql) are offered: the searches after the first fail
    expect(tools.map((t) => t.error === undefined)).toEqual([true, false, false]);
    expect(result.source).toBe("failed");
    expect(result.answer.kind).toBe("none");
    expect(result.error).toMatchObject({ stage: "explore", message: expect.stringMatching(/used all 3 tool calls without an accepted final query/) });
    expect(result.sparql).toEqual([]);
  });

  it("says the KG cannot answer only after exploring, and with the model's reason", async () => {
    const { result, tools } = await ask(sample, "What is the boiling point of water?", {
      chat: [chat("What is the boiling point of water?")],
      explorer: [
        plan,
        call("cannot_answer", { reason: "Water is not in this KG." }),
        after((t) => {
          expect(t).toMatch(/^Not accepted: explore the KG first/);
          return call("search_schema", { query: "boiling point", kind: "property" });
        }),
        call("search_entities", { query: "water" }),
        call("cannot_answer", { reason: "No property about boiling points or temperatures, and no entity named water." }),
      ],
    });
    expect(tools.map((t) => t.tool)).toEqual(["cannot_answer", "search_schema", "search_entities", "cannot_answer"]);
    expect(result.source).toBe("none");
    expect(result.answer).toEqual({ kind: "none", reason: "The KG cannot answer this: No property about boiling points or temperatures, and no entity named water." });
  });

  it("takes a German question: the English standalone question is explored, the German one is shown too", async () => {
    const { result, explorerCalls } = await ask(sample, "Wer hat Harry Potter geschrieben?", {
      chat: [chat("Who wrote Harry Potter?", "de")],
      explorer: [plan, call("search_entities", { query: "Harry Potter", class: "ont:BookSeries" }), call("finish", { sparql: "SELECT ?a WHERE { res:Harry_Potter ont:author ?a }" })],
    });
    const prompt = explorerCalls[0].messages.find((m) => m.role === "user")?.text ?? "";
    expect(prompt).toContain("Question: Who wrote Harry Potter?");
    expect(prompt).toContain("(The user wrote in de: Wer hat Harry Potter geschrieben?)");
    expect(result.answer).toMatchObject({ kind: "items", items: [{ label: "J. K. Rowling" }] });
  });

  it("answers a follow-up from the dialogue: the earlier answer's IRI may be used without searching it again", async () => {
    const dialogue: DialogueTurn[] = [{ question: "Who is the author of Harry Potter?", answer: { kind: "items", items: [{ type: "uri", value: `${RES}J_K_Rowling`, label: "J. K. Rowling" }] } }];
    const { result, explorerCalls, tools } = await ask(
      sample,
      "When was she born?",
      { chat: [chat("When was J. K. Rowling born?", "en", true)], explorer: [plan, call("finish", { sparql: "SELECT ?d WHERE { res:J_K_Rowling ont:birthDate ?d }" })] },
      { dialogue },
    );
    expect(explorerCalls[0].messages.find((m) => m.role === "user")?.text).toContain(`A1: J. K. Rowling <${RES}J_K_Rowling>`);
    expect(tools.map((t) => t.tool)).toEqual(["finish"]);
    expect(result.answer).toMatchObject({ kind: "items", items: [{ type: "literal", value: "1965-07-31" }] });
  });

  it("shows the best-matching solved questions of the experience pool as examples", async () => {
    const experience: ExperienceSource = {
      examples: async () => [
        { id: "e1", question: "Who is the author of The Hobbit?", sparql: "SELECT ?a WHERE { <http://example.org/kb/Hobbit> <http://example.org/kb/author> ?a }", source: "import" },
        { id: "e2", question: "How tall is the Eiffel Tower?", sparql: "SELECT ?h WHERE { ?t <http://example.org/kb/height> ?h }", source: "feedback" },
      ],
    };
    const { explorerCalls, events } = await ask(
      sample,
      "Who is the author of Harry Potter?",
      { chat: [chat("Who is the author of Harry Potter?")], explorer: [plan, call("finish", { sparql: "SELECT ?a WHERE { res:Harry_Potter ont:author ?a }" })] },
      { experience },
    );
    const system = explorerCalls[0].messages[0].text;
    expect(system).toContain("Example 1. Question: Who is the author of The Hobbit?");
    expect(system).not.toContain("Eiffel");
    const planEnd = events.find((e) => e.type === "stage-end" && e.stage === "plan");
    expect(planEnd && planEnd.type === "stage-end" && planEnd.summary).toMatch(/1 solved example\(s\) from the experience pool/);
  });
});

describe("explorer on the music KG", () => {
  it("finds an artist by a name in foaf:name and answers with the percent-encoded IRI byte for byte", async () => {
    const { result } = await ask(music, "Which albums did Mira Solberg release?", {
      chat: [chat("Which albums did Mira Solberg release?")],
      explorer: [
        plan,
        call("search_entities", { query: "Mira Solberg" }),
        after((t) => {
          expect(t).toContain(`<${TUNES}artist/Mira%20Solberg> "Mira Solberg"`);
          return call("property_values", { iri: `<${TUNES}artist/Mira%20Solberg>`, property: "tv:performer", direction: "in" });
        }),
        after((t) => {
          expect(t).toMatch(/^3 subject\(s\) → tv:performer →/);
          return call("finish", { sparql: `SELECT ?album WHERE { ?album tv:performer <${TUNES}artist/Mira%20Solberg> }` });
        }),
      ],
    });
    expect(result.answer.kind).toBe("items");
    expect(result.answer.kind === "items" && result.answer.items.map((i) => i.value).sort()).toEqual([`${TUNES}album-aurora`, `${TUNES}album-fjord-letters`, `${TUNES}album-paper-boats`].sort());
  });

  it("refuses an IRI that differs from the returned one only in percent-encoding, names the exact form, and warns", async () => {
    const decoded = `<${TUNES}artist/Tomás%20Ferreira>`;
    const exact = `<${TUNES}artist/Tom%C3%A1s%20Ferreira>`;
    const { result, events } = await ask(music, "Where is Tomás Ferreira from?", {
      chat: [chat("Where is Tomás Ferreira from?")],
      explorer: [
        plan,
        call("search_entities", { query: "Tomás Ferreira" }),
        call("finish", { sparql: `SELECT ?c WHERE { ${decoded} tv:originCountry ?c }` }),
        after((t) => {
          expect(t).toContain(`differs from the IRI a tool returned only in its percent-encoding: use ${exact} exactly as returned`);
          return call("finish", { sparql: `SELECT ?c WHERE { ${exact} tv:originCountry ?c }` });
        }),
      ],
    });
    expect(events.some((e) => e.type === "warning" && /percent-encoding/.test(e.message))).toBe(true);
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "literal", value: "Portugal" }] });
  });

  it("finds a literal constant with search_values and refuses to take an answer pasted in as VALUES", async () => {
    const { result, tools } = await ask(music, "How many bands are from Iceland?", {
      chat: [chat("How many bands are from Iceland?")],
      explorer: [
        plan,
        call("search_values", { query: "iceland" }),
        after((t) => {
          expect(t).toMatch(/"Iceland" — tv:originCountry of \d+ subjects?/);
          return call("execute_sparql", { sparql: 'SELECT ?b WHERE { ?b a tv:Band ; tv:originCountry "Iceland" }' });
        }),
        after((t) => {
          const iris = [...t.matchAll(/t:band-[\w-]+/g)].map((m) => m[0]);
          return call("finish", { sparql: `SELECT ?b WHERE { VALUES ?b { ${iris.join(" ")} } }` });
        }),
        after((t) => {
          expect(t).toMatch(/\?b is fixed by VALUES to value\(s\) an earlier query returned/);
          return call("finish", { sparql: 'SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE { ?b a tv:Band ; tv:originCountry "Iceland" }' });
        }),
      ],
    });
    expect(tools.map((t) => t.tool)).toEqual(["search_values", "execute_sparql", "finish", "finish"]);
    expect(result.answer.kind).toBe("count");
  });

  it("says the German question was translated, and translates it itself when the Chat agent never calls its KG tool", async () => {
    const finish = call("finish", { sparql: "SELECT ?a WHERE { ?a tv:performer t:band-Hollow-Pines }" });
    const batched = await ask(music, "Welche Alben hat Hollow Pines veröffentlicht?", { chat: [chat("Which albums did Hollow Pines release?", "de")], explorer: [plan, finish] });
    const chatEnd = batched.events.find((e) => e.type === "stage-end" && e.stage === "chat");
    expect(chatEnd).toMatchObject({ summary: 'Asked the KG: "Which albums did Hollow Pines release?" (translated from de)' });
    // the Chat agent answers by itself twice: the translation step runs before the KG is explored
    const fallback = await ask(music, "Welche Alben hat Hollow Pines veröffentlicht?", {
      chat: [{ text: "Die Alben sind …" }, { text: "Die Alben sind …" }],
      translator: [{ json: { language: "de", english: "Which albums did Hollow Pines release?" } }],
      explorer: [plan, call("search_entities", { query: "Hollow Pines", class: "tv:Band" }), finish],
    } as Parameters<typeof ask>[2]);
    expect(fallback.events.find((e) => e.type === "stage-end" && e.stage === "translate")).toMatchObject({ summary: 'Translated from de: "Which albums did Hollow Pines release?"' });
    expect(fallback.explorerCalls[0].messages.map((m) => m.text).join("\n")).toContain("Which albums did Hollow Pines release?");
    expect(fallback.result.answer.kind).toBe("items");
  });

  it("answers a German question and a follow-up in a music dialogue", async () => {
    const first = await ask(music, "Welche Alben hat Hollow Pines veröffentlicht?", {
      chat: [chat("Which albums did Hollow Pines release?", "de")],
      explorer: [plan, call("search_entities", { query: "Hollow Pines", class: "tv:Band" }), call("finish", { sparql: "SELECT ?a WHERE { ?a tv:performer t:band-Hollow-Pines }" })],
    });
    expect(first.result.answer.kind).toBe("items");
    const dialogue: DialogueTurn[] = [{ question: "Welche Alben hat Hollow Pines veröffentlicht?", answer: first.result.answer }];
    const second = await ask(
      music,
      "Und welches war das erste?",
      {
        chat: [chat("Which was the first album Hollow Pines released?", "de", true)],
        explorer: [
          plan,
          call("search_entities", { query: "Hollow Pines" }),
          call("finish", { sparql: "SELECT ?a WHERE { ?a tv:performer t:band-Hollow-Pines ; tv:releaseDate ?d } ORDER BY ?d LIMIT 1" }),
        ],
      },
      { dialogue },
    );
    expect(second.result.answer).toMatchObject({ kind: "items", items: [{ value: `${TUNES}album-cedar-lines` }] });
  });

  it("feeds a syntax error back at the line the model wrote it (PREFIX lines added above not counted), and the fix answers", async () => {
    const { result } = await ask(music, "Which tracks are longer than 500 seconds?", {
      chat: [chat("Which tracks are longer than 500 seconds?")],
      explorer: [
        plan,
        call("execute_sparql", { sparql: "SELECT ?t WHERE { ?t a tv:Track ; tv:duration ?s FILTER (?s > 500 }" }),
        after((t) => {
          if (!/^The query was not run: SPARQL syntax error at line 1, column \d+/.test(t)) throw new Error(`unexpected tool result: ${t}`);
          return call("finish", { sparql: "SELECT ?t WHERE { ?t a tv:Track ; tv:duration ?s FILTER (?s > 500) }" });
        }),
      ],
    });
    expect(result.error).toBeUndefined();
    expect(result.answer.kind).toBe("items");
    expect(result.answer.kind === "items" && result.answer.items.length).toBeGreaterThan(0);
  });

  it("says the KG cannot answer, with the reason, after exploring the music KG", async () => {
    const { result } = await ask(music, "What is the tempo of Aurora?", {
      chat: [chat("What is the tempo of Aurora?")],
      explorer: [plan, call("search_schema", { query: "tempo beats per minute", kind: "property" }), call("cannot_answer", { reason: "No property holds a tempo or beats per minute; the closest are duration and rating." })],
    });
    expect(result).toMatchObject({ source: "none", answer: { kind: "none", reason: expect.stringContaining("No property holds a tempo") } });
  });

  it("ends the turn clearly when the token budget runs out, without a guess", async () => {
    const search = call("search_entities", { query: "Aurora" });
    const { result, tools, explorerCalls } = await ask(music, "Who recorded Aurora?", { chat: [chat("Who recorded Aurora?")], explorer: [plan, search, search] }, { config: { explorerMaxTokens: 1000 } });
    // the plan call alone (with the schema summary) already uses more than 1,000 tokens: no exploring call is made
    expect(explorerCalls).toHaveLength(1);
    expect(tools).toHaveLength(0);
    expect(result).toMatchObject({ source: "failed", answer: { kind: "none" }, error: { stage: "explore", message: expect.stringMatching(/token budget/) } });
  });
});
