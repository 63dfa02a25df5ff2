// Re-running Explorer, Triad and RAGONITE turns with the final query edited in the query panel, through the turn runner
// (sample KG, scripted model with no replies): no LLM call, a new attempt with the new answer, the earlier one kept. And
// a thumbs-up on a corrected attempt: the explorer of the same session then sees that attempt's query and question.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { scriptFrom } from "@/lib/eval/ck25-scripted";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { USER_CHOICE_TOOL } from "@/lib/pipeline/corrections";
import { createKnowledgeCache, type KnowledgeCache } from "@/lib/pipeline/ragonite/knowledge";
import { createRagoniteStrategy } from "@/lib/pipeline/ragonite/strategy";
import { getStrategy } from "@/lib/pipeline/registry";
import { DEFAULT_CONFIG, type Strategy, type StrategyId, type TurnResult } from "@/lib/pipeline/types";
import { createKgRegistry, type KgRegistry } from "./kg-registry";
import { createTempDb, type TempDb } from "./testing/temp-db";
import { createTurnRunner } from "./turn-runner";
import { eventsOf, readAll, resultOf } from "./testing/turn-stream";

const SESSION = "session-final-query";
const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";
const TYPED = "radcliffe films??";
const UNDERSTOOD = "Which films did Daniel Radcliffe star in?";

let tmp: TempDb;
let registry: KgRegistry;
let cache: KnowledgeCache;
let ragonite: Strategy;
const cacheDir = mkdtempSync(path.join(tmpdir(), "final-query-ragonite-"));

beforeAll(async () => {
  tmp = await createTempDb();
  registry = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: `${tmp.dir}/data`, env: {} });
  await registry.getKg(SESSION, "sample");
  cache = createKnowledgeCache({ dir: cacheDir });
  ragonite = createRagoniteStrategy({ cache });
}, 60_000);
afterAll(async () => {
  cache?.close();
  await registry.close();
  await tmp.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

function runnerWith(script: Script) {
  const llm = createScriptedLlm(script);
  const runner = createTurnRunner({
    queries: tmp.queries,
    registry,
    getStrategy: (id) => (id === "ragonite" ? ragonite : getStrategy(id)),
    createLlm: () => ({ gateway: llm.gateway, provider: "mock", model: "scripted" }),
    similarity: async () => createLexicalSimilarity(),
    flushMs: 10,
  });
  return { runner, llm };
}

const values = (r: TurnResult | { answer: TurnResult["answer"] | null }) => {
  const a = r.answer;
  if (a?.kind === "items") return a.items.map((i) => i.value.replace(RES, "")).sort();
  if (a?.kind === "table") return a.rows.map((row) => row.map((c) => c?.value.replace(RES, "") ?? "").join(" "));
  return [];
};

/** Attempt 1 of a turn of `strategy` as the app stores it: the engineer of the same name linked, so no film. */
async function storedTurn(strategy: StrategyId, sparql: string[]): Promise<string> {
  const c = await tmp.queries.createConversation({ sessionId: SESSION, title: strategy, kgId: "sample" });
  const t = await tmp.queries.createTurn({ sessionId: SESSION, conversationId: c.id, question: TYPED, config: { ...DEFAULT_CONFIG, strategy, kg: { id: "sample", name: "Sample KG" }, llm: { provider: "mock", model: "scripted" } } });
  const first: TurnResult = {
    answer: { kind: "none", reason: "The KG returned nothing for the query." },
    source: "none",
    standaloneQuestion: UNDERSTOOD,
    sparql,
    stats: { ms: 900, llmCalls: 5, tokensIn: 800, tokensOut: 90, queries: 4, stageMs: {} },
  };
  await tmp.queries.finishTurn({ sessionId: SESSION, turnId: t.id, result: first, trace: [{ type: "stage-end", stage: "execution", at: 1, ms: 1, summary: "0 rows" }] });
  return t.id;
}

/** Re-runs `turnId` with `query` as its final query: the outcome, the stream's events and the model calls made. */
async function rerunWith(turnId: string, query: string) {
  const { runner, llm } = runnerWith({});
  const chunks = await readAll(runner.stream(await runner.prepareRerun(SESSION, turnId, { correction: { kind: "final-query", query } })));
  return { ...resultOf(chunks), events: eventsOf(chunks), calls: llm.calls.length };
}

const STARRING = `SELECT ?film WHERE { ?film <${ONT}starring> <${RES}Daniel_Radcliffe> }`;

describe("re-running a turn with its final query edited", () => {
  for (const strategy of ["explorer", "triad"] as const) {
    it(`${strategy}: the edited SPARQL runs with no model call and is attempt 2, attempt 1 kept`, async () => {
      const turnId = await storedTurn(strategy, [`SELECT ?film WHERE { ?film <${ONT}starring> <${RES}Daniel_Radcliffe_engineer> }`]);
      const { status, result, events, calls } = await rerunWith(turnId, STARRING);
      expect(calls).toBe(0);
      expect(status).toBe("done");
      expect(result.source).toBe("kg");
      expect(values(result)).toContain("Now_You_See_Me_2");
      expect(result.stats.llmCalls).toBe(0);
      expect(result.sparql).toHaveLength(1);
      expect(result.sparql[0]).toContain(`<${RES}Daniel_Radcliffe>`);
      // the user's query is the decision shown in the derivation; the question is still the one attempt 1 understood
      expect(events.find((e) => e.type === "tool-call" && e.tool === USER_CHOICE_TOOL)).toMatchObject({ stage: "execution", input: { kind: "final-query" } });
      expect(result.standaloneQuestion).toBe(UNDERSTOOD);

      const attempts = await tmp.queries.listAttempts({ sessionId: SESSION, turnId });
      expect(attempts.map((a) => [a.attempt, a.status, a.answer?.kind, a.change?.correction.kind ?? null])).toEqual([
        [1, "done", "none", null],
        [2, "done", "items", "final-query"],
      ]);
      expect(values(attempts[1])).toEqual(values(result));
      expect(attempts[1].config.strategy).toBe(strategy);
      expect(attempts[1].standaloneQuestion).toBe(UNDERSTOOD);
    });
  }

  it("ragonite: the edited SQL runs on the induced database with no model call; attempt 2 cites its rows", async () => {
    const turnId = await storedTurn("ragonite", []);
    const sql = "SELECT a.label, a.birth_date FROM actor a WHERE a.label = 'Daniel Radcliffe'";
    const { status, result, calls } = await rerunWith(turnId, sql);
    expect(calls).toBe(0);
    expect(status).toBe("done");
    expect(result.sql).toEqual([sql]);
    expect(values(result)).toEqual(["Daniel Radcliffe 1989-07-23"]);
    expect(result.answer.kind === "table" && result.answer.rows[0][0]?.cite).toEqual(["S1.1"]);
    expect(result.standaloneQuestion).toBe(UNDERSTOOD);
    const attempts = await tmp.queries.listAttempts({ sessionId: SESSION, turnId });
    expect(attempts.map((a) => [a.attempt, a.status, a.answer?.kind, a.change?.correction.kind ?? null])).toEqual([
      [1, "done", "none", null],
      [2, "done", "table", "final-query"],
    ]);
    // a SPARQL query is not what a RAGONITE turn runs: refused before anything is stored
    const { runner } = runnerWith({});
    await expect(runner.prepareRerun(SESSION, turnId, { correction: { kind: "final-query", query: STARRING } })).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/cannot run: SQL syntax error/) });
    await expect(runner.prepareRerun(SESSION, turnId, { correction: { kind: "final-query", query: "DELETE FROM actor" } })).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/single SELECT/) });
    expect(await tmp.queries.listAttempts({ sessionId: SESSION, turnId })).toHaveLength(2);
  }, 60_000);
});

describe("a corrected answer marked helpful feeds the experience pool", () => {
  it("the pool holds the corrected attempt's query and understood question, and the explorer of the session is shown it", async () => {
    // attempt 1 (Chatty-KG): the user typed a fragment, the Chat agent understood it; the engineer was linked
    const wrong = runnerWith(
      scriptFrom({
        chat: [{ toolCall: { name: KG_TOOL, input: { question: UNDERSTOOD, language: "en", context_dependent: false } } }],
        qir: [{ entities: ["Daniel Radcliffe"], unknowns: ["?film"], relations: ["starred in"], triples: [["Daniel Radcliffe", "starred in", "?film"]], target: "?film", question_type: "factoid" }],
        vertex: [{ choices: { "Daniel Radcliffe": "#Engineer" } }],
        predicates: [{ predicates: [], none_fit: true }],
      }),
    );
    const prepared = await wrong.runner.prepareTurn(SESSION, { question: TYPED, kgId: "sample" });
    const first = resultOf(await readAll(wrong.runner.stream(prepared)));
    expect(first.result.answer.kind).toBe("none");
    expect(first.result.standaloneQuestion).toBe(UNDERSTOOD);
    const turnId = prepared.turn.id;
    await tmp.queries.setFeedback({ sessionId: SESSION, turnId, feedback: 1 }); // no final query with rows: not a solved question
    const pool = async () => (await tmp.queries.listExperience({ kgKey: "sample", sessionId: SESSION })).map((e) => [e.question, e.sparql]);
    expect(await pool()).toEqual([]);

    // attempt 2: the user's query; the thumbs-up now gives the pool this attempt's query and the understood question
    const second = await rerunWith(turnId, STARRING);
    expect(values(second.result)).toContain("Now_You_See_Me_2");
    await tmp.queries.setFeedback({ sessionId: SESSION, turnId, feedback: 1 });
    expect(await pool()).toEqual([[UNDERSTOOD, second.result.sparql[0]]]);

    // the explorer, in another conversation of the same session, sees it as a solved example
    const explorer = runnerWith({
      chat: [{ toolCall: { name: KG_TOOL, input: { question: "Which films did Daniel Radcliffe appear in?", language: "en", context_dependent: false } } }],
      explorer: [
        { toolCall: { name: "plan", input: { steps: ["reuse the solved example", "finish"] } } },
        { toolCall: { name: "finish", input: { sparql: STARRING, explanation: "as in the example" } } },
      ],
    });
    const asked = resultOf(await readAll(explorer.runner.stream(await explorer.runner.prepareTurn(SESSION, { question: "Which films did Daniel Radcliffe appear in?", kgId: "sample", config: { strategy: "explorer" } }))));
    expect(asked.status).toBe("done");
    const system = explorer.llm.calls.find((c) => c.role === "explorer")!.messages[0].text;
    expect(system).toContain(`Example 1. Question: ${UNDERSTOOD}`);
    expect(system).toContain(`<${RES}Daniel_Radcliffe>`);
    expect(system).not.toContain("Daniel_Radcliffe_engineer");

    // a further attempt takes it out (its answer is rated on its own); so does switching the thumbs-up off
    const third = await rerunWith(turnId, `SELECT ?film WHERE { <${RES}Daniel_Radcliffe> <${ONT}starredIn> ?film }`);
    expect(third.status).toBe("done");
    expect(await pool()).toEqual([]);
    await tmp.queries.setFeedback({ sessionId: SESSION, turnId, feedback: 1 });
    expect(await pool()).toEqual([[UNDERSTOOD, third.result.sparql[0]]]);
    await tmp.queries.setFeedback({ sessionId: SESSION, turnId, feedback: null });
    expect(await pool()).toEqual([]);
  }, 60_000);
});
