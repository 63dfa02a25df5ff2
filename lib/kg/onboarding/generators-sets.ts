// Set questions over one table's rows, the way people ask them of tables: the values of a column shared by rows with
// one value and rows with another ("the voices shared by singers of choir A and singers of choir B"), or by rows above
// one bound and rows below another (`FILTER(?a IN (?b))` over two copies of the rows), and the values of a column except
// those of the rows with a value or above a bound (`MINUS` of two subqueries). Columns, values and bounds come from
// the class's seeds; nothing names any KG's vocabulary.
import type { Term } from "@/lib/kg/types";
import type { Candidate, GeneratorEnv, Make } from "./frames";
import { exceptQuery, varName } from "./query-builder";
import { keyColumns, shortLiteral, type Seed, type SeedScope } from "./seeds";

/** Candidates per kind and class (the example cap is shared with every other kind). */
const PER_KIND = 2;
/** A column whose sampled values repeat (distinct values / rows below this) holds categories to share or except */
const CATEGORY_SHARE = 0.9;


function quartiles(seed: Seed): [number, number] | undefined {
  const sorted = [...new Set(seed.pairs.map((p) => Number(p.o.value)).filter((n) => Number.isFinite(n)))].sort((a, b) => a - b);
  if (sorted.length < 4) return undefined;
  const lo = sorted[Math.floor(sorted.length / 4)];
  const hi = sorted[Math.floor((3 * sorted.length) / 4)];
  return lo < hi ? [lo, hi] : undefined;
}

/** Two values of `f` whose rows share a value of `g` (so "shared by both" has an answer), by the seeds. */
function sharedPair(f: Seed, g: Seed): [Term, Term] | undefined {
  const gOf = new Map(g.pairs.map((p) => [p.s, p.o.value]));
  const byG = new Map<string, Term[]>();
  for (const p of f.pairs) {
    const v = gOf.get(p.s);
    if (v === undefined || !shortLiteral(p.o)) continue;
    const list = byG.get(v) ?? [];
    if (!list.some((t) => t.value === p.o.value)) list.push(p.o);
    byG.set(v, list);
  }
  const two = [...byG.values()].find((l) => l.length >= 2);
  return two ? [two[0], two[1]] : undefined;
}

export function setCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const C = scope.cls;
  if (!C || !scope.rows) return [];
  const keys = keyColumns(seeds);
  const own = seeds.filter((s) => !keys.has(s.predicate.iri) && s.pairs.some((p) => shortLiteral(p.o)));
  // a column of a few values (a category) is what is shared or excepted; the naming column is excepted too
  const categories = own.filter((s) => s.predicate.role === "text" && s.distinctShare < CATEGORY_SHARE);
  const measures = own.filter((s) => s.predicate.role === "number");
  const named = own.filter((s) => s.predicate.iri === scope.nameBy?.iri);
  const out: Candidate[] = [];
  const typed = (x: string) => qb.typed(x, C);

  for (const g of categories) {
    const G = qb.iri(g.predicate.iri);
    // shared by rows with one value and rows with another
    for (const f of categories.filter((s) => s !== g)) {
      const pair = sharedPair(f, g);
      if (!pair) continue;
      const [v1, v2] = pair;
      const t = new Set<string>();
      const w = varName(g.predicate.name, t, "value");
      const x1 = varName(scope.name, t, "x");
      const x2 = varName(`${scope.name} other`, t, "x");
      const w2 = varName(`${g.predicate.name} other`, t, "value");
      const F = qb.iri(f.predicate.iri);
      out.push(
        make("with-value", { kind: "set-both", p: g.predicate.name, key: f.predicate.name, value: v1.value.trim(), value2: v2.value.trim() }, `SELECT DISTINCT ${w} WHERE { ${typed(x1)}${x1} ${F} ${qb.term(v1)} ; ${G} ${w} . ${typed(x2)}${x2} ${F} ${qb.term(v2)} ; ${G} ${w2} . FILTER(${w} IN (${w2})) }`, {
          mentions: [v1.value.trim(), v2.value.trim()],
        }),
      );
    }
    // shared by rows above one bound and rows below another
    for (const m of measures) {
      const q = quartiles(m);
      if (!q) continue;
      const [lo, hi] = q.map((n) => qb.number(n));
      const t = new Set<string>();
      const w = varName(g.predicate.name, t, "value");
      const x1 = varName(scope.name, t, "x");
      const n1 = varName(m.predicate.name, t, "value");
      const x2 = varName(`${scope.name} other`, t, "x");
      const n2 = varName(`${m.predicate.name} other`, t, "value");
      const w2 = varName(`${g.predicate.name} other`, t, "value");
      const M = qb.iri(m.predicate.iri);
      out.push(
        make("numeric-filter", { kind: "set-both-range", p: g.predicate.name, key: m.predicate.name, n: hi, n2: lo }, `SELECT DISTINCT ${w} WHERE { ${typed(x1)}${x1} ${M} ${n1} ; ${G} ${w} . ${typed(x2)}${x2} ${M} ${n2} ; ${G} ${w2} . FILTER(${n1} > ${hi}) FILTER(${n2} < ${lo}) FILTER(${w} IN (${w2})) }`, {
          mentions: [hi, lo],
        }),
      );
    }
  }

  // a column's values except those of the rows with a value, or above a bound
  for (const g of [...named, ...categories]) {
    const G = qb.iri(g.predicate.iri);
    const except = (kind: "set-none" | "set-none-range", frame: object, mentions: string[], rows: (x: string, t: Set<string>) => string) => {
      const t = new Set<string>();
      const w = varName(g.predicate.name, t, "value");
      const x1 = varName(scope.name, t, "x");
      const w1 = varName(`${g.predicate.name} all`, t, "value");
      const x2 = varName(`${scope.name} except`, t, "x");
      const w2 = varName(`${g.predicate.name} except`, t, "value");
      const body = exceptQuery(w, { v: w1, where: `${typed(x1)}${x1} ${G} ${w1}` }, { v: w2, where: `${typed(x2)}${x2} ${G} ${w2} . ${rows(x2, t)}` });
      out.push(make("with-value", { kind, p: g.predicate.name, ...frame }, body, { mentions }));
    };
    for (const f of categories.filter((s) => s !== g)) {
      const pick = f.pairs.find((p) => shortLiteral(p.o));
      if (!pick) continue;
      const value = pick.o.value.trim();
      except("set-none", { key: f.predicate.name, value }, [value], (x) => `${x} ${qb.iri(f.predicate.iri)} ${qb.term(pick.o)} . `);
    }
    for (const m of measures) {
      const q = quartiles(m);
      if (!q) continue;
      const hi = qb.number(q[1]);
      except("set-none-range", { key: m.predicate.name, n: hi }, [hi], (x, t) => {
        const n = varName(m.predicate.name, t, "value");
        return `${x} ${qb.iri(m.predicate.iri)} ${n} . FILTER(${n} > ${hi}) `;
      });
    }
  }
  const seen = new Map<string, number>();
  return out.filter((c) => {
    const n = (seen.get(c.frame.kind) ?? 0) + 1;
    seen.set(c.frame.kind, n);
    return n <= PER_KIND;
  });
}
