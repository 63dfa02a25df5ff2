// Experience-pool queries on a fresh database (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres): answers marked
// helpful, imported benchmark items, who sees which.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDb, testDialect, type TempDb } from "@/lib/server/testing/temp-db";
import type { Queries } from "./queries";
import { ALICE, BOB, config, result, trace } from "./testing/query-fixtures";

const dialect = testDialect();
let tmp: TempDb;
let q: Queries;

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-db-", dialect);
  q = tmp.queries;
});

afterAll(async () => {
  await tmp?.close();
});

describe("experience pool", () => {
  it("an answer marked helpful becomes a solved question of its KG, seen only by that session; taking the mark back removes it", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Pool", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Und die Hauptstadt?", config });
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    const mine = await q.listExperience({ kgKey: "sample", sessionId: ALICE });
    expect(mine).toEqual([expect.objectContaining({ question: "What is the capital of France?", sparql: result.sparql[0], source: "feedback" })]);
    expect(await q.listExperience({ kgKey: "sample", sessionId: BOB })).toEqual([]);
    expect(await q.listExperience({ kgKey: "other-kg", sessionId: ALICE })).toEqual([]);
    // marking it twice keeps one entry; a thumbs-down removes it; deleting the conversation would too
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toHaveLength(1);
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: -1 });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
    // a re-run from a corrected step makes it an earlier attempt's answer: it leaves the pool
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction: { kind: "vertex", mention: "France", iri: "http://example.org/France_country" } } });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    await q.deleteConversation({ sessionId: ALICE, conversationId: c.id });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
  });

  it("a thumbs-up on a corrected attempt gives the pool that attempt's query and question; unrating or a further attempt takes it out", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Pool corrected", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Und die Hauptstadt?", config });
    const pool = async () => (await q.listExperience({ kgKey: "sample", sessionId: ALICE })).filter((e) => e.source === "feedback").map((e) => [e.question, e.sparql]);
    // attempt 1 linked the wrong France and was marked helpful anyway; the correction replaces it
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result: { ...result, sparql: ["SELECT ?c WHERE { <http://example.org/France_club> <http://example.org/capital> ?c }"] }, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([["What is the capital of France?", "SELECT ?c WHERE { <http://example.org/France_club> <http://example.org/capital> ?c }"]]);
    const fix = { kind: "final-query" as const, query: "SELECT ?c WHERE { <http://example.org/France_country> <http://example.org/capital> ?c }" };
    await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction: fix } });
    expect(await pool()).toEqual([]);
    const second = { ...result, standaloneQuestion: "What is the capital city of the country France?", sparql: [`PREFIX ex: <http://example.org/>\n${fix.query}`] };
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result: second, trace });
    // the new attempt is rated on its own: no thumbs-up carried over, nothing in the pool until the user gives one
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).feedback).toBeNull();
    expect(await pool()).toEqual([]);
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([[second.standaloneQuestion, second.sparql[0]]]);
    // switching the thumbs-up off (or down) takes it out; on again puts the same attempt back, once
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: null });
    expect(await pool()).toEqual([]);
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([[second.standaloneQuestion, second.sparql[0]]]);
    // a further attempt that fails takes attempt 2 out and gives nothing, even marked helpful; attempt 2 keeps its mark
    await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 2, correction: fix } });
    expect(await pool()).toEqual([]);
    await q.failTurn({ sessionId: ALICE, turnId: t.id, error: { code: "query_failed", message: "timeout" } });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([]);
    expect((await q.listAttempts({ sessionId: ALICE, turnId: t.id })).map((a) => [a.attempt, a.feedback])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    await q.deleteConversation({ sessionId: ALICE, conversationId: c.id });
  });

  it("only a KG answer with one final query qualifies", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Pool 2", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Two queries?", config });
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result: { ...result, sparql: ["SELECT * WHERE { ?s ?p ?o }", "ASK {}"] }, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
  });

  it("imports benchmark items (again: replaced), shows them to every session, and clears them by dataset", async () => {
    const items = [
      { itemId: "bench:1", question: "Who wrote Dune?", sparql: "SELECT ?a WHERE { <http://ex.org/Dune> <http://ex.org/author> ?a }" },
      { itemId: "bench:2", question: "When was Dune published?", sparql: "SELECT ?d WHERE { <http://ex.org/Dune> <http://ex.org/date> ?d }" },
    ];
    expect(await q.importExperience({ kgKey: "files:/x.ttl", dataset: "bench", split: "train", items })).toEqual({ imported: 2 });
    await q.importExperience({ kgKey: "files:/x.ttl", dataset: "bench", split: "test", items: items.slice(0, 1) });
    const pool = await q.listExperience({ kgKey: "files:/x.ttl", sessionId: BOB });
    expect(pool.map((e) => [e.itemId, e.split, e.source]).sort()).toEqual([["bench:1", "test", "import"], ["bench:2", "train", "import"]]);
    expect(await q.listExperience({ kgKey: "files:/x.ttl" })).toHaveLength(2);
    await expect(q.importExperience({ kgKey: "files:/x.ttl", dataset: "bench", items: [{ itemId: "x", question: " ", sparql: "ASK {}" }] })).rejects.toThrow(/Invalid items/);
    expect(await q.clearImportedExperience({ kgKey: "files:/x.ttl", dataset: "other" })).toBe(0);
    expect(await q.clearImportedExperience({ kgKey: "files:/x.ttl", dataset: "bench" })).toBe(2);
  });
});
