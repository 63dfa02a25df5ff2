// Browser-side calls of the onboarding routes, and one progress feed per KG shared by every component that shows it
// (the header's indicator, the start page's chips, the overview): one snapshot request and, while a run is active,
// one EventSource on …/onboarding/stream, however many components listen.
"use client";
import { useCallback, useSyncExternalStore } from "react";
import {
  isJobActive,
  type ExampleResponse,
  type ExamplesResponse,
  type NotesResponse,
  type OnboardingAction,
  type OnboardingEvent,
  type OnboardingJob,
  type OnboardingStatusResponse,
  type OverviewResponse,
  type SuggestionsResponse,
} from "@/lib/api/onboarding";
import { fetchJson } from "@/components/api-client";

const base = (kgId: string) => `/api/kg/${encodeURIComponent(kgId)}/onboarding`;
const jsonInit = (method: string, body: unknown): RequestInit => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

export const onboardingApi = {
  status: (kgId: string, signal?: AbortSignal) => fetchJson<OnboardingStatusResponse>(base(kgId), { signal, timeoutMs: 30_000 }),
  act: (kgId: string, action: NonNullable<OnboardingAction["action"]>) => fetchJson<OnboardingStatusResponse>(base(kgId), { ...jsonInit("POST", { action }), timeoutMs: 30_000 }),
  cancel: (kgId: string) => fetchJson<OnboardingStatusResponse>(base(kgId), { method: "DELETE", timeoutMs: 30_000 }),
  overview: (kgId: string, signal?: AbortSignal) => fetchJson<OverviewResponse>(`${base(kgId)}/overview`, { signal, timeoutMs: 60_000 }),
  suggestions: (kgId: string, n?: number, signal?: AbortSignal) =>
    fetchJson<SuggestionsResponse>(`${base(kgId)}/suggestions${n ? `?n=${n}` : ""}`, { signal, timeoutMs: 30_000 }),
  examples: (kgId: string, signal?: AbortSignal) => fetchJson<ExamplesResponse>(`${base(kgId)}/examples?limit=500`, { signal, timeoutMs: 60_000 }),
  deleteExample: (kgId: string, id: string) => fetchJson<{ ok: true }>(`${base(kgId)}/examples/${encodeURIComponent(id)}`, { method: "DELETE", timeoutMs: 30_000 }),
  promoteExample: (kgId: string, id: string) => fetchJson<ExampleResponse>(`${base(kgId)}/examples/${encodeURIComponent(id)}/promote`, { method: "POST", timeoutMs: 30_000 }),
  notes: (kgId: string, signal?: AbortSignal) => fetchJson<NotesResponse>(`${base(kgId)}/notes`, { signal, timeoutMs: 30_000 }),
  saveNotes: (kgId: string, text: string | null) => fetchJson<NotesResponse>(`${base(kgId)}/notes`, { ...jsonInit("PUT", { text }), timeoutMs: 30_000 }),
};

// ---------------------------------------------------------------------------------------------------------------
// The shared progress feed
// ---------------------------------------------------------------------------------------------------------------

export interface ProgressState {
  /** false until the first answer (then `job` null means: never prepared) */
  known: boolean;
  job: OnboardingJob | null;
  /** the running step's own words, from the last progress event */
  message?: string;
  /** the status request failed (the KG is gone, the server is down): in words */
  error: string | null;
}

/** A job as events change it: the stream sends snapshots (`job`, `end`) and small steps in between. */
export function applyEvent(state: ProgressState, event: OnboardingEvent): ProgressState {
  switch (event.type) {
    case "job":
    case "end":
      return { known: true, job: event.job, message: event.type === "end" ? undefined : state.message, error: null };
    case "progress":
      return state.job ? { ...state, job: { ...state.job, phase: event.phase, done: event.done, total: event.total }, message: event.message ?? state.message } : state;
    case "example":
      return state.job ? { ...state, job: { ...state.job, examples: state.job.examples + 1 } } : state;
    case "skipped":
      return state.job ? { ...state, job: { ...state.job, skipped: [...state.job.skipped, event.message] } } : state;
  }
}

interface Feed {
  state: ProgressState;
  listeners: Set<() => void>;
  source?: EventSource;
  loading?: AbortController;
  /** bumped by each refresh: a late snapshot answer must not overwrite a newer one */
  seq: number;
  /** a KG just added may not have its job yet: asked again after a growing pause while it has none */
  retry?: ReturnType<typeof setTimeout>;
  retries: number;
}

const feeds = new Map<string, Feed>();
const EMPTY: ProgressState = { known: false, job: null, error: null };

function feedOf(kgId: string): Feed {
  let f = feeds.get(kgId);
  if (!f) {
    f = { state: EMPTY, listeners: new Set(), seq: 0, retries: 0 };
    feeds.set(kgId, f);
  }
  return f;
}

function publish(kgId: string, state: ProgressState): void {
  const f = feedOf(kgId);
  f.state = state;
  for (const l of f.listeners) l();
  syncStream(kgId);
  scheduleRetry(kgId);
}

/** While a listened-to KG has no job (it may be starting), ask again after 2, 4, 8 … 30 s. */
function scheduleRetry(kgId: string): void {
  const f = feedOf(kgId);
  if (f.retry) clearTimeout(f.retry);
  f.retry = undefined;
  if (f.state.job) f.retries = 0;
  if (f.listeners.size === 0 || !f.state.known || f.state.job) return;
  const delay = Math.min(30_000, 2_000 * 2 ** f.retries++);
  f.retry = setTimeout(() => void refreshProgress(kgId), delay);
}

/** An EventSource while the job is active and someone listens; closed otherwise. */
function syncStream(kgId: string): void {
  const f = feedOf(kgId);
  const want = f.listeners.size > 0 && isJobActive(f.state.job);
  if (want && !f.source && typeof EventSource !== "undefined") {
    const es = new EventSource(`${base(kgId)}/stream`);
    f.source = es;
    es.onmessage = (e) => {
      if (e.data === "[DONE]") {
        closeStream(kgId);
        // the stream ended without an `end` (the server went away): ask once where the job is
        if (isJobActive(feedOf(kgId).state.job)) window.setTimeout(() => void refreshProgress(kgId), 2_000);
        return;
      }
      try {
        const part = JSON.parse(e.data) as { type?: string; data?: OnboardingEvent; errorText?: string };
        if (part.type === "data-onboarding" && part.data) publish(kgId, applyEvent(feedOf(kgId).state, part.data));
        else if (part.type === "error") publish(kgId, { ...feedOf(kgId).state, error: part.errorText ?? "The progress stream failed." });
      } catch {
        // not a part of ours
      }
    };
    // a dropped connection: EventSource would retry on its own forever; ask for a snapshot instead, which reopens the
    // stream if the job is still active
    es.onerror = () => {
      closeStream(kgId);
      window.setTimeout(() => void refreshProgress(kgId), 2_000);
    };
  } else if (!want && f.source) closeStream(kgId);
}

function closeStream(kgId: string): void {
  const f = feedOf(kgId);
  f.source?.close();
  f.source = undefined;
}

/** Asks the server where the onboarding of `kgId` is and tells every listener. */
export async function refreshProgress(kgId: string): Promise<void> {
  const f = feedOf(kgId);
  const seq = ++f.seq;
  f.loading?.abort();
  const controller = new AbortController();
  f.loading = controller;
  try {
    const { job } = await onboardingApi.status(kgId, controller.signal);
    if (seq === f.seq) publish(kgId, { known: true, job, error: null });
  } catch (e) {
    if (controller.signal.aborted || seq !== f.seq) return;
    publish(kgId, { ...f.state, error: e instanceof Error ? e.message : String(e) });
  }
}

/** The job a start / resume / cancel request answered with (the stream follows from there). */
export function setJob(kgId: string, job: OnboardingJob | null): void {
  feedOf(kgId).seq++;
  feedOf(kgId).loading?.abort();
  publish(kgId, { known: true, job, error: null });
}

function subscribe(kgId: string, listener: () => void): () => void {
  const f = feedOf(kgId);
  f.listeners.add(listener);
  if (f.listeners.size === 1) void refreshProgress(kgId);
  else syncStream(kgId);
  return () => {
    f.listeners.delete(listener);
    if (f.listeners.size === 0) {
      f.loading?.abort();
      closeStream(kgId);
      if (f.retry) clearTimeout(f.retry);
      f.retry = undefined;
      f.retries = 0;
    }
  };
}

const noop = () => () => {};

/** The onboarding of `kgId` (unknown until the first answer), live while its job is active. */
export function useOnboardingProgress(kgId: string | undefined): ProgressState {
  // one subscription per KG (a new function each render would subscribe again each render)
  const sub = useCallback((l: () => void) => (kgId ? subscribe(kgId, l) : noop()), [kgId]);
  return useSyncExternalStore(
    sub,
    () => (kgId ? feedOf(kgId).state : EMPTY),
    () => EMPTY,
  );
}
