// Body caps: announced oversize is refused unread, unannounced (chunked) oversize is cut off, and the routes answer 413.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";
import { readBodyLimited, readJsonLimited, SPARQL_BODY_LIMIT, TURN_BODY_LIMIT } from "./body-limit";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));

/** A body stream of `total` bytes in 16 KB chunks that counts how much of it was pulled. */
function countingStream(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(16 * 1024, total - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
  return { stream, pulled: () => sent };
}

function chunked(stream: ReadableStream<Uint8Array>, url = "http://localhost/x"): Request {
  return new Request(url, { method: "POST", body: stream, duplex: "half" } as RequestInit);
}

describe("readBodyLimited", () => {
  it("returns a body under the limit unchanged", async () => {
    const bytes = await readBodyLimited(new Request("http://localhost/x", { method: "POST", body: "hello" }), 10);
    expect(new TextDecoder().decode(bytes)).toBe("hello");
  });

  it("refuses an announced Content-Length over the limit without reading the body", async () => {
    const { stream, pulled } = countingStream(1024 * 1024);
    const req = new Request("http://localhost/x", { method: "POST", body: stream, duplex: "half", headers: { "content-length": String(1024 * 1024) } } as RequestInit);
    await expect(readBodyLimited(req, 64 * 1024)).rejects.toMatchObject({ code: "too_large" });
    expect(pulled()).toBeLessThanOrEqual(16 * 1024); // at most what the stream pre-buffers
  });

  it("cuts off a chunked body once it passes the limit (reads little more than the limit)", async () => {
    const { stream, pulled } = countingStream(10 * 1024 * 1024);
    const err = await readBodyLimited(chunked(stream), 64 * 1024).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(413);
    expect(pulled()).toBeLessThan(200 * 1024);
  });

  it("parses JSON within the limit and 400s malformed JSON", async () => {
    const ok = await readJsonLimited(new Request("http://localhost/x", { method: "POST", body: '{"a":1}' }), z.object({ a: z.number() }), 100);
    expect(ok).toEqual({ a: 1 });
    await expect(readJsonLimited(new Request("http://localhost/x", { method: "POST", body: "{" }), z.unknown(), 100)).rejects.toMatchObject({ code: "bad_request" });
  });
});

describe("route handlers answer 413 for oversized bodies", () => {
  let tmp: TempDb;
  beforeAll(async () => {
    tmp = await createTempDb();
    process.env.DATABASE_URL = tmp.url;
    process.env.SESSION_SECRET = "body-limit-test-secret-0123456789abcdef";
    process.env.KG_UPLOAD_MAX_MB = "1";
  });
  afterAll(async () => {
    delete process.env.KG_UPLOAD_MAX_MB;
    const { getServices } = await import("@/lib/server/services");
    await getServices().registry.close();
    await tmp.close();
  });

  const bigJson = (bytes: number) => JSON.stringify({ kgId: "sample", question: "x".repeat(bytes) });

  it("POST /api/turns: a 65 KB body is 413 and nothing is saved", async () => {
    const { POST } = await import("@/app/api/turns/route");
    const res = await POST(chunked(new Blob([bigJson(TURN_BODY_LIMIT + 1024)]).stream()));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("too_large");
    const sessionId = [...jar.values()][0]?.split(".")[0] ?? "";
    expect(await tmp.queries.listConversations({ sessionId })).toEqual([]);
  });

  it("POST /api/turns/[id]/retry: an oversized body is 413, not a silent re-run", async () => {
    const { POST } = await import("@/app/api/turns/[id]/retry/route");
    const res = await POST(chunked(new Blob([bigJson(TURN_BODY_LIMIT + 1024)]).stream()), { params: Promise.resolve({ id: "whatever" }) });
    expect(res.status).toBe(413);
  });

  it("POST /api/sparql: a query body over 100 KB is 413 (by Content-Length too), one under it is not", async () => {
    const { POST } = await import("@/app/api/sparql/route");
    const big = JSON.stringify({ kgId: "sample", query: `SELECT * WHERE { ?s ?p ?o } #${"x".repeat(SPARQL_BODY_LIMIT)}` });
    const announced = new Request("http://localhost/api/sparql", { method: "POST", body: big, headers: { "content-length": String(big.length) } });
    expect((await POST(announced)).status).toBe(413);
    expect((await POST(chunked(new Blob([big]).stream()))).status).toBe(413);
    const small = await POST(new Request("http://localhost/api/sparql", { method: "POST", body: JSON.stringify({ kgId: "sample", query: "SELECT * WHERE { ?s ?p ?o } LIMIT 1" }) }));
    expect(small.status).toBe(200);
  });

  it("POST /api/kg/upload: over KG_UPLOAD_MAX_MB (+ form overhead) is 413 even without Content-Length", async () => {
    const { POST } = await import("@/app/api/kg/upload/route");
    const form = new FormData();
    form.append("files", new File([new Uint8Array(2_500_000).fill(0x20)], "big.nt"));
    const encoded = new Request("http://localhost/api/kg/upload", { method: "POST", body: form });
    const type = encoded.headers.get("content-type")!;
    const res = await POST(new Request("http://localhost/api/kg/upload", { method: "POST", body: encoded.body, duplex: "half", headers: { "content-type": type } } as RequestInit));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("KG_UPLOAD_MAX_MB");
  });

  it("POST /api/kg/upload: a small file still loads", async () => {
    const { POST } = await import("@/app/api/kg/upload/route");
    const form = new FormData();
    form.append("files", new File(['<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "A" .\n'], "a.nt"));
    const res = await POST(new Request("http://localhost/api/kg/upload", { method: "POST", body: form }));
    expect(res.status).toBe(201);
  });
});
