import { describe, expect, it } from "vitest";
import { mapBounded } from "./map-bounded";

describe("mapBounded", () => {
  it("keeps input order and never has more than `limit` calls in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapBounded([30, 5, 20, 1, 10], 2, async (ms) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      return ms * 2;
    });
    expect(out).toEqual([60, 10, 40, 2, 20]);
    expect(peak).toBe(2);
  });

  it("returns an empty list for no items", async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });
});
