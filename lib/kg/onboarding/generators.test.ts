// The generators on fixture KGs: every shape is built from the KG's own names, executed, and kept with a small answer;
// a KG without classes still gets examples from its predicates alone; the template questions are deterministic.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { prepareInMemory, type PreparedKg } from "./prepare";
import { EXAMPLE_SHAPES } from "./types";

let kg: KnowledgeGraph;
let rivers: KnowledgeGraph;
let prepared: PreparedKg;

beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/onboarding/lighthouses.ttl"] });
  rivers = await openKg({ kind: "files", paths: ["test/fixtures/kg/onboarding/no-classes.nt"] });
  prepared = await prepareInMemory(kg);
}, 60_000);
afterAll(async () => {
  await kg?.close();
  await rivers?.close();
});

const find = (question: RegExp) => prepared.examples.find((e) => question.test(e.question));

describe("generated solved examples on a KG with classes", () => {
  it("finishes with examples of every shape, each a read-only query that answered", async () => {
    expect(prepared.job.status).toBe("done");
    const shapes = new Set(prepared.examples.map((e) => e.shape));
    for (const shape of EXAMPLE_SHAPES) expect(shapes, shape).toContain(shape);
    for (const e of prepared.examples) {
      expect(["SELECT", "ASK"]).toContain(parseReadOnly(e.sparql).kind);
      expect(e.answerSize).toBeGreaterThan(0);
    }
    // one example per structure
    expect(new Set(prepared.examples.map((e) => e.template)).size).toBe(prepared.examples.length);
  });

  it("asks in the KG's own words and answers from the KG", async () => {
    const cases: [RegExp, string[]][] = [
      [/^How many lighthouses are there\?$/, ["6"]],
      [/^Which lighthouse has the highest height metres\?$/, ["Storm Point Light"]],
      [/^How many lighthouses are there for each lamp kind\?$/, ["electric, 3", "oil, 1", "solar, 2"]],
      [/^Which lighthouses are kept by a keeper whose title is Ines Varga\?$/, ["Eel Bay Light", "Gull Rock Light"]],
      [/^Which has the higher height metres, .+ or .+\?$/, []],
      [/^Is the .+ of .+\?$/, ["yes"]],
    ];
    for (const [q, preview] of cases) {
      const e = find(q);
      expect(e, String(q)).toBeDefined();
      if (!e) continue;
      for (const p of preview) expect(e.preview).toContain(p);
      const result = await kg.query(e.sparql);
      expect(result.kind === "ASK" ? 1 : result.kind === "SELECT" ? result.results.bindings.length : 0).toBeGreaterThan(0);
    }
    // a numeric filter at a threshold of the sample (seeds.ts threshold): some lighthouses, not all of them
    const filtered = find(/^Which lighthouses have a height metres greater than \d+\?$/);
    expect(filtered?.answerSize).toBeGreaterThan(0);
    expect(filtered?.answerSize).toBeLessThan(6);
    expect(find(/^Which lighthouses are lit on a date after \d{4}-\d{2}-\d{2}\?$/)?.sparql).toMatch(/FILTER\(\?lit_on > "\d{4}-\d{2}-\d{2}"\^\^xsd:date\)/);
  });

  it("writes the same questions for the same KG (template mode is deterministic)", async () => {
    const again = await prepareInMemory(kg);
    expect(again.examples.map((e) => e.question)).toEqual(prepared.examples.map((e) => e.question));
  });

  it("derives notes that say where the names are and which classes hold the things", () => {
    expect(prepared.notes?.text).toMatch(/names in \w+:title/);
    expect(prepared.notes?.text).toMatch(/Main classes \(instances\): \w+:Lighthouse \(6\)/);
    expect(prepared.notes?.text).toMatch(/dates xsd:date e\.g\. \d{4}-\d{2}-\d{2}/);
    expect(prepared.notes?.text).toMatch(/units from predicate names: height metres: metres/i);
  });
});

describe("a KG without classes", () => {
  it("gets examples from its predicates alone: values, entities with a value, two hops, counts per group", async () => {
    const p = await prepareInMemory(rivers);
    expect(p.job.status).toBe("done");
    expect(p.profile?.classes).toEqual([]);
    const shapes = new Set(p.examples.map((e) => e.shape));
    for (const shape of ["value-of", "with-value", "two-hop", "count-per-group", "superlative", "yes-no"] as const) expect(shapes, shape).toContain(shape);
    const chain = p.examples.find((e) => e.shape === "two-hop" && /What does the thing .+ flows into lie in\?/.test(e.question));
    expect(chain?.sparql).toMatch(/flows_into \?\w+ \. \?\w+ \w+:lies_in \?\w+/);
    expect(p.examples.every((e) => !/\ba\s+\w+:\w+/.test(e.sparql.replace(/PREFIX[^\n]*\n/g, "")))).toBe(true);
  });
});
