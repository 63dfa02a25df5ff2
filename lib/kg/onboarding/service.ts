// The onboarding service's contract: what the API routes (kgui), the MCP server, the turn runner and
// `npm run onboard` call. One instance per server process (getServices().onboarding in lib/server/services.ts); jobs
// and their results live in the app database, so any process and a restart see them. Access control is the caller's:
// check `registry.access(sessionId, kgId)` before passing a KG key.
import type { ExampleShape, ExampleStatus, GeneratedExample, KgNotes, KgOnboardingProfile, OnboardingEvent, OnboardingJob, Suggestion } from "./types";

export interface StartOptions {
  /** the session that may open the KG (uploads and endpoints belong to one); undefined for the default KG */
  sessionId?: string;
  /** what started it (shown in the overview) */
  trigger: OnboardingJob["trigger"];
  /** run again even when a finished job for the same content exists (the previous generated examples are replaced; promoted ones stay) */
  force?: boolean;
}

export interface ExampleListOptions {
  status?: ExampleStatus;
  shape?: ExampleShape;
  /** default 50, at most 500 */
  limit?: number;
  offset?: number;
}

export interface OnboardingService {
  /**
   * Starts (or returns the running) job of a KG in the background and returns at once. A finished job for the same
   * content is returned as it is unless `force`; a job whose content hash no longer matches is marked stale and a new
   * one starts. Never blocks chatting: turns use whatever is ready.
   */
  start(kgKey: string, options: StartOptions): Promise<OnboardingJob>;

  /** Stops the KG's running job after its current query; what it finished stays (status cancelled, resumable). */
  cancel(kgKey: string): Promise<OnboardingJob | undefined>;

  /** Continues a cancelled, failed or interrupted (server restart) job from its first unfinished phase. */
  resume(kgKey: string, options?: Pick<StartOptions, "sessionId">): Promise<OnboardingJob>;

  /** The KG's latest job, or undefined when it was never prepared. */
  status(kgKey: string): Promise<OnboardingJob | undefined>;

  /**
   * Progress of the KG's job as it happens: first a `job` event with the current state, then progress, example and
   * skipped events, and `end`. Returns the unsubscribe function. Events come from this process's runner; a client of
   * another process sees the `job` snapshots by polling `status`.
   */
  subscribe(kgKey: string, listener: (event: OnboardingEvent) => void): () => void;

  /**
   * The user says the KG changed (endpoints have no content hash): the current results are marked stale (not used by
   * turns any more, generated examples removed, promoted ones and edited notes kept) and a new job starts.
   */
  invalidate(kgKey: string, options: Pick<StartOptions, "sessionId">): Promise<OnboardingJob>;

  /** The KG's profile (classes, predicates, names, id shapes, own schema), once the profile phase finished. */
  getProfile(kgKey: string): Promise<KgOnboardingProfile | undefined>;

  /** Generated (and promoted) examples of a KG, newest first, and how many there are in all. */
  listExamples(kgKey: string, options?: ExampleListOptions): Promise<{ items: GeneratedExample[]; total: number }>;

  /** Deletes one generated or promoted example (not_found when it is not one of this KG's). */
  deleteExample(kgKey: string, id: string): Promise<void>;

  /** Marks an example promoted (a thumbs-up): it survives re-runs (and a new run's example of the same template yields to it). */
  promoteExample(kgKey: string, id: string): Promise<GeneratedExample>;

  /** The notes the strategies' prompts get, once the notes phase finished (or the user wrote some). */
  getNotes(kgKey: string): Promise<KgNotes | undefined>;

  /** The user's notes text; null goes back to the derived notes. */
  setNotes(kgKey: string, text: string | null): Promise<KgNotes>;

  /**
   * 4–6 suggested questions for the start page: generated examples of varied shapes, short, with small answers
   * (deterministic for the same pool; empty until examples exist).
   */
  suggestions(kgKey: string, options?: { count?: number }): Promise<Suggestion[]>;
}
