// The onboarding store on a fresh database (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres): a job and its profile
// survive a new client (a restart), generated examples join the KG's pool for every session, promotion and deletion.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDb, testDialect, type TempDb } from "@/lib/server/testing/temp-db";
import type { StoredJob } from "@/lib/kg/onboarding/store";
import type { Queries } from "./queries";
import { ALICE } from "./testing/query-fixtures";

const dialect = testDialect();
let tmp: TempDb;
let q: Queries;

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-onboarding-", dialect);
  q = tmp.queries;
});
afterAll(async () => {
  await tmp?.close();
});

const job: StoredJob = {
  id: "job-1",
  kgKey: "upload-1",
  kgName: "lighthouses.ttl",
  status: "running",
  phase: "examples",
  done: 3,
  total: 10,
  finishedPhases: ["profile"],
  trigger: "added",
  contentHash: "sha256:abc",
  queries: 42,
  candidates: 0,
  examples: 0,
  skipped: ["counts sampled"],
  startedAt: "2026-11-28T22:00:00.000Z",
  updatedAt: "2026-11-28T22:00:05.000Z",
  sessionId: ALICE,
};
const example = (template: string, question: string) => ({ question, sparql: `SELECT ?x WHERE { ?x a <http://example.org/${template}> }`, shape: "class-list" as const, template, answerSize: 3, preview: ["a", "b"], verbalizer: "template" as const, frame: { kind: "list" as const, cls: "Lighthouse" }, mentions: [] });

describe("onboarding store", () => {
  it("keeps a job and its profile, and examples that every session's pool sees", async () => {
    const store = q.onboarding;
    const profile = { version: 1, kgKey: "upload-1", kgName: "x", builtAt: "2026-11-28T22:00:01.000Z", prefixes: {}, classes: [], otherPredicates: [], namingPredicates: [], idShapes: [], schema: { subClassOf: [], subPropertyOf: [], domain: [], range: [], inverseOf: [], enumerations: [] }, literalForms: { datatypes: [], languages: [], dateForms: [], units: [] }, skipped: [] };
    await store.saveJob(job, profile);
    expect(await store.getJob("upload-1")).toEqual({ ...job, profile });
    // progress without the profile keeps the stored one
    await store.saveJob({ ...job, done: 4 });
    expect((await store.getJob("upload-1"))?.profile).toEqual(profile);
    expect(await store.replaceGenerated("upload-1", [example("t1", "List all lighthouses."), example("t2", "List all keepers.")])).toBe(2);
    const pool = await q.listExperience({ kgKey: "upload-1" });
    expect(pool.map((p) => [p.question, p.source]).sort()).toEqual([["List all keepers.", "generated"], ["List all lighthouses.", "generated"]]);
    expect(await q.listExperience({ kgKey: "upload-1", generated: false })).toEqual([]);
  });

  it("promotes, replaces the rest on a new run, deletes, and keeps notes", async () => {
    const store = q.onboarding;
    const { items } = await store.listGenerated("upload-1", { limit: 10, offset: 0 });
    const lighthouses = items.find((e) => e.template === "t1");
    expect(lighthouses).toMatchObject({ status: "generated", preview: ["a", "b"], frame: { kind: "list", cls: "Lighthouse" } });
    expect((await store.promoteExample("upload-1", lighthouses?.id ?? ""))?.status).toBe("promoted");
    expect(await store.replaceGenerated("upload-1", [example("t1", "Lighthouses?"), example("t3", "List all coasts.")])).toBe(1);
    const after = await store.listGenerated("upload-1", { limit: 10, offset: 0 });
    expect(after.items.map((e) => [e.template, e.status]).sort()).toEqual([["t1", "promoted"], ["t3", "generated"]]);
    expect(await store.deleteExample("upload-1", lighthouses?.id ?? "")).toBe(true);
    expect(await store.deleteExample("other-kg", after.items[0].id)).toBe(false);
    await store.saveNotes("upload-1", { derived: "Names: names in lv:title." });
    await store.saveNotes("upload-1", { text: "My own notes." });
    expect(await store.getNotes("upload-1")).toMatchObject({ derived: "Names: names in lv:title.", text: "My own notes." });
  });
});
