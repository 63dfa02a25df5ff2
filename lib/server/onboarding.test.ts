// Onboarding in the app: a KG added to the registry starts its job (the hook), the job opens the KG through the
// registry, results land in the database; the content key of an upload is stable, an endpoint's leaves credentials out;
// an endpoint that refuses queries ends the job with the reason, and turns are not involved.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { startSparqlEndpoint, type TestSparqlEndpoint } from "@/test/helpers/sparql-endpoint";
import type { KgListItem } from "@/lib/api/contract";
import { createKgRegistry, type KgRegistry } from "./kg-registry";
import { createAppOnboarding, onboardingAuto, onboardingLlm } from "./onboarding";
import { createTempDb, type TempDb } from "./testing/temp-db";

const ALICE = "session-alice";
let tmp: TempDb;
let registry: KgRegistry;
let endpoint: TestSparqlEndpoint;
const addedItems: KgListItem[] = [];
let onboarding: ReturnType<typeof createAppOnboarding>;

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-onboarding-app-");
  registry = createKgRegistry({
    queries: tmp.queries,
    rootDir: process.cwd(),
    dataDir: path.join(tmp.dir, "data"),
    env: { KG_ALLOW_PRIVATE_ENDPOINTS: "true" },
    onAdded: (sessionId, item) => {
      addedItems.push(item);
      void onboarding.start(item.id, { sessionId, trigger: "added" });
    },
  });
  onboarding = createAppOnboarding({ registry, queries: tmp.queries, env: { ONBOARDING_VERBALIZER: "template" } });
  endpoint = await startSparqlEndpoint({ turtle: fs.readFileSync("test/fixtures/kg/onboarding/lighthouses.ttl", "utf8") });
});
afterAll(async () => {
  await registry.close();
  await endpoint.close();
  await tmp.close();
});

const waitFor = async (kgKey: string) => {
  for (let i = 0; i < 400; i++) {
    const j = await onboarding.status(kgKey);
    if (j && !["queued", "running"].includes(j.status)) return j;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("job did not end");
};

describe("onboarding in the app", () => {
  it("prepares an uploaded KG in the background: examples in the pool, suggestions, notes", async () => {
    const data = new Uint8Array(fs.readFileSync("test/fixtures/kg/onboarding/lighthouses.ttl"));
    const item = await registry.addUpload(ALICE, [{ name: "lighthouses.ttl", data }], "Lighthouses");
    expect(addedItems.map((i) => i.id)).toContain(item.id);
    const job = await waitFor(item.id);
    expect(job).toMatchObject({ status: "done", trigger: "added", kgName: "Lighthouses" });
    const pool = await tmp.queries.listExperience({ kgKey: item.id, sessionId: "someone-else" });
    expect(pool.length).toBe(job.examples);
    expect(pool.every((p) => p.source === "generated")).toBe(true);
    const suggestions = await onboarding.suggestions(item.id);
    expect(suggestions).toHaveLength(5);
    expect(new Set(suggestions.map((s) => s.shape)).size).toBe(5);
    expect(suggestions.map((s) => s.question)).toContainEqual(expect.stringMatching(/^How many (lighthouses|keepers|coasts|regions) are there\?$/));
    expect((await onboarding.getNotes(item.id))?.text).toMatch(/Main classes/);
    // the same content again: the finished job stands
    expect(await registry.contentKey(ALICE, item.id)).toBe(job.contentHash);
    expect((await onboarding.start(item.id, { sessionId: ALICE, trigger: "user" })).id).toBe(job.id);
  }, 60_000);

  it("keys an endpoint by its URL without credentials, and stops with the reason when it refuses queries", async () => {
    const url = new URL(endpoint.url);
    url.username = "reader";
    url.password = "secret";
    const item = await registry.addEndpoint(ALICE, { url: url.toString(), name: "Tiny" });
    const key = await registry.contentKey(ALICE, item.id);
    expect(key).toBe(`endpoint:${endpoint.url}`);
    const job = await waitFor(item.id);
    expect(job.status).toBe("done");
    expect(job.contentHash).not.toMatch(/secret/);
    await endpoint.close();
    const again = await onboarding.invalidate(item.id, { sessionId: ALICE });
    expect(again.id).not.toBe(job.id);
    const failed = await waitFor(item.id);
    expect(failed.status).toBe("failed");
    expect(failed.error?.message).toMatch(/^The KG refused or failed a query: /);
  }, 60_000);

  it("prepares what ONBOARDING_AUTO says without being asked", () => {
    expect(onboardingAuto({})).toEqual({ added: true, default: true });
    expect(onboardingAuto({ ONBOARDING_AUTO: "added" })).toEqual({ added: true, default: false });
    expect(onboardingAuto({ ONBOARDING_AUTO: "false" })).toEqual({ added: false, default: false });
  });

  it("writes questions with the model only when asked to", () => {
    expect(onboardingLlm({ ONBOARDING_VERBALIZER: "template", OPENAI_API_KEY: "sk-test" })).toBeUndefined();
    expect(onboardingLlm({})).toBeUndefined();
    expect(onboardingLlm({ OPENAI_API_KEY: "sk-test" })).toBeDefined();
  });
});
