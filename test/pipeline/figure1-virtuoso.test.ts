// The Figure-1 dialogue end to end with the sample KG served by Virtuoso: endpoint added through the registry (private
// address opt-in), turns run by the app's turn runner with Chatty-KG, the LLM is the mock OpenAI-compatible server
// playing the scripted Figure-1 fixture (its "#<regex>" option markers resolved against each prompt, since Virtuoso
// lists label-search candidates in another order than the embedded index).
import path from "node:path";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { startVirtuoso, type VirtuosoServer } from "@/lib/kg/testing/virtuoso";
import { startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { lastUserText, type Responder } from "@/lib/llm/testing/replies";
import type { AgentRole } from "@/lib/llm/types";
import { chattyKgStrategy } from "@/lib/pipeline/chatty-kg/strategy";
import type { TurnResult } from "@/lib/pipeline/types";
import { createKgRegistry, type KgRegistry } from "@/lib/server/kg-registry";
import { createLlmForTurn } from "@/lib/server/services";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";
import { createTurnRunner, type TurnRunner } from "@/lib/server/turn-runner";
import { virtuosoSkip, virtuosoSuite } from "@/test/helpers/virtuoso";
import { readJson, resolveReply, roleRepliesSchema } from "./fixture-replies";

const RES = "http://example.org/chatty-kg/resource/";
const SESSION = "session-virtuoso";
const fixture = readJson(
  path.join(process.cwd(), "test/fixtures/dialogues/figure1.json"),
  z.object({ turns: z.array(z.object({ question: z.string(), standalone: z.string(), replies: roleRepliesSchema })).length(5) }),
);
// gold answers from kg/README.md (turn 5: a few of the 21 other films)
const GOLD = [[`${RES}J_K_Rowling`], ["2001-11-16"], [`${RES}Daniel_Radcliffe`], ["1989-07-23"], [`${RES}The_Woman_in_Black_film`, `${RES}Swiss_Army_Man`]];
const FIGURE1 = fixture.turns.map((t, i) => ({ q: t.question, expect: GOLD[i] }));

/** The fixture over HTTP: the Chat agent's prompt holds the user's question, every other prompt the standalone one. */
const fixtureResponder: Responder = ({ role, messages }) => {
  const last = lastUserText(messages).toLowerCase();
  const turn = [...fixture.turns].reverse().find((t) => last.includes((role === "chat" ? t.question : t.standalone).toLowerCase()));
  const reply = turn?.replies[role as AgentRole]?.[0];
  if (reply === undefined) return { status: 500, body: { error: { message: `no fixture reply for ${role}: ${last.slice(0, 120)}` } } };
  return resolveReply(role as AgentRole, reply, messages);
};

type Chunk = { type: string; data?: unknown };

async function play(runner: TurnRunner, kgId: string): Promise<{ conversationId: string; results: TurnResult[] }> {
  let conversationId: string | undefined;
  const results: TurnResult[] = [];
  for (const step of FIGURE1) {
    const prepared = await runner.prepareTurn(SESSION, { question: step.q, kgId, ...(conversationId ? { conversationId } : {}) });
    conversationId = prepared.turn.conversationId;
    const reader = runner.stream(prepared).getReader();
    let outcome: { status: string; result: TurnResult } | undefined;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value as Chunk;
      if (chunk.type === "data-result") outcome = chunk.data as typeof outcome;
    }
    expect(outcome?.status, `${step.q}: ${JSON.stringify(outcome?.result.error)}`).toBe("done");
    results.push(outcome!.result);
  }
  return { conversationId: conversationId!, results };
}

// items, or every cell of a table (turn 2 names the first film beside its release date)
const values = (r: TurnResult) =>
  r.answer.kind === "items" ? r.answer.items.map((i) => i.value).sort() : r.answer.kind === "table" ? r.answer.rows.flat().flatMap((c) => (c ? [c.value] : [])).sort() : [];

describe.skipIf(virtuosoSkip)(virtuosoSuite("Figure-1 dialogue with the KG on Virtuoso"), () => {
  let v: VirtuosoServer;
  let llm: MockOpenAIServer;
  let tmp: TempDb;
  let registry: KgRegistry;
  let runner: TurnRunner;

  beforeAll(async () => {
    v = await startVirtuoso();
    await v.load([{ path: "kg/sample.ttl", graph: "urn:chatty-kg:sample" }]);
    await v.buildTextIndex();
    llm = await startMockOpenAIServer({ port: 0, apiKey: "k", responder: fixtureResponder });
    tmp = await createTempDb("chatty-kg-virtuoso-");
    registry = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: `${tmp.dir}/data`, env: { KG_ALLOW_PRIVATE_ENDPOINTS: "true" } });
    const env = { LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: llm.baseURL, LLM_MODEL: "mock", LLM_API_KEY: "k" };
    runner = createTurnRunner({
      queries: tmp.queries,
      registry,
      getStrategy: () => chattyKgStrategy,
      createLlm: (override) => createLlmForTurn(override, env),
      similarity: async () => createLexicalSimilarity(),
      flushMs: 50,
    });
  });
  afterAll(async () => {
    await registry?.close();
    await tmp?.close();
    await llm?.close();
    await v?.stop();
  });

  it("a loopback endpoint is refused unless KG_ALLOW_PRIVATE_ENDPOINTS=true", async () => {
    const strict = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: `${tmp.dir}/strict`, env: {} });
    try {
      const e = await strict.addEndpoint(SESSION, { url: v.endpoint("urn:chatty-kg:sample"), profile: "virtuoso" }).catch((err: unknown) => err);
      expect(isAppError(e, "url_forbidden")).toBe(true);
      expect((e as Error).message).toContain("KG_ALLOW_PRIVATE_ENDPOINTS");
    } finally {
      await strict.close();
    }
  });

  it("answers the five turns from Virtuoso, the same answers as on the embedded sample KG, and stores them", async () => {
    const added = await registry.addEndpoint(SESSION, { url: v.endpoint("urn:chatty-kg:sample"), profile: "virtuoso", name: "Sample on Virtuoso" });
    expect(added.kind).toBe("endpoint");
    const kg = await registry.getKg(SESSION, added.id);
    expect(kg.profile.labelSearch).toBe("virtuoso");

    const onVirtuoso = await play(runner, added.id);
    onVirtuoso.results.forEach((r, i) => expect(values(r), FIGURE1[i].q).toEqual(expect.arrayContaining(FIGURE1[i].expect)));
    // the queries that produced the answers ran on the endpoint (they are the executed SPARQL of each turn)
    expect(onVirtuoso.results.every((r) => r.sparql.length > 0)).toBe(true);

    const embedded = await play(runner, "sample");
    expect(onVirtuoso.results.map(values)).toEqual(embedded.results.map(values));

    const stored = await tmp.queries.getConversation({ sessionId: SESSION, conversationId: onVirtuoso.conversationId });
    expect(stored.kgId).toBe(added.id);
    expect(stored.turns.map((t) => [t.status, t.question])).toEqual(FIGURE1.map((s) => ["done", s.q]));
    expect(stored.turns.every((t) => t.trace.some((e) => e.type === "sparql"))).toBe(true);
    // 3, 3, 3, 2, 2 calls per turn (docs: the batched default), twice
    expect(llm.requests).toHaveLength(26);
  });
});
