// The onboarding service: one background job per KG, in phases (profile → examples → questions → notes), each
// phase's result written to the store before the next starts, so a cancelled, failed or interrupted job resumes at
// its first unfinished phase. Bounded (per-query timeout, candidate budget, job time), read-only (every query goes
// through the KG's read-only guard), cancellable; turns never wait for it — they read what the store holds.
import { AppError, toAppError } from "@/lib/errors";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createOnboardingContext } from "./context";
import { generateExamples } from "./examples";
import { ALIVE_QUERY, createKgWatch, type KgWatch } from "./kg-watch";
import { deriveNotes } from "./notes";
import { buildOnboardingProfile, lexiconOrEmpty } from "./profile";
import type { OnboardingService, StartOptions } from "./service";
import type { NewExample, OnboardingStore, StoredJob } from "./store";
import { pickSuggestions } from "./suggestions";
import { DEFAULT_ONBOARDING_LIMITS, JOB_PHASES, type JobPhase, type KgNotes, type OnboardingEvent, type OnboardingJob, type OnboardingLimits } from "./types";
import { verbalize } from "./verbalize";

export interface OnboardingDeps {
  store: OnboardingStore;
  /** Opens the KG a key names (the caller checked access); the job closes nothing: the KG stays open for turns. */
  open(kgKey: string, sessionId: string | undefined): Promise<KnowledgeGraph>;
  /** What identifies the KG's content: a hash of its files, or the endpoint URL (endpoints change without telling). */
  contentHash(kgKey: string, sessionId: string | undefined): Promise<string>;
  /** The model that writes the questions, or undefined for the template questions. */
  llm?: () => LlmGateway | undefined;
  limits?: Partial<OnboardingLimits>;
  now?: () => Date;
  /** a running job untouched this long belongs to a process that is gone */
  staleAfterMs?: number;
}

const SAVE_EVERY_MS = 1000;

const iso = (d: Date) => d.toISOString();

/** The job as the contract shows it (no session, no profile). */
function publicJob(j: StoredJob): OnboardingJob {
  const { sessionId: _s, profile: _p, ...job } = j;
  return job;
}

export function createOnboardingService(deps: OnboardingDeps): OnboardingService & { running(kgKey: string): Promise<void> | undefined } {
  const limits: OnboardingLimits = { ...DEFAULT_ONBOARDING_LIMITS, ...deps.limits };
  const now = deps.now ?? (() => new Date());
  const staleAfter = deps.staleAfterMs ?? 60_000;
  const { store } = deps;
  const active = new Map<string, { controller: AbortController; done: Promise<void>; reason?: "cancelled" | "stale" }>();
  const listeners = new Map<string, Set<(e: OnboardingEvent) => void>>();

  const emit = (kgKey: string, e: OnboardingEvent) => {
    for (const l of listeners.get(kgKey) ?? []) {
      try {
        l(e);
      } catch {
        // a listener's failure is its own (a closed stream)
      }
    }
  };

  /** The stored job, with a running job of a process that is gone shown as interrupted. */
  async function current(kgKey: string): Promise<StoredJob | undefined> {
    const j = await store.getJob(kgKey);
    if (!j) return undefined;
    if ((j.status === "running" || j.status === "queued") && !active.has(kgKey) && now().getTime() - Date.parse(j.updatedAt) > staleAfter) {
      return { ...j, status: "cancelled", error: { code: "interrupted", message: "The job stopped when the server stopped; resume it to continue." } };
    }
    return j;
  }

  function fresh(kgKey: string, name: string, hash: string, options: StartOptions): StoredJob {
    const at = iso(now());
    return {
      id: `job-${now().getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      kgKey,
      kgName: name,
      status: "queued",
      phase: "profile",
      done: 0,
      total: 0,
      finishedPhases: [],
      trigger: options.trigger,
      contentHash: hash,
      queries: 0,
      candidates: 0,
      examples: 0,
      skipped: [],
      startedAt: at,
      updatedAt: at,
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    };
  }

  async function run(job: StoredJob, controller: AbortController): Promise<void> {
    const kgKey = job.kgKey;
    let lastSave = 0;
    const save = async (force = false, profile?: StoredJob["profile"] | null) => {
      job.updatedAt = iso(now());
      if (!force && Date.now() - lastSave < SAVE_EVERY_MS) return;
      lastSave = Date.now();
      const { profile: _p, ...row } = job;
      await store.saveJob(row, profile);
    };
    const started = Date.now();
    const deadline = started + limits.jobTimeMs;
    const baseQueries = job.queries;
    let queriesRun = () => 0;
    let watch: KgWatch | undefined;
    try {
      const kg = await deps.open(kgKey, job.sessionId);
      job.kgName = kg.info.name;
      // a KG that stops answering ends the job (kg-watch.ts says how a dead KG is told from a slow one)
      watch = createKgWatch({
        probe: () => kg.query(ALIVE_QUERY, { signal: controller.signal, timeoutMs: limits.queryTimeoutMs }),
        probeTimeoutMs: limits.queryTimeoutMs,
        wallClock: kg.info.kind !== "embedded",
        signal: controller.signal,
        onDead: () => controller.abort(),
      });
      // the profile's builds (lexicon, schema, data shape) are what turns build too, with bounded but larger queries
      const profileCtx = watch.watch(createOnboardingContext(kg, { signal: controller.signal, queryTimeoutMs: Math.max(limits.queryTimeoutMs, limits.profileQueryTimeoutMs ?? 0) }));
      const octx = watch.watch(createOnboardingContext(kg, { signal: controller.signal, queryTimeoutMs: limits.queryTimeoutMs }));
      queriesRun = () => profileCtx.queries() + octx.queries();
      let checked = false;
      const progress = (phase: JobPhase) => (done: number, total: number, message: string) => {
        job.done = done;
        job.total = total;
        job.queries = baseQueries + queriesRun();
        emit(kgKey, { type: "progress", phase, done, total, message });
        void save().catch(() => undefined);
      };
      let profile = job.profile;
      for (const phase of JOB_PHASES) {
        if (job.finishedPhases.includes(phase)) continue;
        if (controller.signal.aborted) throw new AppError("aborted", "cancelled");
        Object.assign(job, { phase, status: "running", done: 0, total: 0 });
        await save(true);
        emit(kgKey, { type: "job", job: publicJob(job) });
        if (!checked) {
          // running (not "queued") while the first query waits: the UI says the KG is being read
          await watch.check();
          checked = true;
        }
        if (phase === "profile") {
          const built = await buildOnboardingProfile(profileCtx, { kgKey, kgName: kg.info.name }, limits, progress(phase));
          profile = built.profile;
          job.skipped = [...new Set([...job.skipped, ...built.profile.skipped])];
          job.profile = profile;
          await save(true, profile);
        } else if (phase === "examples") {
          if (!profile) throw new AppError("internal", "The profile is missing: prepare the KG again.");
          const { lexicon } = await lexiconOrEmpty(profileCtx);
          const out = await generateExamples(octx, profile, lexicon, limits, { deadline, now: () => Date.now(), report: progress(phase) });
          const items: NewExample[] = out.kept.map((k) => ({
            question: "",
            sparql: k.candidate.sparql,
            shape: k.candidate.shape,
            template: k.template,
            answerSize: k.answerSize,
            preview: k.preview,
            verbalizer: "template",
            frame: k.candidate.frame,
            mentions: k.candidate.mentions,
          }));
          // template questions first: a turn can use the examples while a model rewrites them
          const questions = await verbalize(out.kept.map((k) => k.candidate), { kgName: kg.info.name });
          items.forEach((it, i) => (it.question = questions[i].question));
          job.examples = await store.replaceGenerated(kgKey, items);
          job.candidates += out.ran;
          for (const s of out.skipped) emit(kgKey, { type: "skipped", message: s });
          job.skipped = [...new Set([...job.skipped, ...out.skipped])];
          // turns read it: a KG whose every candidate ran gets no examples made per question (aimed.ts)
          if (out.exhausted !== Boolean(profile.candidatesExhausted)) {
            profile = { ...profile, candidatesExhausted: out.exhausted };
            job.profile = profile;
            await save(true, profile);
          }
        } else if (phase === "questions") {
          const llm = deps.llm?.();
          if (llm) {
            const { items } = await store.listGenerated(kgKey, { status: "generated", limit: limits.maxExamples, offset: 0 });
            const written = await verbalize(
              items.map((e) => ({ shape: e.shape, frame: e.frame, sparql: e.sparql, run: e.sparql, mentions: e.mentions })),
              { llm, kgName: kg.info.name, signal: controller.signal, onBatch: (done) => progress(phase)(done, items.length, "writing questions") },
            );
            await store.updateQuestions(kgKey, items.map((e, i) => ({ id: e.id, question: written[i].question, verbalizer: written[i].verbalizer })));
          }
        } else if (phase === "notes") {
          if (profile) await store.saveNotes(kgKey, { derived: deriveNotes(profile) });
        }
        job.finishedPhases = [...job.finishedPhases, phase];
        job.queries = baseQueries + queriesRun();
        await save(true);
      }
      Object.assign(job, { status: "done", finishedAt: iso(now()) });
      delete job.error;
    } catch (e) {
      const err = watch?.dead() ?? toAppError(e);
      const reason = active.get(kgKey)?.reason;
      if (!watch?.dead() && (err.code === "aborted" || controller.signal.aborted)) {
        job.status = reason === "stale" ? "stale" : "cancelled";
      } else {
        job.status = "failed";
        const what = err.code === "kg_timeout" ? "The KG did not answer in time" : err.code.startsWith("kg_") ? "The KG refused or failed a query" : "Onboarding failed";
        job.error = { code: err.code, message: `${what}: ${err.message}` };
      }
      job.finishedAt = iso(now());
      job.queries = baseQueries + queriesRun();
    } finally {
      await save(true).catch(() => undefined);
      emit(kgKey, { type: "end", job: publicJob(job) });
    }
  }

  function launch(job: StoredJob): void {
    const controller = new AbortController();
    const entry: { controller: AbortController; done: Promise<void>; reason?: "cancelled" | "stale" } = { controller, done: Promise.resolve() };
    active.set(job.kgKey, entry);
    entry.done = run(job, controller).finally(() => {
      if (active.get(job.kgKey) === entry) active.delete(job.kgKey);
    });
  }

  async function startJob(kgKey: string, options: StartOptions, mode: "start" | "resume"): Promise<OnboardingJob> {
    const running = active.get(kgKey);
    const prev = await current(kgKey);
    if (running && prev) return publicJob(prev);
    // running in another server process (its updates are recent; current() shows a silent one as interrupted)
    if (prev && (prev.status === "running" || prev.status === "queued") && !options.force) return publicJob(prev);
    const hash = await deps.contentHash(kgKey, options.sessionId);
    const sessionId = options.sessionId ?? prev?.sessionId;
    if (prev && prev.contentHash !== hash) {
      // the KG changed: what was made for the old content must not be used
      await store.saveJob({ ...publicJob(prev), ...(prev.sessionId ? { sessionId: prev.sessionId } : {}), status: "stale", updatedAt: iso(now()) }, null);
      await store.clearGenerated(kgKey);
    } else if (prev && !options.force) {
      if (prev.status === "done" && mode === "start") return publicJob(prev);
      if (prev.status !== "done" && prev.status !== "stale") {
        const resumed: StoredJob = { ...prev, status: "queued", updatedAt: iso(now()), ...(sessionId ? { sessionId } : {}) };
        delete resumed.error;
        delete resumed.finishedAt;
        await store.saveJob(publicJob(resumed), undefined);
        launch(resumed);
        return publicJob(resumed);
      }
    }
    if (mode === "resume" && !prev) throw new AppError("not_found", "This KG has no onboarding job to resume.");
    const job = fresh(kgKey, prev?.kgName ?? kgKey, hash, { ...options, ...(sessionId ? { sessionId } : {}) });
    await store.saveJob(publicJob(job), null);
    if (sessionId) job.sessionId = sessionId;
    launch(job);
    return publicJob(job);
  }

  return {
    running: (kgKey) => active.get(kgKey)?.done,

    start: (kgKey, options) => startJob(kgKey, options, "start"),

    resume: (kgKey, options = {}) => startJob(kgKey, { trigger: "user", ...options }, "resume"),

    async cancel(kgKey) {
      const a = active.get(kgKey);
      if (a) {
        a.reason ??= "cancelled";
        a.controller.abort();
        await a.done;
      }
      const j = await current(kgKey);
      return j ? publicJob(j) : undefined;
    },

    async status(kgKey) {
      const j = await current(kgKey);
      return j ? publicJob(j) : undefined;
    },

    subscribe(kgKey, listener) {
      const set = listeners.get(kgKey) ?? new Set();
      set.add(listener);
      listeners.set(kgKey, set);
      void current(kgKey).then((j) => j && set.has(listener) && listener({ type: "job", job: publicJob(j) }));
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(kgKey);
      };
    },

    async invalidate(kgKey, options) {
      const a = active.get(kgKey);
      if (a) {
        a.reason = "stale";
        a.controller.abort();
        await a.done;
      }
      const prev = await store.getJob(kgKey);
      if (prev) await store.saveJob({ ...publicJob(prev), ...(prev.sessionId ? { sessionId: prev.sessionId } : {}), status: "stale", updatedAt: iso(now()) }, null);
      await store.clearGenerated(kgKey);
      return startJob(kgKey, { trigger: "user", force: true, ...(options.sessionId ? { sessionId: options.sessionId } : {}) }, "start");
    },

    async getProfile(kgKey) {
      const j = await store.getJob(kgKey);
      return j && j.status !== "stale" ? j.profile : undefined;
    },

    async listExamples(kgKey, options = {}) {
      const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
      const { items, total } = await store.listGenerated(kgKey, { limit, offset: Math.max(0, options.offset ?? 0), ...(options.status ? { status: options.status } : {}), ...(options.shape ? { shape: options.shape } : {}) });
      return { items: items.map(({ frame: _f, mentions: _m, ...e }) => e), total };
    },

    async deleteExample(kgKey, id) {
      if (!(await store.deleteExample(kgKey, id))) throw new AppError("not_found", "No such generated example for this KG.");
    },

    async promoteExample(kgKey, id) {
      const e = await store.promoteExample(kgKey, id);
      if (!e) throw new AppError("not_found", "No such generated example for this KG.");
      const { frame: _f, mentions: _m, ...out } = e;
      return out;
    },

    async getNotes(kgKey) {
      const n = await store.getNotes(kgKey);
      return n ? notesOf(kgKey, n) : undefined;
    },

    async setNotes(kgKey, text) {
      const n = await store.saveNotes(kgKey, { text: text?.trim() ? text.trim() : null });
      return notesOf(kgKey, n);
    },

    async suggestions(kgKey, options = {}) {
      const j = await store.getJob(kgKey);
      if (!j || j.status === "stale") return [];
      const { items } = await store.listGenerated(kgKey, { limit: 500, offset: 0 });
      return pickSuggestions(items, options.count ?? 5);
    },
  };
}

function notesOf(kgKey: string, n: { derived: string; text: string | null; updatedAt: Date }): KgNotes {
  return { kgKey, text: n.text ?? n.derived, derived: n.derived, edited: n.text !== null, updatedAt: n.updatedAt.toISOString() };
}
