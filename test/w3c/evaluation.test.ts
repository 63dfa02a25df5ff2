// The W3C SPARQL 1.0/1.1 query evaluation tests through the app's own query path (test/w3c/run.ts): every read test's
// results equal the expected ones, except the store's deviations (store-deviations.ts). A listed test must give the
// same results through the app as on a bare oxigraph store running the text as written, and fail there too: so nothing
// of ours can hide in that list, and a deviation the store fixes is noticed.
// Update evaluation tests must be refused as updates. W3C_REPORT=1 prints the per-folder counts of docs/hardening.md.
// Needs ../shared/data/w3c-sparql beside the repository, as the other ../shared tests; skipped (saying so) without it.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createEmbeddedKg, type EmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { readW3cTests, W3C_ROOT, type W3cTest } from "./manifest";
import { attempt, judge, queryText, runOnBareStore, runThroughApp } from "./run";
import { NOT_APPLICABLE, STORE_DEVIATIONS } from "./store-deviations";

const present = fs.existsSync(W3C_ROOT);
if (!present) console.warn(`skipping the W3C SPARQL evaluation tests: ${W3C_ROOT} not found`);
const all = present ? readW3cTests() : [];
const reads = all.filter((t) => (t.type === "QueryEvaluationTest" || t.type === "CSVResultFormatTest") && t.query && t.result);
const applicable = reads.filter((t) => !NOT_APPLICABLE(t));
const updates = all.filter((t) => t.type === "UpdateEvaluationTest" && t.query);

const counts = new Map<string, { pass: number; store: number; na: number }>();
const count = (t: W3cTest, k: "pass" | "store" | "na") => {
  const c = counts.get(t.folder) ?? { pass: 0, store: 0, na: 0 };
  c[k]++;
  counts.set(t.folder, c);
};

describe.skipIf(!present)("W3C SPARQL query evaluation tests, through the app's query path", () => {
  let kg: EmbeddedKg;
  beforeAll(async () => {
    // the dataset as the tests define it: the default graph is qt:data only (the app's uploads see named graphs'
    // union instead; that is a KG setting, not a query-path one)
    kg = await createEmbeddedKg({ id: "w3c", name: "W3C test data", unionDefaultGraph: false, timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await kg?.close();
    if (process.env.W3C_REPORT) {
      for (const t of reads.filter((r) => NOT_APPLICABLE(r))) count(t, "na");
      const lines = [...counts.entries()].sort().map(([f, c]) => `| ${f} | ${c.pass} | ${c.store} | ${c.na} |`);
      console.log(["| folder | pass | fail: the store's | not applicable |", "|---|---:|---:|---:|", ...lines].join("\n"));
    }
  });

  it("finds the suites' evaluation tests", () => {
    expect(reads.length).toBeGreaterThan(500);
    expect(updates.length).toBeGreaterThan(80);
  });

  it.each(applicable.map((t) => [t.id, t] as const))("%s", async (_, test) => {
    const app = await attempt(() => runThroughApp(kg, test));
    const verdict = judge(test, app);
    const reason = STORE_DEVIATIONS[test.id];
    if (!reason) {
      expect(verdict.ok, verdict.why).toBe(true);
      count(test, "pass");
      return;
    }
    // listed as the store's: the bare store fails it too, and the app's path gives exactly the bare store's results
    const bare = await attempt(() => runOnBareStore(test));
    expect(verdict.ok, `${test.id} now passes: remove it from store-deviations.ts`).toBe(false);
    expect(judge(test, bare).ok, `${test.id} passes on a bare oxigraph store, so its failure is ours: ${verdict.why}`).toBe(false);
    if (bare.kind !== "error") expect(judge(test, app, bare), "the app's path changed the store's answer").toEqual({ ok: true });
    else expect(app.kind, "the store refuses the query, so the app's path must too").toBe("error");
    count(test, "store");
  });

  it.each(updates.map((t) => [t.id, t] as const))("%s: the update is refused", (_, test) => {
    let code = "accepted";
    try {
      parseReadOnly(queryText(test.query!));
    } catch (e) {
      code = isAppError(e) ? e.code : "threw";
    }
    expect(code).toBe("sparql_forbidden");
  });
});
