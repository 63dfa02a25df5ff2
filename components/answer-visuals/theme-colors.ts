// The app's colour tokens as rgb() strings for ECharts (its SVG output takes colours as attributes, where CSS
// variables and oklch() do not work everywhere): each token is painted once on a canvas and its pixel read back.
"use client";

export interface ChartColors {
  series: string[];
  text: string;
  muted: string;
  grid: string;
  land: string;
  landBorder: string;
  /** the map's water: the card's colour with a hint of the primary */
  sea: string;
  background: string;
}

function resolve(ctx: CanvasRenderingContext2D, cssColor: string, fallback: string): string {
  if (!cssColor) return fallback;
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = fallback;
  ctx.fillStyle = cssColor;
  ctx.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
  return a === 0 ? fallback : `rgb(${r}, ${g}, ${b})`;
}

/** The current theme's colours (light or dark, as the page shows now). */
export function chartColors(): ChartColors {
  const fallback: ChartColors = { series: ["#3b5bdb", "#e8a317", "#2f9e44", "#ae3ec9", "#e03131"], text: "#1f2937", muted: "#6b7280", grid: "#e5e7eb", land: "#e6e9ee", landBorder: "#c5ccd6", sea: "#f3f6fb", background: "#ffffff" };
  if (typeof document === "undefined") return fallback;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  if (!ctx) return fallback;
  const style = getComputedStyle(document.documentElement);
  const token = (name: string, fb: string) => resolve(ctx, style.getPropertyValue(name).trim(), fb);
  return {
    series: [token("--primary", fallback.series[0]), token("--warning", fallback.series[1]), token("--success", fallback.series[2]), fallback.series[3], token("--destructive", fallback.series[4])],
    text: token("--foreground", fallback.text),
    muted: token("--muted-foreground", fallback.muted),
    grid: token("--border", fallback.grid),
    land: resolve(ctx, "color-mix(in oklch, var(--muted) 55%, var(--border))".replace(/var\((--[\w-]+)\)/g, (_, v: string) => style.getPropertyValue(v).trim()), fallback.land),
    landBorder: token("--border", fallback.landBorder),
    sea: resolve(ctx, "color-mix(in oklch, var(--primary) 7%, var(--card))".replace(/var\((--[\w-]+)\)/g, (_, v: string) => style.getPropertyValue(v).trim()), fallback.sea),
    background: token("--card", fallback.background),
  };
}
