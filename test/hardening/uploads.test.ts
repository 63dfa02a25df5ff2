// Hardening, RDF uploads: malformed/empty/wrong/oversized files give a clear error and leave nothing behind, a huge
// literal loads, the same content twice is the same KG, and a failed load leaves every earlier KG fully usable.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createKgRegistry, type KgRegistry, type UploadFile } from "@/lib/server/kg-registry";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

const SESSION = "hardening-uploads";
const enc = (text: string) => new TextEncoder().encode(text);
const ttl = (name: string, text: string): UploadFile => ({ name, data: enc(text) });
const GOOD = ttl("people.ttl", '@prefix ex: <http://example.org/> .\nex:ada ex:name "Ada" .\nex:ada ex:born "1815" .\n');
const MALFORMED = ttl("broken.ttl", '@prefix ex: <http://example.org/> .\nex:a ex:p "ok" .\n\nex:b ex:p "missing dot"\nex:c ex:p ex:d .\n');

let tmp: TempDb;
let registry: KgRegistry;
const uploadsDir = () => path.join(tmp.dir, "data", "uploads");
const folders = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0);
const sources = async () => (await tmp.queries.listKgSources({ sessionId: SESSION })).length;

async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-uploads-");
  registry = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: path.join(tmp.dir, "data"), env: { KG_UPLOAD_MAX_MB: "40" } });
});
afterAll(async () => {
  await registry.close();
  await tmp.close();
});

describe("uploads that fail", () => {
  it("malformed Turtle: the error names the file and the line; nothing is registered or kept on disk", async () => {
    const e = await rejection(registry.addUpload(SESSION, [MALFORMED]));
    expect(isAppError(e, "kg_load")).toBe(true);
    expect(e.message).toContain("broken.ttl");
    expect(e.message).toMatch(/line 5/);
    expect((e as { where?: { line?: number; source?: string } }).where).toMatchObject({ source: "broken.ttl", line: 5 });
    expect(await sources()).toBe(0);
    expect(folders()).toBe(0);
  });

  it("wrong extension, empty file, a file of only comments", async () => {
    const wrong = await rejection(registry.addUpload(SESSION, [ttl("data.csv", "a,b\n")]));
    expect(isAppError(wrong, "bad_request")).toBe(true);
    expect(wrong.message).toMatch(/data\.csv: not an RDF file extension/);
    const empty = await rejection(registry.addUpload(SESSION, [{ name: "empty.ttl", data: new Uint8Array() }]));
    expect(isAppError(empty, "bad_request")).toBe(true);
    expect(empty.message).toBe("empty.ttl is empty.");
    const comments = await rejection(registry.addUpload(SESSION, [ttl("comments.ttl", "# nothing here\n")]));
    expect(isAppError(comments, "kg_load")).toBe(true);
    expect(comments.message).toMatch(/No triples found in comments\.ttl/);
    expect(await sources()).toBe(0);
    expect(folders()).toBe(0);
  });

  it("over the configured size limit: 413 naming the limit and the setting", async () => {
    const small = createKgRegistry({ queries: tmp.queries, dataDir: path.join(tmp.dir, "data"), env: { KG_UPLOAD_MAX_MB: "1" } });
    const big = ttl("big.nt", `<http://e/s> <http://e/p> "${"x".repeat(1024 * 1024 + 10)}" .\n`);
    const e = await rejection(small.addUpload(SESSION, [big]));
    expect(isAppError(e, "too_large")).toBe(true);
    expect(e.message).toMatch(/larger than 1 MB.*KG_UPLOAD_MAX_MB/);
    expect(await sources()).toBe(0);
    expect(folders()).toBe(0);
    await small.close();
  });
});

describe("uploads that succeed", () => {
  it("a 30 MB literal under the limit loads, is queryable, and does not block label search", async () => {
    const huge = "Ω".repeat(15 * 1024 * 1024); // 2 bytes each in UTF-8: 30 MB
    const file = ttl("huge.nt", `<http://e/doc> <http://www.w3.org/2000/01/rdf-schema#label> "${huge}" .\n<http://e/doc> <http://www.w3.org/2000/01/rdf-schema#label> "Small doc" .\n`);
    const started = Date.now();
    const item = await registry.addUpload(SESSION, [file], "Huge literal");
    const kg = await registry.getKg(SESSION, item.id);
    const rows = await kg.select("SELECT (STRLEN(?l) AS ?n) WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l } ORDER BY DESC(?n) LIMIT 1");
    expect(Number(rows.results.bindings[0].n.value)).toBe(huge.length);
    expect((await kg.searchLabels("Small doc", { limit: 3 })).map((h) => h.iri)).toContain("http://e/doc");
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it("the same content twice (other names, other order) is the same KG; a change makes a new one", async () => {
    const first = await registry.addUpload(SESSION, [GOOD, ttl("more.ttl", "<http://e/x> <http://e/y> <http://e/z> .\n")], "People");
    const count = await sources();
    const dirs = folders();
    const again = await registry.addUpload(SESSION, [ttl("more-copy.ttl", "<http://e/x> <http://e/y> <http://e/z> .\n"), ttl("renamed.ttl", new TextDecoder().decode(GOOD.data))]);
    expect(again.id).toBe(first.id);
    expect(again.name).toBe("People");
    expect(await sources()).toBe(count);
    expect(folders()).toBe(dirs);
    // another session uploading the same bytes gets its own KG (sessions never share)
    const other = await registry.addUpload("someone-else", [GOOD]);
    expect(other.id).not.toBe(first.id);
    const changed = await registry.addUpload(SESSION, [ttl("people.ttl", `${new TextDecoder().decode(GOOD.data)}<http://e/new> <http://e/p> "1" .\n`)]);
    expect(changed.id).not.toBe(first.id);
  });

  it("a failed load leaves the previous KGs fully usable", async () => {
    const good = await registry.addUpload(SESSION, [ttl("kept.ttl", '<http://e/kept> <http://e/name> "Kept" .\n')]);
    const kg = await registry.getKg(SESSION, good.id);
    const before = await kg.select("SELECT ?n WHERE { ?s <http://e/name> ?n }");
    const sample = await registry.getKg(SESSION, "sample");
    const sampleCount = (await sample.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")).results.bindings[0].n.value;

    await rejection(registry.addUpload(SESSION, [MALFORMED]));
    await rejection(registry.addUpload(SESSION, [GOOD, MALFORMED]));

    const after = await (await registry.getKg(SESSION, good.id)).select("SELECT ?n WHERE { ?s <http://e/name> ?n }");
    expect(after).toEqual(before);
    expect((await sample.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")).results.bindings[0].n.value).toBe(sampleCount);
    expect((await registry.list(SESSION)).find((k) => k.id === good.id)).toMatchObject({ status: "ready", triples: 1 });
  });
});
