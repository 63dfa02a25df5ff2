// Proof that the induced schema can express CK25's questions: hand-written SQL (test data, never used by the strategy)
// over the database induced from prod-inst.ttl gives the official gold answer for each of them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { ck25KgSpec, ck25Missing, ck25Paths } from "@/lib/eval/ck25-scripted";
import { induceDatabase, type InducedDatabase } from "./induction";
import { checkFidelity } from "./fidelity";

const missing = ck25Missing();
if (missing) console.warn(`Skipping the CK25 induction tests: ${missing}.`);
const SQL_DIR = path.resolve("test/fixtures/ck25/ragonite-sql");
const cases = readdirSync(SQL_DIR)
  .filter((f) => f.endsWith(".sql"))
  .sort()
  .map((f) => {
    const text = readFileSync(path.join(SQL_DIR, f), "utf8");
    return { id: Number(/q(\d+)/.exec(f)![1]), shape: /-- shape: (\w+)/.exec(text)![1], sql: text };
  });

/** The flattened gold (every value a key) as a set, numbers by value; ASK gold as "true"/"false". */
function goldSet(id: number): Set<string> {
  const all = JSON.parse(readFileSync(ck25Paths().gold, "utf8")) as Record<string, Record<string, number>>;
  const entry = all[`ck25:${id}-en`];
  const keys = Object.keys(entry);
  if (keys.length === 1 && keys[0] === "true") return new Set([entry.true === 1 ? "true" : "false"]);
  return new Set(keys.map(norm));
}
const norm = (v: unknown) => (typeof v === "string" && /^[+-]?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : String(v));

describe.skipIf(missing !== undefined)("CK25 on the induced database", () => {
  let kg: KnowledgeGraph;
  let induced: InducedDatabase;
  const dir = mkdtempSync(path.join(tmpdir(), "ragonite-ck25-"));
  beforeAll(async () => {
    kg = await openKg(ck25KgSpec());
    induced = await induceDatabase(kg, { dir });
  }, 120_000);
  afterAll(async () => {
    induced?.db.close();
    await kg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("represents every triple whose subject has a type", async () => {
    const report = await checkFidelity(induced.facts, induced.schema, induced.db);
    console.log(`CK25: ${report.represented}/${report.total} triples represented (${induced.stats.tables} tables, ${induced.stats.linkTables} link tables)`);
    expect(report.missing).toEqual([]);
    expect(report.represented).toBe(report.total);
    expect(report.total).toBeGreaterThan(26_000);
  }, 60_000);

  it("has at least 15 hand-written questions of several shapes", () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
    expect(new Set(cases.map((c) => c.shape))).toEqual(new Set(["lookup", "join", "filter", "count", "order", "aggregate", "boolean"]));
  });

  it.each(cases.map((c) => [c.id, c.shape, c] as const))("q%i (%s) equals the official gold", async (_id, _shape, c) => {
    const r = await induced.db.query(c.sql);
    const got = new Set(r.rows.flat().map(norm));
    expect(got).toEqual(goldSet(c.id));
  });
});
