// Chart geometry (pure): linear scales, "nice" axis maxima and ticks, and band layout for bars.

/** Maps [d0, d1] linearly onto [r0, r1]; a zero-width domain maps everything to r0. */
export function linearScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): (v: number) => number {
  const span = d1 - d0;
  return (v) => (span === 0 ? r0 : r0 + ((v - d0) / span) * (r1 - r0));
}

/** The smallest 1/2/2.5/5 × 10^k step that covers `max` in at most `count` steps (1 for max ≤ 0). */
export function niceStep(max: number, count = 5): number {
  if (!(max > 0) || !Number.isFinite(max)) return 1;
  const raw = max / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

/** Axis ticks from 0 to a nice maximum ≥ max (the last tick is the axis maximum). */
export function niceTicks(max: number, count = 5): number[] {
  const step = niceStep(max, count);
  const top = Math.max(step, Math.ceil(max / step - 1e-9) * step);
  const ticks: number[] = [];
  // why: rounding each tick avoids 0.30000000000000004 labels
  for (let v = 0; v <= top + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

export interface Band {
  /** left edge of band i */
  x: (i: number) => number;
  /** width of one band (bar or group) */
  width: number;
  /** distance between the left edges of two neighbouring bands */
  step: number;
}

/**
 * `n` equal bands across `[start, start + length]` with `padding` (0..1, fraction of a step) between them and half of
 * it at both ends.
 */
export function bandLayout(n: number, start: number, length: number, padding = 0.2): Band {
  const p = Math.min(Math.max(padding, 0), 0.95);
  if (n <= 0) return { x: () => start, width: 0, step: 0 };
  const step = length / n;
  const width = step * (1 - p);
  return { x: (i) => start + i * step + (step - width) / 2, width, step };
}
