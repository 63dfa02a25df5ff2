// The data shape as the model reads it: prefixes, label-like predicates, the class hierarchy, each class's properties
// with value types and examples, the other predicates; details dropped level by level to fit a token budget.
import { compactIri, NS } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";
import { showTerm } from "@/lib/pipeline/common/prefixes";
import { estimateTokens, LANG_STRING, META_NAMESPACES, RDF_TYPE, SUBCLASS, type KgShape, type ShapeTarget } from "./shape-types";

function targetText(t: ShapeTarget, show: (v: string) => string): string {
  if (t.kind === "class" && t.iri) return show(t.iri);
  if (t.kind === "iri") return "IRI";
  if (t.kind === "bnode") return "blank node";
  if (t.iri === LANG_STRING) return "text@lang";
  if (!t.iri || t.iri === `${NS.xsd}string`) return "string";
  return show(t.iri);
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Renders the shape; when it exceeds `maxTokens`, drops examples, then rare properties, then the last classes. */
export function renderShape(
  shape: Omit<KgShape, "text" | "tokens" | "buildMs">,
  supersOf: Map<string, string[]>,
  meta: { iri: string; count: number }[],
  maxTokens: number,
): Rendered {
  for (const level of [0, 1, 2, 3]) {
    for (let keep = shape.classes.length; keep >= 1; keep = keep > 8 ? Math.floor(keep * 0.8) : keep - 1) {
      const rendered = renderAt(shape, supersOf, meta, level, keep);
      if (estimateTokens(rendered.text) <= maxTokens || (level === 3 && keep === 1)) return rendered;
      if (level < 3) break; // first try dropping details at full breadth
    }
  }
  return renderAt(shape, supersOf, meta, 3, 1);
}

function renderAt(
  shape: Omit<KgShape, "text" | "tokens" | "buildMs">,
  supersOf: Map<string, string[]>,
  meta: { iri: string; count: number }[],
  level: number,
  keepClasses: number,
): Rendered {
  const used = new Set<string>();
  const shown = new Set<string>();
  const show = (value: string) => {
    shown.add(value);
    const c = compactIri(value, shape.prefixes);
    if (!c.startsWith("<")) used.add(c.slice(0, c.indexOf(":")));
    return c;
  };
  const term = (t: Term) => {
    if (t.type === "uri") shown.add(t.value);
    const s = showTerm(t, shape.prefixes);
    const m = /^([A-Za-z][\w.-]*):|\^\^([A-Za-z][\w.-]*):/.exec(s);
    if (m) used.add(m[1] ?? m[2]);
    return s;
  };
  const lines: string[] = [];
  const counts = shape.sampled ? " (counts from a sample: lower bounds)" : "";
  lines.push(`Label-like predicates (their values name things): ${shape.labelLike.map(show).join(", ")}`);
  const edges = [...supersOf.entries()].flatMap(([c, sups]) => sups.filter((s) => !META_NAMESPACES.some((ns) => s.startsWith(ns))).map((s) => `${show(c)} ⊂ ${show(s)}`));
  if (edges.length) lines.push(`Class hierarchy (${show(SUBCLASS)}): ${edges.slice(0, 60).join("; ")}`);
  if (shape.abstractClasses.length) lines.push(`Classes without direct instances: ${shape.abstractClasses.map((c) => `${show(c.iri)}${c.label ? ` "${c.label}"` : ""}`).join(", ")}`);
  if (meta.length) lines.push(`Schema-level types: ${meta.slice(0, 12).map((m) => `${show(m.iri)} (${m.count})`).join(", ")}`);
  lines.push("", `Classes with their instances' properties${counts}. "out" p: T = the instances have p with values T (share of instances, ×values each), "in" p ← C = instances of C point here with p:`);
  const classes = shape.classes.slice(0, keepClasses);
  for (const c of classes) {
    lines.push(`${show(c.iri)}${c.label ? ` "${c.label}"` : ""} — ${c.count} instances`);
    // membership is what the heading says; the type predicate itself is in the hierarchy line
    const props = (level >= 2 ? c.out.filter((p) => p.coverage >= 0.05 || c.out.length <= 8) : c.out).filter((p) => p.predicate !== RDF_TYPE);
    for (const p of props) {
      const targets = p.targets.filter((t, i, all) => all.findIndex((x) => x.kind === t.kind && x.iri === t.iri) === i).slice(0, 3);
      const many = p.perSubject > 1.1 ? ` ×${p.perSubject.toFixed(1)}` : "";
      const showExamples = level === 0 || (level === 1 && targets.some((t) => t.kind !== "class"));
      const ex = showExamples && p.examples.length ? ` e.g. ${p.examples.map(term).join(" | ")}` : "";
      lines.push(`  out ${show(p.predicate)}: ${targets.map((t) => targetText(t, show)).join(" | ")} (${pct(p.coverage)}${many})${ex}`);
    }
    const incoming = [...new Set(c.in.map(([p, from]) => `${show(p)} ← ${show(from)}`))];
    if (incoming.length && level < 3) lines.push(`  in ${incoming.slice(0, 12).join("; ")}`);
  }
  if (shape.classes.length > keepClasses) lines.push(`(${shape.classes.length - keepClasses} smaller classes left out: search_schema finds them)`);
  if (shape.otherPredicates.length) {
    lines.push("", "Other predicates (count; example):");
    for (const o of shape.otherPredicates) {
      const ex = o.example && level < 2 ? ` e.g. ${term(o.example[0])} ${show(o.predicate)} ${term(o.example[1])}` : "";
      lines.push(`- ${show(o.predicate)} (${o.count})${ex}`);
    }
  }
  const prefixLines = [...used].filter((n) => shape.prefixes[n] !== undefined).sort().map((n) => `PREFIX ${n}: <${shape.prefixes[n]}>`);
  return { text: [...prefixLines, "", ...lines].join("\n"), shown };
}

export interface Rendered {
  text: string;
  /** IRIs the text names */
  shown: Set<string>;
}
