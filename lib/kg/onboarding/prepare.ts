// Onboarding a KG in memory, start to end, with the same runner the app uses (a map for a store): for the command
// line, the bench and `npm run eval -- --generated-pool`, where no database is needed and the questions come from the
// templates (offline, deterministic) unless a model is given.
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createOnboardingService } from "./runner";
import { createMemoryStore, type StoredExample } from "./store";
import type { KgNotes, KgOnboardingProfile, OnboardingEvent, OnboardingJob, OnboardingLimits } from "./types";

export interface PreparedKg {
  job: OnboardingJob;
  profile?: KgOnboardingProfile;
  examples: StoredExample[];
  notes?: KgNotes;
  /** wall time, ms */
  ms: number;
}

export async function prepareInMemory(kg: KnowledgeGraph, options: { kgKey?: string; llm?: LlmGateway; limits?: Partial<OnboardingLimits>; onEvent?: (e: OnboardingEvent) => void; signal?: AbortSignal } = {}): Promise<PreparedKg> {
  const started = performance.now();
  const kgKey = options.kgKey ?? kg.info.id;
  const store = createMemoryStore();
  const service = createOnboardingService({
    store,
    open: async () => kg,
    contentHash: async () => `memory:${kg.info.id}`,
    ...(options.llm ? { llm: () => options.llm } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const unsubscribe = options.onEvent ? service.subscribe(kgKey, options.onEvent) : undefined;
  const onAbort = () => void service.cancel(kgKey);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    await service.start(kgKey, { trigger: "cli" });
    await service.running(kgKey);
    const job = (await service.status(kgKey)) as OnboardingJob;
    const { items } = await store.listGenerated(kgKey, { limit: 100_000, offset: 0 });
    const profile = await service.getProfile(kgKey);
    const notes = await service.getNotes(kgKey);
    return { job, ...(profile ? { profile } : {}), examples: items, ...(notes ? { notes } : {}), ms: performance.now() - started };
  } finally {
    unsubscribe?.();
    options.signal?.removeEventListener("abort", onAbort);
  }
}
