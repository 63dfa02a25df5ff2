// The "facts behind an answer" graph: the provenance triples as nodes (entities, values) and labelled edges, the
// answer's own entities highlighted; entity nodes carry their IRI so a click opens the entity card. Pure.
import type { ProvenanceTriple } from "@/lib/api/contract";
import type { EChartsOption } from "./echarts-setup";
import type { ChartColors } from "./theme-colors";

type TermL = ProvenanceTriple["subject"];

export interface GraphData {
  nodes: { id: string; name: string; iri?: string; kind: "answer" | "entity" | "value" }[];
  edges: { source: string; target: string; label: string }[];
}

const MAX_NAME = 40;
const short = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s);
const local = (iri: string) => decodeURIComponent(iri.replace(/[#/]+$/, "").split(/[#/]/).pop() || iri);
const keyOf = (t: TermL) => `${t.type}:${t.value}${t.type === "literal" ? `@${t["xml:lang"] ?? ""}^${t.datatype ?? ""}` : ""}`;

/** Nodes and edges of the triples (each literal is its own node per subject, so values do not tangle). */
export function graphData(triples: ProvenanceTriple[], answerIris: string[]): GraphData {
  const nodes = new Map<string, GraphData["nodes"][number]>();
  const edges: GraphData["edges"] = [];
  const node = (t: TermL, owner: string): string => {
    const id = t.type === "literal" ? `${owner}|${keyOf(t)}` : keyOf(t);
    if (!nodes.has(id)) {
      const name = t.type === "uri" ? t.label || local(t.value) : t.type === "bnode" ? `_:${t.value}` : t.value;
      nodes.set(id, { id, name: short(name), ...(t.type === "uri" ? { iri: t.value } : {}), kind: t.type === "uri" ? (answerIris.includes(t.value) ? "answer" : "entity") : "value" });
    }
    return id;
  };
  for (const t of triples) {
    const s = node(t.subject, "");
    const o = node(t.object, s);
    edges.push({ source: s, target: o, label: short(t.predicate.label || local(t.predicate.value)) });
  }
  return { nodes: [...nodes.values()], edges };
}

/** The graph's box: a one-fact answer gets a small one (two nodes do not sit in a wide empty canvas). */
export function graphBox(data: GraphData): { height: number; maxWidth?: number } {
  const n = data.nodes.length;
  if (n <= 3) return { height: 170, maxWidth: 480 };
  if (n <= 6) return { height: 230, maxWidth: 640 };
  return { height: n <= 15 ? 300 : 360 };
}

/** `narrow` (a phone): names under their nodes, cut to one short line, on a tighter layout, so none runs off the edge. */
/** `roam`: the wheel zooms and a drag moves the graph (off, they scroll the page; nodes can be dragged either way). */
export function graphOption(data: GraphData, title: string, colors: ChartColors, narrow = false, roam = false): EChartsOption {
  const n = data.nodes.length;
  const fill = { answer: colors.series[0], entity: colors.series[2], value: colors.muted };
  return {
    animation: false,
    aria: { enabled: true },
    textStyle: { color: colors.text, fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    title: { text: title, left: 0, top: 0, textStyle: { fontSize: 13, fontWeight: 600, color: colors.text } },
    tooltip: { trigger: "item", confine: true, renderMode: "richText" },
    series: [
      {
        type: "graph",
        layout: "force",
        top: 30,
        roam,
        draggable: true,
        // laid out at once (no animation: nothing moves under the pointer); few nodes get long edges so labels fit
        force: narrow
          ? { repulsion: n <= 3 ? 200 : 150, edgeLength: n <= 3 ? 110 : n <= 10 ? [60, 100] : [40, 80], gravity: 0.12, layoutAnimation: false }
          : { repulsion: n <= 3 ? 300 : n <= 6 ? 400 : 260, edgeLength: n <= 3 ? 140 : n <= 10 ? [110, 160] : [70, 130], gravity: 0.08, layoutAnimation: false },
        symbolSize: (_v: unknown, p: { data: { kind: string } }) => (p.data.kind === "answer" ? 22 : p.data.kind === "entity" ? 16 : 10),
        label: narrow ? { show: true, position: "bottom", color: colors.text, fontSize: 10, width: 100, overflow: "truncate" } : { show: true, position: "right", color: colors.text, fontSize: 11 },
        edgeSymbol: ["none", "arrow"],
        edgeSymbolSize: 7,
        edgeLabel: { show: data.edges.length <= (narrow ? 8 : 24), formatter: (p: { data: { label: string } }) => p.data.label, fontSize: 11, color: colors.muted, backgroundColor: colors.background, padding: [1, 3] },
        lineStyle: { color: colors.grid, width: 1.2, curveness: 0.12 },
        itemStyle: { borderColor: colors.background, borderWidth: 1 },
        data: data.nodes.map((n) => ({ ...n, itemStyle: { color: fill[n.kind] }, cursor: n.iri ? "pointer" : "default" })),
        links: data.edges.map((e) => ({ source: e.source, target: e.target, label: e.label })),
      },
    ],
  } as EChartsOption;
}
