// One ECharts chart in a figure: a title, the chart (SVG, resized with its box, redrawn when the theme changes), PNG and
// SVG downloads, and the numbers as a table under "Show data" (closed) for screen readers and exact values. Until the
// chart is drawn the figure is one line saying so: no empty box, no export buttons.
"use client";
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { DownloadIcon, MoveIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { Button } from "@/components/ui/button";
import type { ECharts, EChartsOption, echarts as EchartsNs } from "./echarts-setup";
import { chartColors, type ChartColors } from "./theme-colors";

/**
 * How much room the chart has (a narrow one, a phone, gets shorter labels and a tighter layout) and whether the
 * person turned on zooming and moving it: off, a wheel or a finger over a map or graph scrolls the page.
 */
export interface ChartLayout {
  narrow: boolean;
  roam: boolean;
}

/** below this width (px) a chart is drawn for a phone */
const NARROW = 480;

export interface EChartProps {
  title: string;
  description?: string;
  /** the chart's option for the current theme colours and width */
  option: (colors: ChartColors, layout: ChartLayout) => EChartsOption;
  /** e.g. registering the world outline before a map is drawn */
  prepare?: (echarts: typeof EchartsNs) => Promise<void>;
  onClick?: (params: { dataType?: string; data?: unknown; name?: string }) => void;
  height?: number;
  /** the chart's numbers as a table, shown under "Show data" */
  data?: ReactNode;
  testId?: string;
  className?: string;
  /** data-* attributes on the figure (what is drawn, for tests and tools) */
  attributes?: Record<string, string | number>;
  /** the caption is shown (by default the chart draws its title itself, so it is in the PNG/SVG too) */
  showTitle?: boolean;
  /** the one line shown until the chart is drawn (no empty box, no export buttons before) */
  loading?: string;
  /** a "Zoom and move" switch (maps, graphs): the chart takes the wheel and drags only once it is on */
  roamable?: boolean;
  style?: CSSProperties;
}

function fileName(title: string): string {
  return (title.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "").slice(0, 60) || "chart").toLowerCase();
}

function download(href: string, name: string) {
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

async function svgToPng(svg: string, width: number, height: number, background: string): Promise<string> {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error("The chart could not be drawn as an image."));
      img.src = url;
    });
    const scale = 2;
    const canvas = document.createElement("canvas");
    canvas.width = width * scale;
    canvas.height = height * scale;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("No canvas to draw the chart on.");
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/png");
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Redraws when the page switches between light and dark (the theme toggle sets a class on <html>). */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setVersion((v) => v + 1));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const onMedia = () => setVersion((v) => v + 1);
    media.addEventListener("change", onMedia);
    return () => {
      observer.disconnect();
      media.removeEventListener("change", onMedia);
    };
  }, []);
  return version;
}

export function EChart({ title, description, option, prepare, onClick, height = 280, data, testId, className, attributes, showTitle = false, loading = "Drawing the chart…", style, roamable = false }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const [lib, setLib] = useState<typeof EchartsNs | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [narrow, setNarrow] = useState(false);
  const [roam, setRoam] = useState(false);
  const drawn = useRef<{ option: EChartProps["option"]; theme: number; narrow: boolean } | null>(null);
  const theme = useThemeVersion();
  const handlers = useRef({ option, onClick, prepare });
  handlers.current = { option, onClick, prepare };

  // the library (and e.g. the world outline) first: until it is there the figure is one line, not an empty box
  useEffect(() => {
    let disposed = false;
    import("./echarts-setup")
      .then(async ({ echarts }) => {
        await handlers.current.prepare?.(echarts);
        if (!disposed) setLib(echarts);
      })
      .catch((e: unknown) => {
        if (!disposed) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      disposed = true;
    };
  }, []);

  useEffect(() => {
    const el = host.current;
    if (!lib || !el) return;
    let c: ECharts;
    const isNarrow = () => el.clientWidth > 0 && el.clientWidth < NARROW;
    try {
      c = lib.init(el, undefined, { renderer: "svg" });
      c.setOption(handlers.current.option(chartColors(), { narrow: isNarrow(), roam: false }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    chart.current = c;
    c.on("click", (p) => handlers.current.onClick?.(p as { dataType?: string; data?: unknown; name?: string }));
    // a resize keeps the layout; crossing the phone width redraws with the phone's labels
    const observer = new ResizeObserver(() => {
      c.resize();
      setNarrow(isNarrow());
    });
    observer.observe(el);
    setNarrow(isNarrow());
    setReady(true);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
      setReady(false);
    };
  }, [lib]);

  // a new option, theme or width class: the same chart redrawn (notMerge: series that went away go); zooming turned
  // on or off: merged, so a graph keeps its layout
  useEffect(() => {
    const c = chart.current;
    if (!ready || !c) return;
    const last = drawn.current;
    const onlyRoam = last !== null && last.option === option && last.theme === theme && last.narrow === narrow;
    c.setOption(option(chartColors(), { narrow, roam }), { notMerge: !onlyRoam });
    drawn.current = { option, theme, narrow };
  }, [option, theme, ready, narrow, roam]);

  const exportAs = async (kind: "svg" | "png") => {
    const c = chart.current;
    if (!c) return;
    const svg = c.renderToSVGString();
    const name = fileName(title);
    if (kind === "svg") {
      const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
      download(url, `${name}.svg`);
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } else {
      try {
        download(await svgToPng(svg, c.getWidth(), c.getHeight(), chartColors().background), `${name}.png`);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    }
  };

  const dataAttributes = Object.fromEntries(Object.entries(attributes ?? {}).map(([k, v]) => [`data-${k}`, String(v)]));
  const drawing = !lib && !error;
  return (
    <figure data-testid={testId} data-ready={ready || undefined} className={cn("flex min-w-0 flex-col gap-1", className)} style={style} {...dataAttributes}>
      <div className={cn("flex flex-wrap items-start gap-2", drawing && !showTitle && !description && "sr-only")}>
        <figcaption className="min-w-0 flex-1">
          <div className={cn("text-sm font-medium", !showTitle && "sr-only")} data-testid="chart-title">
            {title}
          </div>
          {description && <div className="text-xs text-muted-foreground">{description}</div>}
        </figcaption>
        {/* exports only once there is a chart to export */}
        {ready && (
          <span className="ml-auto flex gap-1">
            {roamable && (
              <Button size="sm" variant="ghost" className="h-6 px-1.5 text-[11px]" aria-pressed={roam} onClick={() => setRoam((r) => !r)} data-testid="chart-roam" title={roam ? "The wheel and a drag move the chart; click to give them back to the page" : "Let the wheel zoom and a drag move the chart"}>
                <MoveIcon className="size-3" /> {roam ? "Zooming on" : "Zoom and move"}
              </Button>
            )}
            <Button size="sm" variant="ghost" className="h-6 px-1.5 text-[11px]" onClick={() => void exportAs("png")} data-testid="export-png" aria-label={`Download ${title} as PNG`}>
              <DownloadIcon className="size-3" /> PNG
            </Button>
            <Button size="sm" variant="ghost" className="h-6 px-1.5 text-[11px]" onClick={() => void exportAs("svg")} data-testid="export-svg" aria-label={`Download ${title} as SVG`}>
              <DownloadIcon className="size-3" /> SVG
            </Button>
          </span>
        )}
      </div>
      {drawing && (
        <p className="text-xs text-muted-foreground" role="status" data-testid="chart-loading">
          {loading}
        </p>
      )}
      {lib && !error && <div ref={host} role="img" aria-label={description ? `${title}: ${description}` : title} style={{ height }} className="w-full min-w-0" data-testid="chart-canvas" />}
      {error && <p className="text-xs text-destructive">The chart could not be drawn: {error}</p>}
      {(ready || error) && data}
    </figure>
  );
}

/** The chart's numbers as a table (a <details>, closed). */
export function ChartData({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <details className="min-w-0 flex-1 text-xs">
      <summary className="cursor-pointer text-muted-foreground select-none hover:text-foreground">Show data</summary>
      <div className="max-h-64 overflow-auto">
        <table className="mt-2 w-full border-collapse text-left" data-testid="chart-data">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={`${h}-${i}`} scope="col" className="border-b px-2 py-1 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid="chart-data-row">
                {r.map((c, j) =>
                  j === 0 ? (
                    <th key={j} scope="row" className="border-b px-2 py-1 font-normal">
                      {c}
                    </th>
                  ) : (
                    <td key={j} className="border-b px-2 py-1 tabular-nums">
                      {c}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
