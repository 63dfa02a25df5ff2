import { describe, expect, it } from "vitest";
import { bandLayout, linearScale, niceStep, niceTicks } from "./view-model-scale";

describe("linearScale", () => {
  it("maps the domain onto the range, inverted ranges included (SVG y grows downwards)", () => {
    const y = linearScale([0, 1], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(1)).toBe(0);
    expect(y(0.25)).toBe(150);
    expect(linearScale([10, 20], [0, 100])(15)).toBe(50);
  });
  it("a zero-width domain maps to the range start instead of NaN", () => {
    expect(linearScale([0, 0], [5, 50])(0)).toBe(5);
  });
});

describe("niceStep / niceTicks", () => {
  it("rounds to 1/2/2.5/5 steps", () => {
    expect(niceStep(1, 5)).toBe(0.2);
    expect(niceStep(7, 5)).toBe(2);
    expect(niceStep(4200, 5)).toBe(1000);
    expect(niceStep(12, 5)).toBe(2.5);
  });
  it("ticks start at 0 and end at or above the maximum", () => {
    expect(niceTicks(1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(8)).toEqual([0, 2, 4, 6, 8]);
    const t = niceTicks(4321);
    expect(t[0]).toBe(0);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(4321);
    expect(t.length).toBeLessThanOrEqual(7);
  });
  it("an all-zero chart still gets an axis (0..1)", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
  });
  it("tick labels carry no floating-point noise", () => {
    for (const v of niceTicks(0.7)) expect(String(v).length).toBeLessThan(6);
  });
});

describe("bandLayout", () => {
  it("splits the length into equal steps with centred bars", () => {
    const b = bandLayout(4, 40, 400, 0.2);
    expect(b.step).toBe(100);
    expect(b.width).toBe(80);
    expect(b.x(0)).toBe(50);
    expect(b.x(3)).toBe(350);
    // the last bar ends inside the plot
    expect(b.x(3) + b.width).toBeLessThanOrEqual(440);
  });
  it("no bands: zero width", () => {
    expect(bandLayout(0, 0, 100).width).toBe(0);
  });
});
