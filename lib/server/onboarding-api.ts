// What the onboarding routes do (app/api/kg/[id]/onboarding/…), with the registry and the onboarding service passed
// in so a unit test can run them: every call first checks that the session may use the KG (another session's KG is a
// 404, as for every KG route), then asks the service. The routes only parse input and map errors.
import "server-only";
import type { UIMessageChunk } from "ai";
import {
  isJobActive,
  type ExamplesResponse,
  type NotesResponse,
  type OnboardingAction,
  type OnboardingStatusResponse,
  type OverviewResponse,
  type SuggestionsResponse,
} from "@/lib/api/onboarding";
import type { OnboardingEvent, OnboardingJob } from "@/lib/kg/onboarding/types";
import type { ExampleListOptions, OnboardingService } from "@/lib/kg/onboarding/service";
import type { KgAccess, KgRegistry } from "./kg-registry";
import { SAMPLE_KG_ID } from "./kg-registry";

export interface OnboardingApiDeps {
  registry: Pick<KgRegistry, "access">;
  onboarding: OnboardingService;
}

/** The session a job opens the KG under: none for the installation's default KG (everyone's), else the owner's. */
const ownerOf = (access: KgAccess, sessionId: string) => (access.id === SAMPLE_KG_ID ? undefined : sessionId);

export function createOnboardingApi({ registry, onboarding }: OnboardingApiDeps) {
  const status = async (kgId: string): Promise<OnboardingJob | null> => (await onboarding.status(kgId)) ?? null;

  return {
    async status(sessionId: string, kgId: string): Promise<OnboardingStatusResponse> {
      await registry.access(sessionId, kgId);
      return { kgId, job: await status(kgId) };
    },

    /** start / resume / rerun ("Prepare this KG": for an endpoint the user's word that its data changed). */
    async act(sessionId: string, kgId: string, { action = "start" }: OnboardingAction): Promise<OnboardingStatusResponse> {
      const access = await registry.access(sessionId, kgId);
      const owner = ownerOf(access, sessionId);
      let job: OnboardingJob;
      if (action === "resume") job = await onboarding.resume(kgId, { sessionId: owner });
      else if (action === "rerun" && access.kind === "endpoint") job = await onboarding.invalidate(kgId, { sessionId: owner });
      else job = await onboarding.start(kgId, { sessionId: owner, trigger: "user", force: action === "rerun" });
      return { kgId, job };
    },

    async cancel(sessionId: string, kgId: string): Promise<OnboardingStatusResponse> {
      await registry.access(sessionId, kgId);
      const job = (await onboarding.cancel(kgId)) ?? (await status(kgId));
      return { kgId, job };
    },

    async overview(sessionId: string, kgId: string): Promise<OverviewResponse> {
      const access = await registry.access(sessionId, kgId);
      const [job, profile, notes] = await Promise.all([status(kgId), onboarding.getProfile(kgId), onboarding.getNotes(kgId)]);
      return { kg: { id: access.id, name: access.name, kind: access.kind }, job, profile: profile ?? null, notes: notes ?? null };
    },

    async suggestions(sessionId: string, kgId: string, count: number): Promise<SuggestionsResponse> {
      await registry.access(sessionId, kgId);
      const job = await status(kgId);
      // a stale KG's examples were made for other data: no chips from them
      const questions = job && job.status !== "stale" ? await onboarding.suggestions(kgId, { count }) : [];
      return { kgId, job, questions };
    },

    async examples(sessionId: string, kgId: string, options: ExampleListOptions): Promise<ExamplesResponse> {
      await registry.access(sessionId, kgId);
      const { items, total } = await onboarding.listExamples(kgId, options);
      return { examples: items, total };
    },

    async deleteExample(sessionId: string, kgId: string, exampleId: string): Promise<void> {
      await registry.access(sessionId, kgId);
      await onboarding.deleteExample(kgId, exampleId);
    },

    async promoteExample(sessionId: string, kgId: string, exampleId: string) {
      await registry.access(sessionId, kgId);
      return { example: await onboarding.promoteExample(kgId, exampleId) };
    },

    async notes(sessionId: string, kgId: string): Promise<NotesResponse> {
      await registry.access(sessionId, kgId);
      return { notes: (await onboarding.getNotes(kgId)) ?? null };
    },

    async setNotes(sessionId: string, kgId: string, text: string | null): Promise<NotesResponse> {
      await registry.access(sessionId, kgId);
      return { notes: await onboarding.setNotes(kgId, text) };
    },

    /**
     * The progress stream: the job's events as `data-onboarding` parts until it ends or `signal` aborts. The service's
     * events come from this process's runner; another process's job is followed by polling its status, so the stream
     * ends either way.
     */
    async stream(sessionId: string, kgId: string, write: (part: UIMessageChunk) => void, signal: AbortSignal, pollMs = 2_000): Promise<void> {
      await registry.access(sessionId, kgId);
      const send = (event: OnboardingEvent) => write({ type: "data-onboarding", data: event });
      const first = await status(kgId);
      if (!first || !isJobActive(first)) {
        if (first) send({ type: "end", job: first });
        return;
      }
      await new Promise<void>((resolve) => {
        let lastUpdate = "";
        let lastEventAt = Date.now();
        let done = false;
        let unsubscribe = () => {};
        const finish = () => {
          if (done) return;
          done = true;
          clearInterval(timer);
          unsubscribe();
          signal.removeEventListener("abort", finish);
          resolve();
        };
        const timer = setInterval(() => {
          // this process's runner speaks for itself; the database is read when it is silent (another process's job)
          if (Date.now() - lastEventAt < pollMs) return;
          void status(kgId).then(
            (job) => {
              if (done || !job || job.updatedAt === lastUpdate) return;
              lastUpdate = job.updatedAt;
              send(isJobActive(job) ? { type: "job", job } : { type: "end", job });
              if (!isJobActive(job)) finish();
            },
            () => {},
          );
        }, pollMs);
        // the first event (a `job` snapshot) may come synchronously, before subscribe returns
        const off = onboarding.subscribe(kgId, (event) => {
          if (done) return;
          lastEventAt = Date.now();
          if (event.type === "job" || event.type === "end") lastUpdate = event.job.updatedAt;
          send(event);
          if (event.type === "end") finish();
        });
        if (done) {
          off();
          return;
        }
        unsubscribe = off;
        signal.addEventListener("abort", finish, { once: true });
        if (signal.aborted) finish();
      });
    },
  };
}

export type OnboardingApi = ReturnType<typeof createOnboardingApi>;
