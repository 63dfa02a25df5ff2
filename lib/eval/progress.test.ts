import { describe, expect, it } from "vitest";
import { formatProgress } from "./progress";

describe("formatProgress", () => {
  it("shows the bar, done/total, elapsed time and an ETA from this process's pace", () => {
    expect(formatProgress({ done: 5, total: 10, ranNow: 5, elapsedMs: 50_000 }, 10)).toBe("[#####-----] 5/10 50s ETA 50s");
    // resumed questions do not speed up the ETA: 8 done but only 2 ran now, at 30 s each
    expect(formatProgress({ done: 8, total: 10, ranNow: 2, elapsedMs: 60_000 }, 10)).toBe("[########--] 8/10 1m00s ETA 1m00s");
    expect(formatProgress({ done: 10, total: 10, ranNow: 10, elapsedMs: 3_725_000 }, 10)).toBe("[##########] 10/10 1h02m");
  });
});
