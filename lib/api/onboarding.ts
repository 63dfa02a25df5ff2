// The onboarding routes of a KG (app/api/kg/[id]/onboarding/…): start / resume / re-run / cancel, the progress stream,
// the overview (the KG's profile), suggested questions, notes and the generated examples. The payloads are the
// onboarding contract's own types (lib/kg/onboarding/types.ts); this file holds the request schemas and envelopes.
// Shared by the server and the browser: it imports nothing server-only.
import { z } from "zod";
import {
  EXAMPLE_SHAPES,
  JOB_PHASES,
  NOTES_MAX_CHARS,
  type GeneratedExample,
  type KgNotes,
  type KgOnboardingProfile,
  type OnboardingEvent,
  type OnboardingJob,
  type Suggestion,
} from "@/lib/kg/onboarding/types";

export type { GeneratedExample, KgNotes, KgOnboardingProfile, OnboardingEvent, OnboardingJob, Suggestion };

export const isJobActive = (job: OnboardingJob | null | undefined): boolean => job?.status === "queued" || job?.status === "running";

/**
 * How far a job is, 0..1: finished phases plus the share done of the running one (phases weigh the same; the examples
 * phase, the long one, reports done/total as it goes).
 */
export function jobFraction(job: OnboardingJob): number {
  if (job.status === "done") return 1;
  const finished = job.finishedPhases.length;
  const within = job.total > 0 && !job.finishedPhases.includes(job.phase) ? Math.min(1, job.done / job.total) : 0;
  return Math.min(1, (finished + within) / JOB_PHASES.length);
}

// ---------------------------------------------------------------------------------------------------------------
// GET …/onboarding → OnboardingStatusResponse; POST …/onboarding (body below) → 202 OnboardingStatusResponse;
// DELETE …/onboarding → cancel, OnboardingStatusResponse.
// GET …/onboarding/stream → SSE (AI SDK UI message stream, as the turns): `data-onboarding` parts carrying
// OnboardingEvents (the first is a `job` snapshot), until the job ends (`end`) or the client goes away; then [DONE].
// ---------------------------------------------------------------------------------------------------------------

export interface OnboardingStatusResponse {
  kgId: string;
  /** the KG's latest job; null when it was never prepared */
  job: OnboardingJob | null;
}

/**
 * start: prepare the KG unless it is prepared for its current content (the default); resume: continue a stopped job
 * from its first unfinished phase; rerun ("Prepare this KG"): prepare again from scratch — for an endpoint this is the
 * user saying its data changed (its results are marked stale), for files a forced run.
 */
export const onboardingActionSchema = z
  .object({ action: z.enum(["start", "resume", "rerun"]).default("start") })
  .strict();
export type OnboardingAction = z.input<typeof onboardingActionSchema>;

// ---------------------------------------------------------------------------------------------------------------
// GET …/onboarding/overview
// ---------------------------------------------------------------------------------------------------------------

export interface OverviewResponse {
  kg: { id: string; name: string; kind: string };
  job: OnboardingJob | null;
  /** null until the profile phase has finished once */
  profile: KgOnboardingProfile | null;
  notes: KgNotes | null;
}

// ---------------------------------------------------------------------------------------------------------------
// GET …/onboarding/examples?limit=&offset=&shape=&status=; DELETE …/examples/[exampleId]; POST …/examples/[exampleId]/promote
// ---------------------------------------------------------------------------------------------------------------

export const examplesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  shape: z.enum(EXAMPLE_SHAPES).optional(),
  status: z.enum(["generated", "promoted"]).optional(),
});

export interface ExamplesResponse {
  examples: GeneratedExample[];
  total: number;
}

export interface ExampleResponse {
  example: GeneratedExample;
}

// ---------------------------------------------------------------------------------------------------------------
// GET …/onboarding/suggestions?n= — the start page's chips
// ---------------------------------------------------------------------------------------------------------------

export const SUGGESTIONS_DEFAULT = 5;
export const suggestionsQuerySchema = z.object({ n: z.coerce.number().int().min(4).max(6).optional() });

export interface SuggestionsResponse {
  kgId: string;
  job: OnboardingJob | null;
  /** empty until the KG's examples exist; never another KG's */
  questions: Suggestion[];
}

// ---------------------------------------------------------------------------------------------------------------
// GET / PUT …/onboarding/notes
// ---------------------------------------------------------------------------------------------------------------

export { NOTES_MAX_CHARS };
/** `text: null` goes back to the notes derived from the profile. */
export const notesRequestSchema = z
  .object({
    text: z
      .string()
      .trim()
      .max(NOTES_MAX_CHARS, `The notes are too long: at most ${NOTES_MAX_CHARS.toLocaleString("en")} characters.`)
      .nullable(),
  })
  .strict();
export type NotesRequest = z.input<typeof notesRequestSchema>;

export interface NotesResponse {
  notes: KgNotes | null;
}
