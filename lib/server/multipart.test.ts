// Streaming multipart reading (busboy): bodies encoded by the platform's FormData or by hand, fed in chunks of every size.
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isAppError } from "@/lib/errors";
import { parseMultipartToDisk, removeForm } from "./multipart";

async function encode(form: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const req = new Request("http://localhost/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), type: req.headers.get("content-type")! };
}

/** The bytes as a stream of chunks of `size` bytes (the last one shorter). */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const opts = { fileField: "files", maxFileBytes: 1024 * 1024, maxBodyBytes: 2 * 1024 * 1024, maxFiles: 5 };
const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

describe("parseMultipartToDisk", () => {
  // content that contains boundary-like text and CRLFs, so a naive split would cut it
  const tricky = `<http://e/a> <http://e/p> "--x\r\n--\r\n\r\n" .\n`.repeat(300);
  const binary = Uint8Array.from({ length: 5000 }, (_, i) => (i * 37) % 256);

  for (const size of [1, 7, 45, 64, 100, 4096, 1 << 20]) {
    it(`keeps fields and files byte for byte with ${size}-byte chunks`, async () => {
      const form = new FormData();
      form.append("name", "Mes données ✓");
      form.append("files", new File([tricky], "a b \"q\".ttl"));
      form.append("files", new File([binary], "données.nt"));
      const { bytes, type } = await encode(form);
      const parsed = await parseMultipartToDisk(chunked(bytes, size), type, opts);
      try {
        expect(parsed.fields).toEqual({ name: "Mes données ✓" });
        expect(parsed.files.map((f) => f.name)).toEqual(['a b "q".ttl', "données.nt"]);
        expect(fs.readFileSync(parsed.files[0].path, "utf8")).toBe(tricky);
        expect(new Uint8Array(fs.readFileSync(parsed.files[1].path))).toEqual(binary);
        expect(parsed.files.map((f) => [f.size, f.sha256])).toEqual([
          [Buffer.byteLength(tricky), sha(tricky)],
          [binary.length, sha(binary)],
        ]);
      } finally {
        await removeForm(parsed);
      }
      expect(fs.existsSync(parsed.dir)).toBe(false);
    });
  }

  it("stops at the file cap while streaming and leaves no temporary files", async () => {
    const form = new FormData();
    form.append("files", new File([new Uint8Array(300_000)], "big.nt"));
    const { bytes, type } = await encode(form);
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "mp-cap-"));
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (pulled >= bytes.length) return c.close();
        c.enqueue(bytes.slice(pulled, pulled + 10_000));
        pulled += 10_000;
      },
    });
    const e = await parseMultipartToDisk(body, type, { ...opts, maxFileBytes: 100_000, tmpDir }).catch((err: unknown) => err);
    expect(isAppError(e, "too_large")).toBe(true);
    expect(pulled).toBeLessThan(200_000); // it did not read the rest
    expect(fs.readdirSync(tmpDir)).toEqual([]);
    fs.rmSync(tmpDir, { recursive: true });
  });

  it("refuses what is not a complete multipart form, and file parts in another field", async () => {
    const bad = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);
    expect(isAppError(await bad(parseMultipartToDisk(chunked(new Uint8Array(10), 4), "application/json", opts)), "bad_request")).toBe(true);
    const form = new FormData();
    form.append("files", new File(["x"], "a.nt"));
    const { bytes, type } = await encode(form);
    const truncated = await bad(parseMultipartToDisk(chunked(bytes.slice(0, bytes.length - 10), 16), type, opts));
    expect(isAppError(truncated, "bad_request")).toBe(true);
    const other = new FormData();
    other.append("attachment", new File(["x"], "a.nt"));
    const enc = await encode(other);
    expect(isAppError(await bad(parseMultipartToDisk(chunked(enc.bytes, 16), enc.type, opts)), "bad_request")).toBe(true);
    const many = new FormData();
    for (let i = 0; i < 6; i++) many.append("files", new File(["x"], `${i}.nt`));
    const m = await encode(many);
    expect(isAppError(await bad(parseMultipartToDisk(chunked(m.bytes, 16), m.type, opts)), "bad_request")).toBe(true);
  });

  it("reads boundaries and file names as browsers and other clients send them", async () => {
    const body = (boundary: string, disposition: string) =>
      new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\nx\r\n--${boundary}--\r\n`);
    const cases: [string, string, string, string][] = [
      ["multipart/form-data; boundary=----WebKitFormBoundaryAbC", "----WebKitFormBoundaryAbC", 'form-data; name="files"; filename="x%22y.nt"', 'x"y.nt'],
      ['multipart/form-data; charset=utf-8; boundary="a b"', "a b", "form-data; name=files; filename*=UTF-8''%C3%A9.ttl", "é.ttl"],
      ["multipart/form-data; boundary=z", "z", 'form-data; name="files"; filename="données.nt"', "données.nt"],
    ];
    for (const [type, boundary, disposition, name] of cases) {
      const parsed = await parseMultipartToDisk(chunked(body(boundary, disposition), 3), type, opts);
      try {
        expect(parsed.files.map((f) => [f.name, f.size, f.sha256])).toEqual([[name, 1, sha("x")]]);
      } finally {
        await removeForm(parsed);
      }
    }
    for (const type of ["text/plain; boundary=x", "multipart/form-data", null]) {
      const e = await parseMultipartToDisk(chunked(body("x", 'form-data; name="files"; filename="a.nt"'), 3), type, opts).catch((err: unknown) => err);
      expect(isAppError(e, "bad_request"), String(type)).toBe(true);
    }
  });

  it("stops at the body cap even when the parts are text fields", async () => {
    const form = new FormData();
    for (let i = 0; i < 10; i++) form.append(`f${i}`, "y".repeat(30_000));
    const { bytes, type } = await encode(form);
    const e = await parseMultipartToDisk(chunked(bytes, 4096), type, { ...opts, maxBodyBytes: 100_000 }).catch((err: unknown) => err);
    expect(isAppError(e, "too_large")).toBe(true);
    const long = new FormData();
    long.append("name", "z".repeat(70_000));
    const l = await encode(long);
    const tooLong = await parseMultipartToDisk(chunked(l.bytes, 4096), l.type, opts).catch((err: unknown) => err);
    expect(isAppError(tooLong, "bad_request") && (tooLong as Error).message).toMatch(/"name" is too long/);
  });
});
