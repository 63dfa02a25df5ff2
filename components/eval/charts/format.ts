// How chart values print (a name, not a function, so server and client components can pass it as a prop).
import { formatMs, formatScore } from "@/lib/eval/view-model";

export type ValueFormat = "score" | "ms" | "count";

export function formatValue(v: number | null | undefined, format: ValueFormat): string {
  if (v === null || v === undefined) return "—";
  if (format === "score") return formatScore(v);
  if (format === "ms") return formatMs(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** Shorter tick labels: 2000 ms -> "2 s". */
export function formatTick(v: number, format: ValueFormat): string {
  if (format === "ms") return v >= 1000 ? `${Number((v / 1000).toFixed(1))} s` : `${v} ms`;
  if (format === "score") return String(Number(v.toFixed(2)));
  return String(v);
}
