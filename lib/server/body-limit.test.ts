// Body caps: announced oversize is refused unread, and unannounced (chunked) oversize is cut off.
// (The routes' 413 answers are tested in test/hardening/body-limits.test.ts: lib/ tests never load app/.)
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { readBodyLimited, readJsonLimited } from "./body-limit";

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
