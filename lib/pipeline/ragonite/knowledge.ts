// What RAGONITE answers from, per KG: the induced database and the passage index over verbalized facts. Built on first
// use (progress reported), cached per KG object, rebuilt when the KG's content changes (its triple count or id moved);
// a failed or cancelled build is not cached.
import path from "node:path";
import { AppError } from "@/lib/errors";
import type { Similarity } from "@/lib/embeddings/types";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { induceDatabase, type InducedDatabase, type InductionProgress } from "./induction";
import { buildPassageIndex, type PassageIndex } from "./passage-index";
import { expansionFor } from "./query-expansion";
import { verbalize } from "./verbalize";

export interface RagoniteKnowledge extends InducedDatabase {
  passages: PassageIndex;
  passagesMs: number;
}

export interface KnowledgeProgress {
  message: string;
  done?: number;
  total?: number;
}

export interface KnowledgeCache {
  /** The KG's knowledge, building it (and reporting progress) when missing or stale; `cached` says it was ready. */
  get(kg: KnowledgeGraph, opts: { similarity?: Similarity; signal?: AbortSignal; onProgress?: (p: KnowledgeProgress) => void }): Promise<{ knowledge: RagoniteKnowledge; cached: boolean }>;
  /** Closes every database (process shutdown, tests). */
  close(): void;
}

export interface KnowledgeCacheOptions {
  /** folder for the induced database files (default .data/ragonite under the working directory) */
  dir?: string;
  /** per page of triples read */
  readTimeoutMs?: number;
}

interface Entry {
  fingerprint: string;
  building: Promise<RagoniteKnowledge>;
}

/** What tells a KG's content changed without reading it: its id and triple count (a reload changes the count). */
function fingerprint(kg: KnowledgeGraph): string {
  return `${kg.info.id}\u0000${kg.info.triples ?? "?"}`;
}

export function createKnowledgeCache(options: KnowledgeCacheOptions = {}): KnowledgeCache {
  const dir = options.dir ?? path.join(process.cwd(), ".data", "ragonite");
  const entries = new WeakMap<KnowledgeGraph, Entry>();
  const open = new Set<RagoniteKnowledge>();

  async function build(kg: KnowledgeGraph, opts: Parameters<KnowledgeCache["get"]>[1]): Promise<RagoniteKnowledge> {
    const report = opts.onProgress ?? (() => {});
    const induced = await induceDatabase(kg, {
      dir,
      signal: opts.signal,
      read: { timeoutMs: options.readTimeoutMs ?? 300_000 },
      onProgress: (p: InductionProgress) => report({ message: p.message }),
    });
    try {
      const t0 = performance.now();
      const passages = verbalize(induced.facts);
      report({ message: `verbalized ${passages.length} passages` });
      const index = await buildPassageIndex(passages, {
        ...expansionFor(induced.facts),
        similarity: opts.similarity,
        signal: opts.signal,
        onProgress: (done, total) => report({ message: `embedded ${done} of ${total} passages`, done, total }),
      });
      const knowledge = { ...induced, passages: index, passagesMs: performance.now() - t0 };
      open.add(knowledge);
      return knowledge;
    } catch (e) {
      induced.db.close();
      throw e;
    }
  }

  return {
    async get(kg, opts) {
      const fp = fingerprint(kg);
      const existing = entries.get(kg);
      if (existing && existing.fingerprint === fp) {
        try {
          return { knowledge: await existing.building, cached: true };
        } catch (e) {
          // another turn's build failed or was cancelled: build it here (unless this turn is cancelled too)
          if (opts.signal?.aborted) throw e;
        }
      }
      if (existing) {
        // stale (the KG changed) or failed: close what it opened once it settles
        existing.building.then((k) => (open.delete(k), k.db.close())).catch(() => {});
      }
      const building = build(kg, opts);
      const entry = { fingerprint: fp, building };
      entries.set(kg, entry);
      try {
        return { knowledge: await building, cached: false };
      } catch (e) {
        if (entries.get(kg) === entry) entries.delete(kg);
        if (opts.signal?.aborted) throw new AppError("aborted", "Preparing the database was cancelled.");
        throw e;
      }
    },
    close() {
      for (const k of open) k.db.close();
      open.clear();
    },
  };
}
