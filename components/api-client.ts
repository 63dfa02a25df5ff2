// Browser-side calls to the JSON API routes: one fetch wrapper with a timeout and the contract's error shape.
import type { ApiError, EntityResponse, EntitySearchResponse, KgListResponse, ProvenanceResponse, SparqlResponse } from "@/lib/api/contract";

export class ApiRequestError extends Error {
  constructor(readonly error: ApiError, readonly status: number) {
    super(error.message);
  }
}

export async function fetchJson<T>(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<T> {
  const { timeoutMs = 60_000, signal, ...rest } = init;
  const timeout = AbortSignal.timeout(timeoutMs);
  const res = await fetch(url, { ...rest, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const err = (body as { error?: ApiError } | null)?.error;
    throw new ApiRequestError(err ?? { code: `http_${res.status}`, message: text.slice(0, 300) || res.statusText }, res.status);
  }
  return body as T;
}

export const api = {
  kgs: (signal?: AbortSignal) => fetchJson<KgListResponse>("/api/kg", { signal, timeoutMs: 30_000 }),
  sparql: (kgId: string, query: string, signal?: AbortSignal) =>
    fetchJson<SparqlResponse>("/api/sparql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kgId, query }),
      signal,
      timeoutMs: 120_000,
    }),
  sql: (kgId: string, query: string, signal?: AbortSignal) =>
    fetchJson<SparqlResponse>("/api/sql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kgId, query }),
      signal,
      timeoutMs: 300_000,
    }),
  entity: (kgId: string, iri: string, signal?: AbortSignal) =>
    fetchJson<EntityResponse>(`/api/entity?${new URLSearchParams({ kgId, iri })}`, { signal, timeoutMs: 60_000 }),
  entitySearch: (kgId: string, q: string, signal?: AbortSignal) =>
    fetchJson<EntitySearchResponse>(`/api/entity/search?${new URLSearchParams({ kgId, q })}`, { signal, timeoutMs: 30_000 }),
  /** the KG triples (or cited evidence) behind item `index` of attempt `attempt` of a turn (index absent: a yes) */
  provenance: (turnId: string, attempt: number, index: number | undefined, signal?: AbortSignal) =>
    fetchJson<ProvenanceResponse>(
      `/api/turns/${encodeURIComponent(turnId)}/provenance?${new URLSearchParams({ attempt: String(attempt), ...(index === undefined ? {} : { index: String(index) }) })}`,
      { signal, timeoutMs: 60_000 },
    ),
};
