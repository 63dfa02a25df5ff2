// Where jobs and their results are kept: the app database in the app (lib/db/onboarding-queries.ts), a map in tests.
// The runner writes through this interface only, so a restart (or another process) finds what a job finished.
import type { Frame } from "./frames";
import type { ExampleShape, GeneratedExample, KgOnboardingProfile, OnboardingJob } from "./types";

export interface StoredJob extends OnboardingJob {
  sessionId?: string;
  profile?: KgOnboardingProfile;
}

/** A generated example as stored: what the overview shows, plus what the model verbalizer needs. */
export interface StoredExample extends GeneratedExample {
  frame: Frame;
  mentions: string[];
}

export type NewExample = Omit<StoredExample, "id" | "createdAt" | "kgKey" | "status">;

export interface OnboardingStore {
  getJob(kgKey: string): Promise<StoredJob | undefined>;
  /** Creates or replaces the KG's job row; `profile: null` clears a stored profile, undefined keeps it. */
  saveJob(job: Omit<StoredJob, "profile">, profile?: KgOnboardingProfile | null): Promise<void>;
  /** Replaces the KG's generated examples (promoted ones stay, and a new one with a promoted one's template is dropped). */
  replaceGenerated(kgKey: string, examples: NewExample[]): Promise<number>;
  updateQuestions(kgKey: string, updates: { id: string; question: string; verbalizer: "llm" | "template" }[]): Promise<void>;
  listGenerated(kgKey: string, options: { status?: GeneratedExample["status"]; shape?: ExampleShape; limit: number; offset: number }): Promise<{ items: StoredExample[]; total: number }>;
  /** Removes the KG's generated examples that were not promoted. */
  clearGenerated(kgKey: string): Promise<number>;
  deleteExample(kgKey: string, id: string): Promise<boolean>;
  promoteExample(kgKey: string, id: string): Promise<StoredExample | undefined>;
  getNotes(kgKey: string): Promise<{ derived: string; text: string | null; updatedAt: Date } | undefined>;
  saveNotes(kgKey: string, notes: { derived?: string; text?: string | null }): Promise<{ derived: string; text: string | null; updatedAt: Date }>;
}

/** An in-memory store (tests; a run without a database). */
export function createMemoryStore(now: () => Date = () => new Date()): OnboardingStore & { jobs: Map<string, StoredJob>; examples: Map<string, StoredExample[]> } {
  const jobs = new Map<string, StoredJob>();
  const examples = new Map<string, StoredExample[]>();
  const notes = new Map<string, { derived: string; text: string | null; updatedAt: Date }>();
  let seq = 0;
  const list = (k: string) => examples.get(k) ?? [];
  return {
    jobs,
    examples,
    async getJob(k) {
      const j = jobs.get(k);
      return j ? structuredClone(j) : undefined;
    },
    async saveJob(job, profile) {
      const prev = jobs.get(job.kgKey);
      const kept = profile === null ? undefined : (profile ?? prev?.profile);
      jobs.set(job.kgKey, structuredClone({ ...job, ...(kept ? { profile: kept } : {}) }));
    },
    async replaceGenerated(k, items) {
      const promoted = list(k).filter((e) => e.status === "promoted");
      const taken = new Set(promoted.map((e) => e.template));
      const fresh = items.filter((e) => !taken.has(e.template)).map((e): StoredExample => ({ ...e, id: `g${++seq}`, kgKey: k, status: "generated", createdAt: now().toISOString() }));
      examples.set(k, [...promoted, ...fresh]);
      return fresh.length;
    },
    async updateQuestions(k, updates) {
      const byId = new Map(updates.map((u) => [u.id, u]));
      for (const e of list(k)) {
        const u = byId.get(e.id);
        if (u && e.status === "generated") Object.assign(e, { question: u.question, verbalizer: u.verbalizer });
      }
    },
    async listGenerated(k, o) {
      const all = list(k).filter((e) => (!o.status || e.status === o.status) && (!o.shape || e.shape === o.shape));
      return { items: all.slice(o.offset, o.offset + o.limit).map((e) => structuredClone(e)), total: all.length };
    },
    async clearGenerated(k) {
      const before = list(k).length;
      examples.set(k, list(k).filter((e) => e.status === "promoted"));
      return before - list(k).length;
    },
    async deleteExample(k, id) {
      const before = list(k).length;
      examples.set(k, list(k).filter((e) => e.id !== id));
      return list(k).length < before;
    },
    async promoteExample(k, id) {
      const e = list(k).find((x) => x.id === id);
      if (!e) return undefined;
      e.status = "promoted";
      return structuredClone(e);
    },
    async getNotes(k) {
      return notes.get(k);
    },
    async saveNotes(k, n) {
      const prev = notes.get(k) ?? { derived: "", text: null, updatedAt: now() };
      const next = { derived: n.derived ?? prev.derived, text: n.text === undefined ? prev.text : n.text, updatedAt: now() };
      notes.set(k, next);
      return next;
    },
  };
}
