// The load report's percentiles: nearest rank, as the latency and health numbers in docs/performance.md are read.
import { describe, expect, it } from "vitest";
import { healthSummary, pct } from "./health";

describe("load percentiles", () => {
  it("takes the nearest rank, whatever the order of the samples; none gives NaN", () => {
    const ms = [50, 10, 40, 20, 30, 60, 70, 80, 90, 100];
    expect(pct(ms, 50)).toBe(50);
    expect(pct(ms, 95)).toBe(100);
    expect(pct(ms, 10)).toBe(10);
    expect(pct([], 95)).toBeNaN();
  });

  it("summarizes the health probe's samples to 0.1 ms", () => {
    expect(healthSummary([12.34, 8.06, 40.05, 9.99])).toEqual({ samples: 4, p50: 10, p95: 40.1, max: 40.1 });
  });
});
