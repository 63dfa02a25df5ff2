// The onboarding job: phases persisted as they finish, cancel and resume from the first unfinished phase, invalidation
// when the KG's content changes (or a user says an endpoint did), and a KG that times out or refuses: the job stops
// with the reason in words and nothing half-made is offered.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph, QueryOptions } from "@/lib/kg/types";
import { ALIVE_QUERY } from "./kg-watch";
import { createOnboardingService } from "./runner";
import { createMemoryStore } from "./store";
import type { OnboardingEvent } from "./types";

let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/onboarding/lighthouses.ttl"] });
}, 60_000);
afterAll(async () => {
  await kg?.close();
});

/** The KG, each query delayed (so a test can act while a job runs), or failing with `fail`. */
function slowKg(base: KnowledgeGraph, options: { delayMs?: number; fail?: AppError } = {}): KnowledgeGraph {
  const wait = () => new Promise((r) => setTimeout(r, options.delayMs ?? 0));
  return new Proxy(base, {
    get(target, prop, receiver) {
      if (prop === "query" || prop === "select" || prop === "ask") {
        return async (...args: unknown[]) => {
          await wait();
          if (options.fail) throw options.fail;
          return (Reflect.get(target, prop, receiver) as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/**
 * An endpoint over `base` (kind "remote"): a query `hangs` picks never answers — it ends at its timeout as the HTTP
 * client ends it (kg_timeout), or, with `ignoreTimeout`, never settles at all. `sent` lists the queries the KG got.
 */
function hangingKg(base: KnowledgeGraph, hangs: (query: string) => boolean, options: { ignoreTimeout?: boolean } = {}) {
  const sent: string[] = [];
  const kg = new Proxy(base, {
    get(target, prop, receiver) {
      if (prop === "info") return { ...target.info, kind: "remote" };
      if (prop === "query") {
        return (query: string, o: QueryOptions = {}) => {
          sent.push(query);
          if (!hangs(query)) return target.query(query, o);
          if (options.ignoreTimeout) return new Promise(() => {});
          return new Promise((_, reject) => {
            const t = setTimeout(() => reject(new AppError("kg_timeout", `The SPARQL endpoint did not answer within ${o.timeoutMs} ms.`)), o.timeoutMs ?? 10_000);
            o.signal?.addEventListener("abort", () => (clearTimeout(t), reject(new AppError("aborted", "cancelled"))), { once: true });
          });
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return { kg, sent };
}

const FAST = { queryTimeoutMs: 200, profileQueryTimeoutMs: 400 };

describe("a KG that stops answering", () => {
  it("an endpoint that answers only the add-endpoint ASK: the job stops at its first query's timeout, saying so", async () => {
    const { kg: dead, sent } = hangingKg(kg, (q) => !/^\s*ASK\s*\{\s*\?s\s+\?p\s+\?o\s*\}\s*$/i.test(q));
    const service = createOnboardingService({ store: createMemoryStore(), open: async () => dead, contentHash: async () => "endpoint:x", limits: FAST });
    await service.start("k", { trigger: "added" });
    await service.running("k");
    expect(await service.status("k")).toMatchObject({
      status: "failed",
      phase: "profile",
      error: { code: "kg_timeout", message: "The KG did not answer in time: a one-row query got no answer within 0.2 s." },
    });
    // one query, not the profile's dozens each waiting for its timeout
    expect(sent).toEqual([ALIVE_QUERY]);
  }, 30_000);

  it("an endpoint that ignores its own timeout is cut on the wall clock, and a cancel returns at once", async () => {
    const { kg: deaf } = hangingKg(kg, () => true, { ignoreTimeout: true });
    const service = createOnboardingService({ store: createMemoryStore(), open: async () => deaf, contentHash: async () => "endpoint:x", limits: FAST });
    await service.start("k", { trigger: "added" });
    await service.running("k");
    expect(await service.status("k")).toMatchObject({ status: "failed", error: { code: "kg_timeout" } });
    await service.start("k", { trigger: "user", force: true });
    const t0 = performance.now();
    expect(await service.cancel("k")).toMatchObject({ status: "cancelled" });
    expect(performance.now() - t0).toBeLessThan(1_000);
  }, 30_000);

  it("a KG that stops answering mid-job: the job stops, the profile it read is kept, and a resume finishes it", async () => {
    let down = false;
    let wentDown = false;
    const { kg: flaky } = hangingKg(kg, () => down);
    const service = createOnboardingService({ store: createMemoryStore(), open: async () => flaky, contentHash: async () => "endpoint:x", limits: FAST });
    service.subscribe("k", (e) => {
      if (!wentDown && e.type === "progress" && e.phase === "examples") down = wentDown = true;
    });
    await service.start("k", { trigger: "added" });
    await service.running("k");
    expect(await service.status("k")).toMatchObject({
      status: "failed",
      phase: "examples",
      finishedPhases: ["profile"],
      error: { code: "kg_timeout", message: "The KG did not answer in time: a query took longer than its time limit, and then a one-row query got no answer within 0.2 s either." },
    });
    expect((await service.getProfile("k"))?.classes.map((c) => c.name)).toContain("Lighthouse");
    down = false;
    await service.resume("k");
    await service.running("k");
    expect(await service.status("k")).toMatchObject({ status: "done", finishedPhases: ["profile", "examples", "questions", "notes"] });
    expect((await service.suggestions("k")).length).toBeGreaterThan(0);
  }, 60_000);

  it("a slow query on a KG that answers the others is no dead KG: the job goes on and finishes", async () => {
    // the profile's language-tag scan and every ordered example candidate take longer than their time limit
    let examples = false;
    const { kg: slow, sent } = hangingKg(kg, (q) => /LANG\(\?o\)/.test(q) || (examples && /ORDER BY/i.test(q)));
    const service = createOnboardingService({ store: createMemoryStore(), open: async () => slow, contentHash: async () => "endpoint:x", limits: FAST });
    service.subscribe("k", (e) => {
      if (e.type === "progress" && e.phase === "examples") examples = true;
    });
    await service.start("k", { trigger: "added" });
    await service.running("k");
    const job = await service.status("k");
    expect(job?.error).toBeUndefined();
    expect(job).toMatchObject({ status: "done" });
    expect(job?.examples).toBeGreaterThan(5);
    expect(sent.filter((q) => /ORDER BY/i.test(q)).length).toBeGreaterThan(3);
    // the one-row query: at the start, and after the language scan timed out with no other answer since
    expect(sent.filter((q) => q === ALIVE_QUERY).length).toBeGreaterThan(1);
  }, 60_000);
});

describe("the onboarding job", () => {
  it("runs every phase, keeps the results, and a finished job for the same content is not run again", async () => {
    const store = createMemoryStore();
    const events: OnboardingEvent[] = [];
    const service = createOnboardingService({ store, open: async () => kg, contentHash: async () => "h1" });
    service.subscribe("k", (e) => events.push(e));
    await service.start("k", { trigger: "added" });
    await service.running("k");
    const job = await service.status("k");
    expect(job).toMatchObject({ status: "done", finishedPhases: ["profile", "examples", "questions", "notes"], trigger: "added" });
    expect(job?.queries).toBeGreaterThan(10);
    expect(events.filter((e) => e.type === "progress").length).toBeGreaterThan(3);
    expect(events.at(-1)).toMatchObject({ type: "end", job: { status: "done" } });
    const { total } = await service.listExamples("k");
    expect(total).toBe(job?.examples);
    expect((await service.suggestions("k", { count: 5 })).length).toBe(5);
    expect((await service.getProfile("k"))?.classes.map((c) => c.name)).toContain("Lighthouse");
    // same content: returned as it is
    const again = await service.start("k", { trigger: "user" });
    expect(again.id).toBe(job?.id);
    expect(service.running("k")).toBeUndefined();
  }, 60_000);

  it("cancels, then resumes at the first unfinished phase", async () => {
    const store = createMemoryStore();
    const service = createOnboardingService({ store, open: async () => slowKg(kg, { delayMs: 15 }), contentHash: async () => "h1" });
    let cancelled = false;
    service.subscribe("k", (e) => {
      if (!cancelled && e.type === "progress" && e.phase === "examples") {
        cancelled = true;
        void service.cancel("k");
      }
    });
    await service.start("k", { trigger: "user" });
    await service.running("k");
    const stopped = await service.status("k");
    expect(stopped).toMatchObject({ status: "cancelled", phase: "examples", finishedPhases: ["profile"] });
    const resumed = await service.resume("k");
    expect(resumed.id).toBe(stopped?.id);
    await service.running("k");
    expect(await service.status("k")).toMatchObject({ status: "done", finishedPhases: ["profile", "examples", "questions", "notes"] });
  }, 60_000);

  it("marks a changed KG's results stale, drops its generated examples (promoted ones stay) and starts again", async () => {
    const store = createMemoryStore();
    let hash = "h1";
    const service = createOnboardingService({ store, open: async () => kg, contentHash: async () => hash });
    await service.start("k", { trigger: "added" });
    await service.running("k");
    const first = await service.status("k");
    const { items } = await service.listExamples("k", { limit: 2 });
    const kept = await service.promoteExample("k", items[0].id);
    expect(kept.status).toBe("promoted");
    hash = "h2";
    const second = await service.start("k", { trigger: "user" });
    expect(second.id).not.toBe(first?.id);
    expect(second.contentHash).toBe("h2");
    await service.running("k");
    const after = await service.listExamples("k", { limit: 500 });
    expect(after.items.find((e) => e.id === items[1].id)).toBeUndefined();
    expect(after.items.find((e) => e.id === kept.id)?.status).toBe("promoted");
    // an endpoint: the user says it changed
    const third = await service.invalidate("k", {});
    expect(third.id).not.toBe(second.id);
    await service.running("k");
    expect(await service.status("k")).toMatchObject({ status: "done" });
  }, 60_000);

  it("stops with the reason when the KG times out, and offers nothing half-made", async () => {
    const store = createMemoryStore();
    const fail = new AppError("kg_timeout", "The query took longer than 10 s.");
    const service = createOnboardingService({ store, open: async () => slowKg(kg, { fail }), contentHash: async () => "endpoint:https://kg.example/sparql" });
    await service.start("k", { trigger: "added" });
    await service.running("k");
    const job = await service.status("k");
    expect(job).toMatchObject({ status: "failed", phase: "profile", error: { code: "kg_timeout", message: "The KG did not answer in time: a one-row query got no answer within 10 s." } });
    expect(await service.getNotes("k")).toBeUndefined();
    expect(await service.suggestions("k")).toEqual([]);
    expect((await service.listExamples("k")).total).toBe(0);
  }, 60_000);

  it("leaves a job another process runs alone, and resumes one whose process is gone", async () => {
    const store = createMemoryStore();
    const other = createOnboardingService({ store, open: async () => slowKg(kg, { delayMs: 20 }), contentHash: async () => "h1" });
    await other.start("k", { trigger: "default" });
    const mine = createOnboardingService({ store, open: async () => kg, contentHash: async () => "h1", staleAfterMs: 60_000 });
    const seen = await mine.start("k", { trigger: "default" });
    expect(seen.status).toMatch(/queued|running/);
    expect(mine.running("k")).toBeUndefined();
    await other.cancel("k");
    // a process that stopped without a word: its job looks running but has not moved for longer than staleAfterMs
    const j = await store.getJob("k");
    await store.saveJob({ ...(j as NonNullable<typeof j>), status: "running", updatedAt: "2020-01-01T00:00:00.000Z" });
    expect(await mine.status("k")).toMatchObject({ status: "cancelled", error: { code: "interrupted" } });
    const resumed = await mine.start("k", { trigger: "default" });
    expect(resumed.id).toBe(j?.id);
    await mine.running("k");
    expect(await mine.status("k")).toMatchObject({ status: "done" });
  }, 60_000);

  it("keeps the user's notes apart from the derived ones", async () => {
    const store = createMemoryStore();
    const service = createOnboardingService({ store, open: async () => kg, contentHash: async () => "h1" });
    await service.start("k", { trigger: "added" });
    await service.running("k");
    const derived = await service.getNotes("k");
    expect(derived?.edited).toBe(false);
    const edited = await service.setNotes("k", "Heights are in metres; ask about lamps by their kind.");
    expect(edited).toMatchObject({ edited: true, text: "Heights are in metres; ask about lamps by their kind.", derived: derived?.derived });
    expect((await service.setNotes("k", null)).text).toBe(derived?.text);
  }, 60_000);
});
