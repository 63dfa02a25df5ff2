// The server's liveness under load: /api/health polled while the conversations run, summarized as percentiles; and
// the wait for a freshly started server to answer it.
import type { ChildProcess } from "node:child_process";

/** The p-th percentile (nearest rank) of `values`; NaN when there are none. */
export function pct(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
export const r1 = (n: number) => Math.round(n * 10) / 10;

/** Polls /api/health every 100 ms until stopped; returns the latencies. */
export function probeHealth(base: string): { stop: () => Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        samples.push(performance.now() - t0);
      } catch {
        samples.push(10_000);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

export function healthSummary(samples: number[]) {
  return { samples: samples.length, p50: r1(pct(samples, 50)), p95: r1(pct(samples, 95)), max: r1(Math.max(...samples)) };
}

/** Resolves once the server answers /api/health; fails when its process exits or `timeoutMs` passes. */
export async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`next start exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("next start did not become healthy in time");
}
