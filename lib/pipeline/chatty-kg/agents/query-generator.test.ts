import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type sparqljs from "sparqljs";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { describe, expect, it } from "vitest";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { CandidateQuery, LinkedClass, LinkedLiteral, LinkedVertex, Qir, RankedPredicate } from "../state";
import { generateQueries, SELECT_LIMIT } from "./query-generator";

// Fixtures: test/fixtures/queries/<case>.json (inputs) ↔ <case>.rq (expected candidates, in order).
// Regenerate after an intended change with UPDATE_QUERY_FIXTURES=1 and review the diff.
const DIR = path.join(process.cwd(), "test/fixtures/queries");
const UPDATE = process.env.UPDATE_QUERY_FIXTURES === "1";

interface Fixture {
  question: string;
  qir: Qir;
  vertices: Record<string, LinkedVertex>;
  relationPredicates: Record<string, RankedPredicate[]>;
  queryNum: number;
  literals?: Record<string, LinkedLiteral>;
  classes?: Record<string, LinkedClass>;
  excluded?: { variable: string; iris: string[] };
  typePredicate?: string;
  error?: string;
}

function render(candidates: CandidateQuery[]): string {
  return candidates
    .map((c) => `# candidate ${c.id} ${c.kind} score=${c.score.toFixed(3)} predicates=${c.predicates.join(" ")}\n${c.sparql}\n`)
    .join("\n");
}

const cases = readdirSync(DIR).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, "")).sort();

describe("generateQueries fixtures", () => {
  it("has the required cases", () => {
    expect(cases).toEqual(expect.arrayContaining(["one-hop-out", "one-hop-in", "two-hop", "ask", "count", "truncated", "hostile-iri"]));
    // the query shapes beyond the paper (issue 10)
    expect(cases).toEqual(expect.arrayContaining(["shape-class-count", "shape-literal-value", "shape-comparisons", "shape-negation", "shape-exclusion", "shape-order-window", "shape-aggregate-group", "shape-order-by-count", "shape-aggregate-total", "shape-typed-number"]));
  });

  it.each(cases)("%s", (name) => {
    const fx = JSON.parse(readFileSync(path.join(DIR, `${name}.json`), "utf8")) as Fixture;
    const run = () => generateQueries({ qir: fx.qir, vertices: fx.vertices, relationPredicates: fx.relationPredicates, queryNum: fx.queryNum, literals: fx.literals, classes: fx.classes, excluded: fx.excluded, typePredicate: fx.typePredicate });
    if (fx.error) {
      expect(run).toThrow(fx.error);
      return;
    }
    const candidates = run();
    // every candidate is a valid read-only query
    for (const c of candidates) expect(parseReadOnly(c.sparql).kind).toBe(c.kind === "ASK" ? "ASK" : "SELECT");
    const text = render(candidates);
    const file = path.join(DIR, `${name}.rq`);
    if (UPDATE || !existsSync(file)) writeFileSync(file, text);
    expect(text).toBe(readFileSync(file, "utf8"));
  });
});

describe("generateQueries", () => {
  const fx = (name: string) => JSON.parse(readFileSync(path.join(DIR, `${name}.json`), "utf8")) as Fixture;
  const gen = (f: Fixture, extra: Partial<Parameters<typeof generateQueries>[0]> = {}) =>
    generateQueries({ qir: f.qir, vertices: f.vertices, relationPredicates: f.relationPredicates, queryNum: f.queryNum, ...extra });

  it("uses each predicate's direction: the inverse edge puts the unknown first", () => {
    const [first, second] = gen(fx("one-hop-in"));
    const parsed = parseSparql(first.sparql) as sparqljs.SelectQuery;
    const t = (parsed.where?.[0] as sparqljs.BgpPattern).triples[0];
    expect([t.subject.termType, t.object.value]).toEqual(["Variable", "http://example.org/kg/resource/Philosophers_Stone_film"]);
    expect(second.sparql).toContain("<http://example.org/kg/resource/Philosophers_Stone_film> <http://example.org/kg/ontology/starring> ?actor");
  });

  it("orders by mean predicate score and truncates to query_num", () => {
    const out = gen(fx("truncated"));
    expect(out.map((c) => c.predicates)).toEqual([["http://example.org/kg/ontology/founder"], ["http://example.org/kg/ontology/founders"]]);
    expect(out.map((c) => c.id)).toEqual([1, 2]);
  });

  it("emits COUNT and the plain SELECT side by side for count questions", () => {
    const out = gen(fx("count"));
    expect(out.map((c) => c.kind)).toEqual(["COUNT", "SELECT", "COUNT", "SELECT", "COUNT", "SELECT"]);
    expect(out[0].sparql).toMatch(/SELECT \(COUNT\(DISTINCT \?founder\) AS \?count\)/);
    expect(out[1].sparql).toContain(`LIMIT ${SELECT_LIMIT}`);
  });

  it("re-applies k per triple end", () => {
    expect(gen(fx("count"), { topPredicates: 1 }).map((c) => c.predicates[0])).toEqual([
      "http://example.org/kg/ontology/founders",
      "http://example.org/kg/ontology/founders",
    ]);
  });

  it("refuses a hostile predicate IRI and builds nothing for an unlinked entity", () => {
    const f = fx("one-hop-out");
    const bad = { ...f.relationPredicates.directed[0], iri: "http://example.org/p> ; DROP ALL ; <x" };
    expect(() => gen(f, { relationPredicates: { directed: [bad] } })).toThrow("Not a usable IRI");
    expect(gen(f, { vertices: {} })).toEqual([]);
    expect(gen(f, { relationPredicates: {} })).toEqual([]);
  });

  it("sanitises QIR variable names into SPARQL variables", () => {
    const two = gen(fx("two-hop"));
    expect(two[0].sparql).toContain("SELECT DISTINCT ?birth_place WHERE");
  });
});
