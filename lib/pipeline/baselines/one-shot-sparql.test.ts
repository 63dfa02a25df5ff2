// One-shot text-to-SPARQL baseline over the sample KG (real embedded store) with a scripted model.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { DEFAULT_CONFIG, type DerivationEvent, type DialogueTurn, type PipelineConfig, type Strategy, type TurnResult } from "@/lib/pipeline/types";
import { createOneShotSparqlStrategy } from "./one-shot-sparql";
import { createSchemaCache } from "./kg-schema";

const RES = "http://example.org/chatty-kg/resource/";
let kg: KnowledgeGraph;

beforeAll(async () => {
  kg = await openKg({ kind: "sample" });
});
afterAll(async () => kg?.close());

const sparql = (q: string) => "```sparql\n" + q + "\n```";
const lastPrompt = (m: PlainMessage[]) => m.at(-1)?.text ?? "";

async function ask(strategy: Strategy, question: string, script: Script, opts: { kg?: KnowledgeGraph; dialogue?: DialogueTurn[]; config?: Partial<PipelineConfig> } = {}) {
  const llm = createScriptedLlm(script);
  const gen = strategy.run(
    { question, dialogue: opts.dialogue ?? [], config: { ...DEFAULT_CONFIG, ...opts.config } },
    { kg: opts.kg ?? kg, llm: llm.gateway, similarity: createLexicalSimilarity() },
  );
  const events: DerivationEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  const sparqlEvents = events.flatMap((e) => (e.type === "sparql" ? [e] : []));
  return { result: step.value as TurnResult, events, sparqlEvents, llm };
}

describe("one-shot-sparql strategy", () => {
  it("shows the model a schema with the sample's main predicates, built once per KG", async () => {
    const strategy = createOneShotSparqlStrategy({ schemaCache: createSchemaCache() });
    const prompts: string[] = [];
    const reply = (m: PlainMessage[]) => (prompts.push(lastPrompt(m)), sparql("SELECT ?a WHERE { res:Harry_Potter ont:author ?a }"));
    const first = await ask(strategy, "Who wrote Harry Potter?", { baseline: [reply] });
    const second = await ask(strategy, "Who wrote Harry Potter?", { baseline: [reply] });

    expect(prompts[0]).toContain("PREFIX ont: <http://example.org/chatty-kg/ontology/>");
    expect(prompts[0]).toMatch(/^- ont:author "author" \(\d+\)$/m);
    expect(prompts[0]).toMatch(/^- ont:birthDate \(\d+\)$/m);
    expect(prompts[0]).toMatch(/^- ont:Film "film" \(\d+\)$/m);
    expect(prompts[0]).toMatch(/res:J_K_Rowling|res:\w+ ont:author res:\w+/);
    const schemaQueries = (r: typeof first) => r.sparqlEvents.filter((e) => e.purpose.startsWith("schema:"));
    expect(schemaQueries(first).length).toBeGreaterThan(2);
    expect(schemaQueries(second)).toEqual([]);
    expect(prompts[1]).toBe(prompts[0]);
  });

  it("answers with the rows of a correct query (undeclared schema prefixes completed, IRIs labelled)", async () => {
    const strategy = createOneShotSparqlStrategy();
    const { result, events, llm } = await ask(strategy, "Who wrote Harry Potter?", { baseline: [sparql("SELECT ?a WHERE { res:Harry_Potter ont:author ?a }")] });
    expect(result.source).toBe("kg");
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "uri", value: `${RES}J_K_Rowling`, label: "J. K. Rowling" }] });
    expect(result.sparql).toHaveLength(1);
    expect(result.sparql[0]).toMatch(/PREFIX ont:[\s\S]*ont:author/);
    expect(llm.calls.map((c) => c.role)).toEqual(["baseline"]);
    const stages = events.flatMap((e) => (e.type === "stage-end" ? [e.stage] : []));
    expect(stages).toEqual(["query-generation", "execution"]);
    expect(events.some((e) => e.type === "llm-call" && e.stage === "query-generation")).toBe(true);
    expect(events.some((e) => e.type === "sparql" && e.stage === "execution" && e.purpose.startsWith("one-shot query") && e.rows === 1)).toBe(true);
  });

  it("maps ASK to yes/no and a COUNT to a number", async () => {
    const strategy = createOneShotSparqlStrategy();
    const yes = await ask(strategy, "Did Rowling write Harry Potter?", { baseline: [sparql("ASK { res:Harry_Potter ont:author res:J_K_Rowling }")] });
    expect(yes.result.answer).toEqual({ kind: "boolean", value: true });
    const count = await ask(strategy, "How many publishers does Harry Potter have?", {
      baseline: [sparql("SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { res:Harry_Potter ont:publisher ?p }")],
    });
    expect(count.result.answer).toEqual({ kind: "count", count: 2 });
  });

  it("answers a two-variable SELECT with a table: columns in projection order, IRIs labelled, the row cap from the config", async () => {
    const strategy = createOneShotSparqlStrategy();
    const q = sparql("SELECT ?film ?director WHERE { ?film a ont:Film ; ont:director ?director }");
    const { result, sparqlEvents } = await ask(strategy, "Which films exist, with their directors?", { baseline: [q] });
    expect(result.answer.kind).toBe("table");
    if (result.answer.kind !== "table") return;
    expect(result.answer.columns).toEqual(["film", "director"]);
    expect(result.answer.rows).toContainEqual([
      { type: "uri", value: `${RES}Harry_Potter_and_the_Philosophers_Stone_film`, label: "Harry Potter and the Philosopher's Stone" },
      { type: "uri", value: `${RES}Chris_Columbus`, label: "Chris Columbus" },
    ]);
    expect(sparqlEvents.find((e) => e.purpose.startsWith("one-shot"))?.query).toMatch(/LIMIT 1000\s*$/);

    // a lower row limit caps the query and the strategy says the answer may be cut
    const capped = await ask(strategy, "Which films exist, with their directors?", { baseline: [q] }, { config: { rowLimit: 2 } });
    expect(capped.result.answer.kind === "table" && capped.result.answer.rows).toHaveLength(2);
    expect(capped.events.some((e) => e.type === "warning" && e.code === "row-limit" && /2 rows/.test(e.message))).toBe(true);
  });

  it("refuses an UPDATE from the model, feeds the reason back and retries", async () => {
    const strategy = createOneShotSparqlStrategy();
    const { result, sparqlEvents, events } = await ask(strategy, "Who wrote Harry Potter?", {
      baseline: [
        sparql("INSERT DATA { res:Harry_Potter ont:author res:Me }"),
        (m) => (/INSERT DATA[\s\S]*rejected: the query was refused: Only read queries/.test(lastPrompt(m)) ? sparql("SELECT ?a WHERE { res:Harry_Potter ont:author ?a }") : "no feedback seen"),
      ],
    });
    expect(result.source).toBe("kg");
    expect(result.answer).toMatchObject({ kind: "items", items: [{ value: `${RES}J_K_Rowling` }] });
    expect(sparqlEvents.some((e) => /INSERT/i.test(e.query))).toBe(false);
    const calls = events.flatMap((e) => (e.type === "llm-call" ? [e.call] : []));
    expect(calls.map((c) => c.validationError)).toEqual([expect.stringMatching(/Only read queries/), undefined]);
  });

  it("fails clearly when every attempt is a syntax error (θ calls, the parser's reason fed back)", async () => {
    const strategy = createOneShotSparqlStrategy();
    const prompts: string[] = [];
    const broken = (m: PlainMessage[]) => (prompts.push(lastPrompt(m)), sparql("SELECT ?a WHERE { res:Harry_Potter ont:author ?a"));
    const { result, llm, sparqlEvents } = await ask(strategy, "Who wrote Harry Potter?", { baseline: [broken, broken] }, { config: { theta: 2 } });
    expect(llm.calls).toHaveLength(2);
    expect(prompts[1]).toMatch(/SPARQL syntax error/);
    expect(result.source).toBe("failed");
    expect(result.answer.kind).toBe("none");
    expect(result.error).toMatchObject({ code: "pipeline_failed", stage: "query-generation" });
    expect(result.error?.message).toMatch(/No runnable query in 2 attempt/);
    expect(sparqlEvents.filter((e) => e.stage === "execution")).toEqual([]);
  });

  it("feeds an execution error back and retries; exhaustion fails at execution", async () => {
    // A KG that times out on the model's first query only (schema and label queries pass through).
    let modelQueries = 0;
    const flaky: KnowledgeGraph = {
      ...kg,
      info: { ...kg.info, id: "flaky" },
      profile: kg.profile,
      query: async (q, o) => {
        if (q.includes("res:Harry_Potter") && ++modelQueries === 1) throw new AppError("kg_timeout", "The query took longer than 20000 ms.");
        return kg.query(q, o);
      },
    };
    const strategy = createOneShotSparqlStrategy();
    const q = sparql("SELECT ?a WHERE { res:Harry_Potter ont:author ?a }");
    const retried = await ask(strategy, "Who wrote Harry Potter?", { baseline: [q, (m) => (lastPrompt(m).includes("running it failed: The query took longer") ? q : "no feedback")] }, { kg: flaky });
    expect(retried.result.source).toBe("kg");
    expect(retried.result.answer).toMatchObject({ kind: "items", items: [{ value: `${RES}J_K_Rowling` }] });
    expect(retried.sparqlEvents.filter((e) => e.purpose.startsWith("one-shot")).map((e) => e.error)).toEqual(["The query took longer than 20000 ms.", undefined]);

    modelQueries = 0;
    const exhausted = await ask(strategy, "Who wrote Harry Potter?", { baseline: [q] }, { kg: flaky, config: { theta: 1 } });
    expect(exhausted.result.source).toBe("failed");
    expect(exhausted.result.error).toMatchObject({ code: "kg_timeout", stage: "execution" });
  });

  it("never answers when the KG returns nothing (empty SELECT, COUNT 0)", async () => {
    const strategy = createOneShotSparqlStrategy();
    const empty = await ask(strategy, "Who wrote Nonexistent Book?", { baseline: [sparql("SELECT ?a WHERE { res:Nonexistent_Book ont:author ?a }")] });
    expect(empty.result.answer.kind).toBe("none");
    expect(empty.result.source).toBe("none");
    expect(empty.result.sparql).toEqual([]);
    const zero = await ask(strategy, "How many authors does Nonexistent Book have?", {
      baseline: [sparql("SELECT (COUNT(?a) AS ?n) WHERE { res:Nonexistent_Book ont:author ?a }")],
    });
    expect(zero.result.answer.kind).toBe("none");
  });

  it("uses the dialogue to resolve a follow-up", async () => {
    const strategy = createOneShotSparqlStrategy();
    const dialogue: DialogueTurn[] = [
      { question: "Who wrote Harry Potter?", answer: { kind: "items", items: [{ type: "uri", value: `${RES}J_K_Rowling`, label: "J. K. Rowling" }] } },
    ];
    const { result } = await ask(strategy, "When was she born?", {
      baseline: [(m) => (lastPrompt(m).includes(`A1: J. K. Rowling <${RES}J_K_Rowling>`) ? sparql(`SELECT ?d WHERE { <${RES}J_K_Rowling> ont:birthDate ?d }`) : "no context")],
    }, { dialogue });
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "literal", value: "1965-07-31", datatype: "http://www.w3.org/2001/XMLSchema#date" }] });
  });
});
