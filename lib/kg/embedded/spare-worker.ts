// A worker thread started ahead of need: oxigraph's WASM warms up on a scratch store before anyone waits on a load.
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";

export interface WarmUpStats {
  /** ms the worker spent on its warm-up load and query (-1 when the warm-up failed; the worker still works) */
  warmUpMs: number;
}

/** A worker started ahead of need, so V8's WASM tier-up happens before anyone waits on a load. */
export interface SpareWorker {
  /** settles when the warm-up is done; rejects when the worker died first */
  readonly ready: Promise<WarmUpStats>;
  /** Hands the worker over once (undefined afterwards, or when it died or was closed). */
  take(): Worker | undefined;
  /** Stops the worker unless it was taken. */
  close(): Promise<void>;
}

/**
 * Starts the worker that holds the store (worker.mjs). `new Worker(new URL(…, import.meta.url))` stays written out in
 * one expression: that is the form Next's bundler turns into a worker bundle with worker.mjs's own imports; a URL kept in
 * a constant another module passes to `new Worker` became a lone copy of worker.mjs without them (kg_unavailable:
 * "Cannot find module … label-index-core.mjs" in production builds).
 */
export function newKgWorker(workerData: unknown = {}): Worker {
  return new Worker(new URL("./worker.mjs", import.meta.url), { workerData });
}

/** Starts a worker that warms oxigraph up on a scratch store right away (about 0.25 s of one core, measured). */
export function startSpareWorker(): SpareWorker {
  let worker: Worker | undefined = newKgWorker({ warmUp: true });
  // an idle spare must not keep a script alive
  worker.unref();
  let settle: { resolve(s: WarmUpStats): void; reject(e: Error): void } | undefined;
  const ready = new Promise<WarmUpStats>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => {});
  let taken: Worker | undefined;
  const onMessage = (m: { id?: number; warmUpMs?: number }) => {
    if (m.id !== 0) return;
    settle?.resolve({ warmUpMs: typeof m.warmUpMs === "number" ? m.warmUpMs : -1 });
    taken?.off("message", onMessage);
  };
  const onDeath = (e: unknown) => {
    worker = undefined;
    settle?.reject(new AppError("kg_unavailable", `The spare KG worker stopped: ${e instanceof Error ? e.message : `exit code ${String(e)}`}`));
  };
  worker.on("message", onMessage);
  worker.on("error", onDeath);
  worker.on("exit", onDeath);
  const detach = (w: Worker) => {
    w.off("message", onMessage);
    w.off("error", onDeath);
    w.off("exit", onDeath);
  };
  return {
    ready,
    take() {
      const w = worker;
      worker = undefined;
      if (!w) return undefined;
      // still listens for the warm-up's end, so `ready` settles even when taken early (the KG ignores id 0)
      w.off("error", onDeath);
      w.off("exit", onDeath);
      taken = w;
      return w;
    },
    async close() {
      const w = worker;
      worker = undefined;
      if (!w) return;
      detach(w);
      settle?.reject(new AppError("kg_unavailable", "The spare KG worker was closed."));
      await w.terminate();
    },
  };
}
