// The web flow end to end without an LLM: POST /api/turns streams a saved-then-failed turn, export and actions see it,
// and another browser (another cookie) gets 404s.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ConversationSummaryDto } from "@/lib/api/contract";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

let jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));

let tmp: TempDb;
let postTurn: (r: Request) => Promise<Response>;
let getExport: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>;
let actions: typeof import("@/app/(chat)/actions");

beforeAll(async () => {
  tmp = await createTempDb();
  process.env.DATABASE_URL = tmp.url;
  process.env.SESSION_SECRET = "route-test-secret-0123456789abcdef";
  for (const k of ["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "LLM_BASE_URL", "LLM_PROVIDER", "LLM_API_KEY", "LLM_MODEL"]) delete process.env[k];
  ({ POST: postTurn } = await import("./route"));
  ({ GET: getExport } = await import("../conversations/[id]/export/route"));
  actions = await import("@/app/(chat)/actions");
});
afterAll(async () => {
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await tmp.close();
});

/** The data parts of a UI message stream response (SSE `data: {...}` lines). */
async function dataParts(res: Response): Promise<{ type: string; data?: Record<string, unknown> }[]> {
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)));
}

describe("POST /api/turns without an LLM", () => {
  let conversationId = "";

  it("saves the question, streams data-turn then a failed data-result naming the variables to set", async () => {
    const res = await postTurn(
      new Request("http://localhost/api/turns", { method: "POST", body: JSON.stringify({ question: "Who wrote Harry Potter?", kgId: "sample" }) }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const parts = await dataParts(res);
    const types = parts.map((p) => p.type);
    expect(types.indexOf("data-turn")).toBeLessThan(types.indexOf("data-result"));
    const turn = parts.find((p) => p.type === "data-turn")!.data!;
    conversationId = turn.conversationId as string;
    const result = parts.find((p) => p.type === "data-result")!.data as { status: string; result: { error: { code: string; message: string } } };
    expect(result.status).toBe("failed");
    expect(result.result.error.code).toBe("llm_not_configured");
    expect(result.result.error.message).toContain("OPENAI_API_KEY");

    const listed = await actions.listConversations();
    expect(listed.ok && listed.data.map((c: ConversationSummaryDto) => c.title)).toEqual(["Who wrote Harry Potter?"]);
    const opened = await actions.getConversation({ conversationId });
    expect(opened.ok && opened.data.turns[0]).toMatchObject({ question: "Who wrote Harry Potter?", status: "failed" });
  });

  it("answers a bad body with a JSON 400 before any stream", async () => {
    const res = await postTurn(new Request("http://localhost/api/turns", { method: "POST", body: JSON.stringify({ kgId: "sample" }) }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("bad_request");
  });

  it("exports the conversation as Markdown with the question and what failed", async () => {
    const res = await getExport(new Request(`http://localhost/api/conversations/${conversationId}/export?format=md`), {
      params: Promise.resolve({ id: conversationId }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("who-wrote-harry-potter.md");
    const md = await res.text();
    expect(md).toContain("## 1. Who wrote Harry Potter?");
    expect(md).toContain("**Failed**");
  });

  it("gives another browser 404s and action errors for this conversation", async () => {
    const owner = jar;
    jar = new Map(); // a different browser: no cookie yet
    const res = await getExport(new Request(`http://localhost/api/conversations/${conversationId}/export`), { params: Promise.resolve({ id: conversationId }) });
    expect(res.status).toBe(404);
    const rename = await actions.renameConversation({ conversationId, title: "mine now" });
    expect(rename).toMatchObject({ ok: false, error: { code: "not_found" } });
    const del = await actions.deleteConversation({ conversationId });
    expect(del.ok).toBe(false);
    const listed = await actions.listConversations();
    expect(listed).toEqual({ ok: true, data: [] });
    jar = owner;
    expect(await actions.renameConversation({ conversationId, title: "Renamed" })).toEqual({ ok: true, data: null });
    expect(await actions.setFeedback({ turnId: "nope", feedback: 1 })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await actions.setFeedback({ turnId: "x", feedback: 2 as 1 })).toMatchObject({ ok: false, error: { code: "bad_request" } });
  });
});
