// The QIR drawn as a small SVG graph: entity mentions (filled) and variables (dashed, the asked one ringed) as nodes,
// relations as labelled arrows. Hand-written SVG; the table beside it stays the accessible text version.
import { clip, layoutQir, QIR_LABEL_MAX, QIR_NODE, type QirNode } from "./derivation-data";
import type { Qir } from "@/lib/pipeline/chatty-kg/state";

const NODE_W = QIR_NODE.w;
const NODE_H = QIR_NODE.h;
/** how far an edge label sits from its arrow, on the side away from it (px) */
const LABEL_GAP = 12;

/** Where the line from a to b leaves a's box (so arrows end at the box edge, not its centre). */
function boxEdge(a: QirNode, b: QirNode): { x: number; y: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  if (dx === 0 && dy === 0) return { x: a.x, y: a.y };
  const sx = dx === 0 ? Infinity : NODE_W / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : NODE_H / 2 / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: a.x + dx * s, y: a.y + dy * s };
}

export function QirGraph({ qir }: { qir: Pick<Qir, "triples" | "target"> }) {
  const g = layoutQir(qir);
  if (g.nodes.length === 0) return null;
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  return (
    <figure className="overflow-x-auto" data-testid="qir-graph">
      <svg
        role="img"
        aria-label={`Question graph: ${qir.triples.map((t) => `${t.subject} ${t.relation} ${t.object}`).join("; ")}`}
        viewBox={`0 0 ${g.width} ${g.height}`}
        width={g.width}
        height={g.height}
        className="max-w-full text-[11px]"
      >
        <defs>
          <marker id="qir-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" className="fill-muted-foreground" />
          </marker>
        </defs>
        {g.edges.map((e, i) => {
          const a = byId.get(e.from);
          const b = byId.get(e.to);
          if (!a || !b || a === b) return null;
          const p = boxEdge(a, b);
          const q = boxEdge(b, a);
          // parallel edges bend away from each other
          const bend = e.lane === 0 ? 0 : (e.lane % 2 ? 1 : -1) * Math.ceil(e.lane / 2) * 22;
          const mx = (p.x + q.x) / 2;
          const my = (p.y + q.y) / 2 + bend;
          // the label goes beside the curve's middle, offset along the edge's normal (upwards, or away from the bend),
          // and is anchored on that side, so it never covers the arrow whatever the edge's direction
          const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
          let nx = -(q.y - p.y) / len;
          let ny = (q.x - p.x) / len;
          if (bend !== 0 ? Math.sign(ny) !== Math.sign(bend) : ny > 0 || (ny === 0 && nx > 0)) [nx, ny] = [-nx, -ny];
          const cx = (p.x + q.x) / 4 + mx / 2;
          const cy = (p.y + q.y) / 4 + my / 2;
          const lx = cx + nx * LABEL_GAP;
          const ly = cy + ny * LABEL_GAP + (ny > 0.3 ? 8 : ny < -0.3 ? 0 : 4);
          const anchor = Math.abs(nx) < 0.3 ? "middle" : nx > 0 ? "start" : "end";
          return (
            <g key={i} data-testid="qir-edge">
              <title>{`${e.from} — ${e.label} → ${e.to}`}</title>
              <path d={`M${p.x},${p.y} Q${mx},${my} ${q.x},${q.y}`} className="fill-none stroke-muted-foreground" strokeWidth={1.2} markerEnd="url(#qir-arrow)" />
              <text
                x={lx}
                y={ly}
                textAnchor={anchor}
                data-testid="qir-edge-label"
                className="fill-primary font-medium"
                paintOrder="stroke"
                strokeWidth={3}
                style={{ stroke: "var(--card)" }}
              >
                {clip(e.label, QIR_LABEL_MAX)}
              </text>
            </g>
          );
        })}
        {g.nodes.map((n) => (
          <g key={n.id} data-testid="qir-node" data-kind={n.kind}>
            <title>{n.kind === "variable" ? `${n.id} (unknown${n.target ? ", asked for" : ""})` : n.id}</title>
            <rect
              x={n.x - NODE_W / 2}
              y={n.y - NODE_H / 2}
              width={NODE_W}
              height={NODE_H}
              rx={n.kind === "variable" ? NODE_H / 2 : 5}
              className={n.kind === "variable" ? "fill-card stroke-muted-foreground" : "fill-primary/10 stroke-primary"}
              strokeDasharray={n.kind === "variable" ? "4 3" : undefined}
              strokeWidth={n.target ? 2.2 : 1.2}
            />
            <text x={n.x} y={n.y + 4} textAnchor="middle" className={n.kind === "variable" ? "fill-muted-foreground font-mono" : "fill-foreground"}>
              {clip(n.id, 20)}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
