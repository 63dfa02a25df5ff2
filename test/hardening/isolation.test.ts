// Isolation between browser sessions: a second session (its own signed cookie) gets 404 / not_found for the first
// session's conversation, turn, uploaded-KG and imported evaluation-run ids on every route handler and server action,
// and cannot change them.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ConversationDto, KgListResponse } from "@/lib/api/contract";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

// next/headers is swapped per call: `jar` is the cookie jar of whichever browser is "sending" the request
let jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));

type Ctx = { params: Promise<{ id: string }> };
let tmp: TempDb;
let routes: {
  turns: (r: Request) => Promise<Response>;
  retry: (r: Request, c: Ctx) => Promise<Response>;
  rerun: (r: Request, c: Ctx) => Promise<Response>;
  attempts: (r: Request, c: Ctx) => Promise<Response>;
  provenance: (r: Request, c: Ctx) => Promise<Response>;
  entitySearch: (r: Request) => Promise<Response>;
  exportConv: (r: Request, c: Ctx) => Promise<Response>;
  sparql: (r: Request) => Promise<Response>;
  entity: (r: Request) => Promise<Response>;
  kgList: () => Promise<Response>;
  upload: (r: Request) => Promise<Response>;
};
let actions: typeof import("@/app/(chat)/actions");

const alice = new Map<string, string>();
const bob = new Map<string, string>();
const as = (who: Map<string, string>) => void (jar = who);
const ctx = (id: string): Ctx => ({ params: Promise.resolve({ id }) });
const post = (url: string, body: unknown) => new Request(`http://localhost${url}`, { method: "POST", body: JSON.stringify(body) });

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

// what Alice owns
let conversationId = "";
let turnId = "";
let kgId = "";

beforeAll(async () => {
  tmp = await createTempDb();
  process.env.DATABASE_URL = tmp.url;
  process.env.SESSION_SECRET = "isolation-test-secret-0123456789abcdef";
  process.env.EVAL_RUNS_DIR = path.join(tmp.dir, "eval-runs");
  // no LLM: a turn is saved and fails at once, which is all the ownership checks need
  for (const k of ["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "LLM_BASE_URL", "LLM_PROVIDER", "LLM_API_KEY", "LLM_MODEL"]) delete process.env[k];
  routes = {
    turns: (await import("@/app/api/turns/route")).POST,
    retry: (await import("@/app/api/turns/[id]/retry/route")).POST,
    rerun: (await import("@/app/api/turns/[id]/rerun/route")).POST,
    attempts: (await import("@/app/api/turns/[id]/attempts/route")).GET,
    provenance: (await import("@/app/api/turns/[id]/provenance/route")).GET,
    entitySearch: (await import("@/app/api/entity/search/route")).GET,
    exportConv: (await import("@/app/api/conversations/[id]/export/route")).GET,
    sparql: (await import("@/app/api/sparql/route")).POST,
    entity: (await import("@/app/api/entity/route")).GET,
    kgList: (await import("@/app/api/kg/route")).GET,
    upload: (await import("@/app/api/kg/upload/route")).POST,
  };
  actions = await import("@/app/(chat)/actions");

  as(alice);
  const form = new FormData();
  form.append("name", "Alice's secret graph");
  form.append("files", new File(['<http://example.org/alice> <http://www.w3.org/2000/01/rdf-schema#label> "Alice only" .\n'], "alice.nt"));
  const up = await routes.upload(new Request("http://localhost/api/kg/upload", { method: "POST", body: form }));
  expect(up.status).toBe(201);
  kgId = ((await up.json()) as { kg: { id: string } }).kg.id;
  const res = await routes.turns(post("/api/turns", { question: "Who is Alice?", kgId }));
  expect(res.status).toBe(200);
  const turn = (await res.text()).split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6))).find((p) => p.type === "data-turn");
  ({ conversationId, turnId } = turn.data);
  expect(await actions.setFeedback({ turnId, feedback: 1 })).toEqual({ ok: true, data: null });
  as(bob);
  expect((await routes.kgList()).status).toBe(200); // Bob gets his own cookie
  expect(bob.size).toBe(1);
  expect([...bob.values()][0]).not.toBe([...alice.values()][0]);
});

afterAll(async () => {
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  delete process.env.EVAL_RUNS_DIR;
  await tmp.close();
});

/** Alice's conversation exactly as she sees it; compared before and after Bob's attempts. */
async function aliceView(): Promise<{ conversation: ConversationDto; kgs: KgListResponse }> {
  const before = jar;
  as(alice);
  const got = await actions.getConversation({ conversationId });
  const kgs = (await (await routes.kgList()).json()) as KgListResponse;
  jar = before;
  if (!got.ok) throw new Error(`Alice cannot open her conversation: ${got.error.message}`);
  return { conversation: got.data, kgs };
}

/** The session id inside a browser's signed cookie. */
const sessionOf = (who: Map<string, string>) => [...who.values()][0].split(".")[0];

describe("a second session cannot see the first session's data", () => {
  it("an evaluation run Alice imported is hers: not listed for Bob, not_found when Bob opens it by ref", async () => {
    const { POST: importRun } = await import("@/app/(eval)/eval/import/route");
    const { getEvalRunStore } = await import("@/lib/server/eval-runs");
    as(alice);
    const res = await importRun(new Request("http://localhost/eval/import", { method: "POST", body: readFileSync("test/fixtures/eval/run-a.json") }));
    expect(res.status).toBe(201);
    const { entry } = (await res.json()) as { entry: { ref: string } };
    const store = getEvalRunStore();
    expect(store.list(sessionOf(alice)).map((e) => e.ref)).toContain(entry.ref);
    expect(store.list(sessionOf(bob)).map((e) => e.ref)).not.toContain(entry.ref);
    expect(store.list(null).map((e) => e.ref)).not.toContain(entry.ref);
    expect(() => store.load(sessionOf(bob), entry.ref)).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(store.load(sessionOf(alice), entry.ref).result).not.toBeNull();
  });

  it("export of the foreign conversation is 404 (md and json)", async () => {
    as(bob);
    for (const format of ["md", "json"]) {
      const res = await routes.exportConv(new Request(`http://localhost/api/conversations/${conversationId}/export?format=${format}`), ctx(conversationId));
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("Who is Alice?");
    }
  });

  it("getConversation and listConversations do not reveal it", async () => {
    as(bob);
    expect(await actions.getConversation({ conversationId })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await actions.listConversations()).toEqual({ ok: true, data: [] });
    expect(await actions.listConversations({ search: "Alice" })).toEqual({ ok: true, data: [] });
  });

  it("GET /api/kg does not list the foreign upload", async () => {
    as(bob);
    const body = (await (await routes.kgList()).json()) as KgListResponse;
    expect(body.kgs.map((k) => k.id)).not.toContain(kgId);
    expect(JSON.stringify(body)).not.toContain("Alice's secret graph");
  });

  it("POST /api/sparql, GET /api/entity and GET /api/entity/search on the foreign uploaded KG are 404 (even though it is open in the process)", async () => {
    as(bob);
    const q = await routes.sparql(post("/api/sparql", { kgId, query: "SELECT * WHERE { ?s ?p ?o }" }));
    expect(q.status).toBe(404);
    expect(await errorCode(q)).toBe("not_found");
    const e = await routes.entity(new Request(`http://localhost/api/entity?kgId=${encodeURIComponent(kgId)}&iri=${encodeURIComponent("http://example.org/alice")}`));
    expect(e.status).toBe(404);
    expect(await e.text()).not.toContain("Alice only");
    const search = await routes.entitySearch(new Request(`http://localhost/api/entity/search?kgId=${encodeURIComponent(kgId)}&q=Alice`));
    expect(search.status).toBe(404);
    expect(await search.text()).not.toContain("Alice only");
  });

  it("POST /api/turns into the foreign conversation, or on the foreign KG, is 404 and saves nothing", async () => {
    as(bob);
    const intoConversation = await routes.turns(post("/api/turns", { conversationId, question: "Injected?", kgId: "sample" }));
    expect(intoConversation.status).toBe(404);
    const onKg = await routes.turns(post("/api/turns", { question: "Use Alice's KG", kgId }));
    expect(onKg.status).toBe(404);
    expect(await actions.listConversations()).toEqual({ ok: true, data: [] });
    expect((await aliceView()).conversation.turns.map((t) => t.question)).toEqual(["Who is Alice?"]);
  });

  it("POST /api/turns/[id]/retry of the foreign turn is 404 and the turn is unchanged", async () => {
    const before = await aliceView();
    as(bob);
    const res = await routes.retry(new Request(`http://localhost/api/turns/${turnId}/retry`, { method: "POST", headers: { "content-length": "0" } }), ctx(turnId));
    expect(res.status).toBe(404);
    expect(await errorCode(res)).toBe("not_found");
    expect(await aliceView()).toEqual(before);
  });

  it("POST /api/turns/[id]/rerun and GET /api/turns/[id]/attempts of the foreign turn are 404 and change nothing", async () => {
    const before = await aliceView();
    as(bob);
    const correction = { kind: "final-query", query: "SELECT ?s WHERE { ?s ?p ?o }" };
    const rerun = await routes.rerun(post(`/api/turns/${turnId}/rerun`, { correction }), ctx(turnId));
    expect(rerun.status).toBe(404);
    expect(await errorCode(rerun)).toBe("not_found");
    const attempts = await routes.attempts(new Request(`http://localhost/api/turns/${turnId}/attempts`), ctx(turnId));
    expect(attempts.status).toBe(404);
    const provenance = await routes.provenance(new Request(`http://localhost/api/turns/${turnId}/provenance?index=0`), ctx(turnId));
    expect(provenance.status).toBe(404);
    expect(await errorCode(provenance)).toBe("not_found");
    expect(await attempts.text()).not.toContain("Who is Alice?");
    expect(await aliceView()).toEqual(before);
    // the owner reads them (one attempt: the turn failed without an LLM)
    as(alice);
    const own = await routes.attempts(new Request(`http://localhost/api/turns/${turnId}/attempts`), ctx(turnId));
    expect(own.status).toBe(200);
    expect(((await own.json()) as { attempts: { attempt: number }[] }).attempts.map((a) => a.attempt)).toEqual([1]);
  });

  it("rename, delete and feedback on foreign ids are not_found and change nothing", async () => {
    const before = await aliceView();
    as(bob);
    expect(await actions.renameConversation({ conversationId, title: "pwned" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await actions.deleteConversation({ conversationId })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await actions.setFeedback({ turnId, feedback: -1 })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await actions.setFeedback({ turnId, feedback: null })).toMatchObject({ ok: false, error: { code: "not_found" } });
    const after = await aliceView();
    expect(after).toEqual(before);
    expect(after.conversation.title).toBe("Who is Alice?");
    expect(after.conversation.turns[0].feedback).toBe(1);
    expect(after.kgs.kgs.map((k) => k.id)).toContain(kgId);
  });

  it("a forged or tampered cookie is a fresh session, not the owner", async () => {
    const [name, value] = [...alice.entries()][0];
    const [id] = value.split(".");
    jar = new Map([[name, `${id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`]]);
    expect(await actions.getConversation({ conversationId })).toMatchObject({ ok: false, error: { code: "not_found" } });
    jar = new Map([[name, id]]); // the bare id without a signature
    expect(await actions.getConversation({ conversationId })).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("the owner still has full access (the checks above are about ownership, not broken routes)", async () => {
    as(alice);
    const exp = await routes.exportConv(new Request(`http://localhost/api/conversations/${conversationId}/export?format=json`), ctx(conversationId));
    expect(exp.status).toBe(200);
    expect(await exp.text()).toContain("Who is Alice?");
    const q = await routes.sparql(post("/api/sparql", { kgId, query: "SELECT ?o WHERE { ?s ?p ?o }" }));
    expect(q.status).toBe(200);
    expect(JSON.stringify(await q.json())).toContain("Alice only");
    const e = await routes.entity(new Request(`http://localhost/api/entity?kgId=${encodeURIComponent(kgId)}&iri=${encodeURIComponent("http://example.org/alice")}`));
    expect(e.status).toBe(200);
    expect(await actions.renameConversation({ conversationId, title: "Alice renamed" })).toEqual({ ok: true, data: null });
    expect(await actions.deleteConversation({ conversationId })).toEqual({ ok: true, data: null });
    expect(await actions.getConversation({ conversationId })).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
