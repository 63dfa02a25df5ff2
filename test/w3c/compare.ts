// Result comparison as the W3C tests mean it: solutions as a multiset (a sequence when the expected result is ordered),
// RDF term equality, and blank nodes equal up to one consistent renaming (graphs: up to isomorphism).
import { normalTerm, type Expected, type RdfTerm, type Row } from "./results";

export type Actual =
  | { kind: "bindings"; rows: Row[] }
  | { kind: "boolean"; value: boolean }
  | { kind: "graph"; triples: [RdfTerm, RdfTerm, RdfTerm][] };

export interface Verdict {
  ok: boolean;
  why?: string;
}

const termKey = (t: RdfTerm | undefined, blank = "_") =>
  t === undefined ? "-" : t.type === "bnode" ? blank : `${t.type}|${t.value}|${t.lang ?? ""}|${t.datatype ?? ""}`;

/** What a CSV result keeps of a term: its text (a blank node stays a blank node, its label is arbitrary). */
function csvTerm(t: RdfTerm): RdfTerm {
  if (t.type === "bnode") return t;
  return { type: "literal", value: t.value };
}
function csvExpected(t: RdfTerm): RdfTerm {
  return t.value.startsWith("_:") ? { type: "bnode", value: t.value.slice(2) } : t;
}

/** Finds a pairing of actual and expected rows (in order when `ordered`) with one blank-node renaming for all. */
function match(actual: Row[], expected: Row[], vars: string[], ordered: boolean): boolean {
  if (actual.length !== expected.length) return false;
  const shape = (r: Row) => vars.map((v) => termKey(r[v])).join("\t");
  if (!ordered) {
    const count = new Map<string, number>();
    for (const r of actual) count.set(shape(r), (count.get(shape(r)) ?? 0) + 1);
    for (const r of expected) {
      const n = count.get(shape(r)) ?? 0;
      if (n === 0) return false;
      count.set(shape(r), n - 1);
    }
  }
  const hasBlank = (r: Row) => vars.some((v) => r[v]?.type === "bnode");
  if (!actual.some(hasBlank) && !expected.some(hasBlank)) {
    if (ordered) return actual.every((r, i) => shape(r) === shape(expected[i]));
    return true; // the multisets of full keys were equal above
  }
  const a2e = new Map<string, string>();
  const e2a = new Map<string, string>();
  const used = new Array<boolean>(expected.length).fill(false);
  const bind = (a: Row, e: Row): string[] | undefined => {
    const added: string[] = [];
    for (const v of vars) {
      const x = a[v];
      const y = e[v];
      if (termKey(x) !== termKey(y)) return undo(added);
      if (x?.type !== "bnode" || y?.type !== "bnode") continue;
      const mapped = a2e.get(x.value);
      if (mapped === undefined) {
        if (e2a.has(y.value)) return undo(added);
        a2e.set(x.value, y.value);
        e2a.set(y.value, x.value);
        added.push(x.value);
      } else if (mapped !== y.value) return undo(added);
    }
    return added;
  };
  const undo = (added: string[]) => {
    for (const k of added) {
      e2a.delete(a2e.get(k)!);
      a2e.delete(k);
    }
    return undefined;
  };
  const go = (i: number): boolean => {
    if (i === actual.length) return true;
    const candidates = ordered ? [i] : expected.map((_, j) => j).filter((j) => !used[j]);
    for (const j of candidates) {
      if (!ordered && shape(actual[i]) !== shape(expected[j])) continue;
      const added = bind(actual[i], expected[j]);
      if (!added) continue;
      used[j] = true;
      if (go(i + 1)) return true;
      used[j] = false;
      undo(added);
    }
    return false;
  };
  return go(0);
}

const show = (rows: Row[], limit = 6) =>
  rows
    .slice(0, limit)
    .map((r) => `{${Object.entries(r).map(([k, t]) => `${k}=${t.type === "uri" ? `<${t.value}>` : t.type === "bnode" ? `_:${t.value}` : JSON.stringify(t.value) + (t.lang ? `@${t.lang}` : t.datatype ? `^^${t.datatype.replace(/^.*#/, "xsd:")}` : "")}`).join(" ")}}`)
    .join(" ") + (rows.length > limit ? ` … (${rows.length} rows)` : "");

/**
 * `ordered`: the query sorts, so the solutions are a sequence; `lax`: mf:LaxCardinality (REDUCED), so duplicates may be
 * dropped or kept and the solutions compare as sets.
 */
export function compare(actual: Actual, expected: Expected, options: { ordered?: boolean; lax?: boolean } = {}): Verdict {
  if (expected.kind === "boolean") {
    if (actual.kind !== "boolean") return { ok: false, why: `expected a boolean, got ${actual.kind}` };
    return actual.value === expected.value ? { ok: true } : { ok: false, why: `expected ${expected.value}, got ${actual.value}` };
  }
  if (expected.kind === "graph") {
    if (actual.kind !== "graph") return { ok: false, why: `expected a graph, got ${actual.kind}` };
    const rows = (ts: [RdfTerm, RdfTerm, RdfTerm][]) => dedupe(ts.map(([s, p, o]) => ({ s: normalTerm(s), p: normalTerm(p), o: normalTerm(o) })));
    const a = rows(actual.triples);
    const e = rows(expected.triples);
    return match(a, e, ["s", "p", "o"], false) ? { ok: true } : { ok: false, why: `graphs differ: got ${show(a)}; expected ${show(e)}` };
  }
  if (actual.kind !== "bindings") return { ok: false, why: `expected solutions, got ${actual.kind}` };
  let a = actual.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, t]) => [k, normalTerm(t)])));
  let e = expected.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, t]) => [k, normalTerm(t)])));
  if (expected.csv) {
    a = a.map((r) => Object.fromEntries(Object.entries(r).map(([k, t]) => [k, csvTerm(t)])));
    e = e.map((r) => Object.fromEntries(Object.entries(r).map(([k, t]) => [k, csvExpected(t)])));
  }
  const vars = [...new Set([...a, ...e].flatMap((r) => Object.keys(r)))];
  if (options.lax) {
    a = distinct(a, vars);
    e = distinct(e, vars);
  }
  const ordered = (expected.ordered ?? false) || (options.ordered ?? false);
  return match(a, e, vars, ordered) ? { ok: true } : { ok: false, why: `solutions differ${ordered ? " (in order)" : ""}: got ${show(a)}; expected ${show(e)}` };
}

/** The rows once each (blank nodes by label: a lax comparison is of rows as written). */
function distinct(rows: Row[], vars: string[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = vars.map((v) => termKey(r[v], `_:${r[v]?.value}`)).join("\t");
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A graph is a set: the same triple twice is one (CONSTRUCT may produce duplicates). */
function dedupe(rows: Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = ["s", "p", "o"].map((v) => termKey(r[v], `_:${r[v]?.value}`)).join("\t");
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
