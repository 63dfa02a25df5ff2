// The workbench's calls to the server, cached per KG in the browser: the vocabulary once, a class's predicates and an
// IRI's hover facts once each, entity searches by text (the last few). Every call has a timeout and may be cancelled,
// and a failed one is not kept, so the next keystroke asks again.
import type { CheckResponse, ClassPredicatesResponse, EntitySearchResponse, FormatResponse, HoverResponse, VocabularyResponse } from "@/lib/api/contract";
import { api, fetchJson } from "@/components/api-client";

const LIMIT = 200;

class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.set(key, v);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

const cache = new Lru<Promise<unknown>>(LIMIT);

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const p = load();
  cache.set(key, p);
  p.catch(() => cache.delete(key));
  return p;
}

const post = <T>(url: string, kgId: string, query: string, signal?: AbortSignal, timeoutMs = 15_000) =>
  fetchJson<T>(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ kgId, query }), signal, timeoutMs });

export const assist = {
  /** not tied to the caller's signal: the answer is shared by every later completion */
  vocabulary: (kgId: string) => cached(`v ${kgId}`, () => fetchJson<VocabularyResponse>(`/api/sparql/vocabulary?${new URLSearchParams({ kgId })}`, { timeoutMs: 60_000 })),
  classPredicates: (kgId: string, cls: string) =>
    cached(`c ${kgId} ${cls}`, () => fetchJson<ClassPredicatesResponse>(`/api/sparql/vocabulary?${new URLSearchParams({ kgId, class: cls })}`, { timeoutMs: 30_000 })),
  hover: (kgId: string, iri: string) => cached(`h ${kgId} ${iri}`, () => fetchJson<HoverResponse>(`/api/sparql/hover?${new URLSearchParams({ kgId, iri })}`, { timeoutMs: 20_000 })),
  entities: (kgId: string, text: string) => cached(`e ${kgId} ${text.toLowerCase()}`, () => api.entitySearch(kgId, text)) as Promise<EntitySearchResponse>,
  check: (kgId: string, query: string, signal?: AbortSignal) => post<CheckResponse>("/api/sparql/check", kgId, query, signal),
  format: (kgId: string, query: string, signal?: AbortSignal) => post<FormatResponse>("/api/sparql/format", kgId, query, signal),
};

/** Prefix name → namespace, and the compact form of an IRI with them (`<iri>` when none fits). */
export function compact(iri: string, prefixes: Record<string, string>): { text: string; prefix?: string } {
  let best: [string, string] | undefined;
  for (const [name, ns] of Object.entries(prefixes)) if (ns && iri.startsWith(ns) && (!best || ns.length > best[1].length)) best = [name, ns];
  if (best) {
    const local = iri.slice(best[1].length);
    if (/^[\p{L}\p{N}_]([\p{L}\p{N}_.-]*[\p{L}\p{N}_-])?$|^$/u.test(local)) return { text: `${best[0]}:${local}`, prefix: best[0] };
  }
  return { text: `<${iri}>` };
}
