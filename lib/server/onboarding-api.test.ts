// The onboarding routes' logic over a scripted onboarding service: session scoping, what "Prepare this KG" means for
// an endpoint and for files, chips never from a stale KG, and the progress stream's end (own events or polling).
import { describe, expect, it, vi } from "vitest";
import type { UIMessageChunk } from "ai";
import { AppError } from "@/lib/errors";
import type { OnboardingEvent, OnboardingJob } from "@/lib/kg/onboarding/types";
import type { OnboardingService } from "@/lib/kg/onboarding/service";
import type { KgAccess } from "./kg-registry";
import { createOnboardingApi } from "./onboarding-api";

function job(over: Partial<OnboardingJob> = {}): OnboardingJob {
  return {
    id: "j1",
    kgKey: "up1",
    kgName: "Apiaries",
    status: "running",
    phase: "examples",
    done: 3,
    total: 10,
    finishedPhases: ["profile"],
    trigger: "added",
    contentHash: "h",
    queries: 12,
    candidates: 5,
    examples: 2,
    skipped: [],
    startedAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:01.000Z",
    ...over,
  };
}

const KGS: Record<string, KgAccess> = {
  sample: { id: "sample", name: "Sample KG", kind: "sample" },
  up1: { id: "up1", name: "Apiaries", kind: "upload" },
  ep1: { id: "ep1", name: "Remote", kind: "endpoint" },
};

function setup(current: OnboardingJob | undefined = job()) {
  let state: OnboardingJob | undefined = current;
  const listeners = new Set<(e: OnboardingEvent) => void>();
  const service = {
    start: vi.fn(async (_k: string, _o: unknown) => job({ status: "queued" })),
    resume: vi.fn(async () => job()),
    invalidate: vi.fn(async () => job({ status: "queued", trigger: "user" })),
    cancel: vi.fn(async () => job({ status: "cancelled" })),
    status: vi.fn(async (): Promise<OnboardingJob | undefined> => state),
    subscribe: vi.fn((_k: string, l: (e: OnboardingEvent) => void): (() => void) => {
      listeners.add(l);
      if (state) l({ type: "job", job: state });
      return () => void listeners.delete(l);
    }),
    getProfile: vi.fn(async () => undefined),
    getNotes: vi.fn(async () => undefined),
    setNotes: vi.fn(async (_k: string, text: string | null) => ({ kgKey: "up1", text: text ?? "derived", derived: "derived", edited: text !== null, updatedAt: "t" })),
    listExamples: vi.fn(async () => ({ items: [], total: 0 })),
    deleteExample: vi.fn(async () => {}),
    promoteExample: vi.fn(),
    suggestions: vi.fn(async () => [{ exampleId: "e1", question: "How many hives are there?", shape: "class-count" as const }]),
  } satisfies Record<keyof OnboardingService, unknown>;
  const registry = {
    access: vi.fn(async (sessionId: string, kgId: string) => {
      // only session "s1" owns the uploads and endpoints; everyone may use the default KG
      const kg = KGS[kgId];
      if (!kg || (kgId !== "sample" && sessionId !== "s1")) throw new AppError("not_found", "No such KG.");
      return kg;
    }),
  };
  const api = createOnboardingApi({ registry, onboarding: service as unknown as OnboardingService });
  return {
    api,
    service,
    emit: (e: OnboardingEvent) => listeners.forEach((l) => l(e)),
    setState: (j: OnboardingJob | undefined) => (state = j),
    listeners,
  };
}

describe("onboarding API", () => {
  it("answers 404 for another session's KG and never reaches the service", async () => {
    const { api, service } = setup();
    await expect(api.status("s2", "up1")).rejects.toMatchObject({ code: "not_found" });
    await expect(api.act("s2", "up1", { action: "rerun" })).rejects.toMatchObject({ code: "not_found" });
    await expect(api.setNotes("s2", "up1", "mine")).rejects.toMatchObject({ code: "not_found" });
    expect(service.status).not.toHaveBeenCalled();
    expect(service.start).not.toHaveBeenCalled();
    expect(service.setNotes).not.toHaveBeenCalled();
  });

  it("re-runs an endpoint by invalidating it (the user's word that its data changed), files by a forced start", async () => {
    const { api, service } = setup();
    await api.act("s1", "ep1", { action: "rerun" });
    expect(service.invalidate).toHaveBeenCalledWith("ep1", { sessionId: "s1" });
    await api.act("s1", "up1", { action: "rerun" });
    expect(service.start).toHaveBeenCalledWith("up1", { sessionId: "s1", trigger: "user", force: true });
    // the default KG is everyone's: no session opens it
    await api.act("s9", "sample", { action: "start" });
    expect(service.start).toHaveBeenLastCalledWith("sample", { sessionId: undefined, trigger: "user", force: false });
  });

  it("gives no suggested questions for a KG whose data changed since it was prepared", async () => {
    const { api, setState } = setup(job({ status: "done" }));
    expect((await api.suggestions("s1", "up1", 5)).questions).toHaveLength(1);
    setState(job({ status: "stale" }));
    expect((await api.suggestions("s1", "up1", 5)).questions).toEqual([]);
    setState(undefined);
    expect(await api.suggestions("s1", "up1", 5)).toEqual({ kgId: "up1", job: null, questions: [] });
  });

  it("streams the job's events as data parts and ends with its end event", async () => {
    const { api, emit, listeners } = setup();
    const parts: UIMessageChunk[] = [];
    const done = api.stream("s1", "up1", (p) => parts.push(p), new AbortController().signal, 50);
    await vi.waitFor(() => expect(listeners.size).toBe(1));
    emit({ type: "progress", phase: "examples", done: 4, total: 10 });
    emit({ type: "end", job: job({ status: "done", finishedAt: "t" }) });
    await done;
    expect(parts.map((p) => (p as { data: OnboardingEvent }).data.type)).toEqual(["job", "progress", "end"]);
    expect(parts.every((p) => p.type === "data-onboarding")).toBe(true);
    expect(listeners.size).toBe(0);
  });

  it("follows another process's job by polling its status until it ends", async () => {
    const { api, service, setState } = setup();
    // this process's runner sends nothing after the first snapshot
    service.subscribe.mockImplementation(() => () => {});
    const parts: UIMessageChunk[] = [];
    const done = api.stream("s1", "up1", (p) => parts.push(p), new AbortController().signal, 20);
    setState(job({ status: "failed", error: { code: "kg_timeout", message: "The endpoint did not answer within 10 s." }, updatedAt: "later" }));
    await done;
    const last = (parts.at(-1) as { data: OnboardingEvent }).data;
    expect(last).toMatchObject({ type: "end", job: { status: "failed", error: { code: "kg_timeout" } } });
  });

  it("ends the stream when the client goes away, and at once for a job that is not running", async () => {
    const { api, listeners, setState } = setup();
    const controller = new AbortController();
    const done = api.stream("s1", "up1", () => {}, controller.signal, 20);
    await vi.waitFor(() => expect(listeners.size).toBe(1));
    controller.abort();
    await done;
    expect(listeners.size).toBe(0);
    setState(job({ status: "done" }));
    const parts: UIMessageChunk[] = [];
    await api.stream("s1", "up1", (p) => parts.push(p), new AbortController().signal, 20);
    expect(parts).toHaveLength(1);
    expect(listeners.size).toBe(0);
  });
});
