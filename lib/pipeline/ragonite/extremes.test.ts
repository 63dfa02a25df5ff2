// Extreme-value passages: per class and per categorical group, the members with the lowest and highest value of each
// numeric or date predicate, with their single-valued links; value nodes (a price node's amount) count as numbers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KgSpec } from "@/lib/kg/open-kg";
import type { Term } from "@/lib/kg/types";
import { extremePassages, type ExtremePassage } from "./extremes";
import { indexFacts } from "./kg-facts";
import { readAllTriples, type Triple } from "./kg-triples";

const EX = "http://example.org/x/";
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const LABEL = "http://www.w3.org/2000/01/rdf-schema#label";
const iri = (v: string): Term => ({ type: "uri", value: EX + v });
const lit = (v: string, datatype?: string): Term => ({ type: "literal", value: v, ...(datatype ? { datatype } : {}) });
const t = (s: string, p: string, o: Term): Triple => ({ s: iri(s), p: p.startsWith("http") ? p : EX + p, o });

function passagesOf(triples: Triple[]): ExtremePassage[] {
  return extremePassages(indexFacts(triples, { typePredicates: [RDF_TYPE], labelPredicates: [LABEL], language: "en" }));
}

describe("extreme-value passages", () => {
  // six gadgets (no labels for classes and kinds: their local names are used) in two kinds, a mass literal, a cost node with an amount, a maker each
  const triples: Triple[] = [];
  const gadgets: [string, string, number, number, string][] = [
    ["g1", "kindA", 5, 10, "m1"],
    ["g2", "kindA", 9, 30, "m2"],
    ["g3", "kindA", 2, 20, "m1"],
    ["g4", "kindB", 7, 15, "m2"],
    ["g5", "kindB", 1, 40, "m1"],
    ["g6", "kindB", 4, 25, "m2"],
  ];
  for (const [g, kind, mass, cost, maker] of gadgets) {
    triples.push(
      t(g, RDF_TYPE, iri("Gadget")),
      t(g, LABEL, lit(`Gadget ${g}`)),
      t(g, "kind", iri(kind)),
      t(g, "mass", lit(String(mass), "http://www.w3.org/2001/XMLSchema#integer")),
      t(g, "cost", iri(`cost-${g}`)),
      t(`cost-${g}`, "amount", lit(String(cost))),
      t(`cost-${g}`, "currency", lit("EUR")),
      t(g, "maker", iri(maker)),
      t(g, "serial", lit(`S-${g}`)),
    );
  }
  // a second mass for g6 makes its mass ambiguous: not ranked
  triples.push(t("g6", "mass", lit("99", "http://www.w3.org/2001/XMLSchema#integer")));
  const passages = passagesOf(triples);
  const find = (label: string) => passages.find((p) => p.label === label);

  it("names the lowest and highest member of the class and of each categorical group, with its links", () => {
    const all = find("lowest and highest mass among all gadget");
    expect(all?.text).toContain("Gadget g5 has the lowest mass (1); it has kind kind b, maker m1");
    expect(all?.text).toContain("Gadget g2 has the highest mass (9)");
    expect(all?.text).not.toContain("99");
    const kindB = find("lowest and highest mass among gadget with kind kind b");
    expect(kindB?.text).toMatch(/g5 has the lowest mass \(1\).*g4 has the highest mass \(7\)/);
    expect(kindB?.subject).toBe(`${EX}kindB`);
    // the facts stated: the value and the links of each named member
    expect(kindB?.facts.map((f) => f.o)).toEqual(expect.arrayContaining([iri("m1"), iri("kindB")]));
    // a serial number is no category (one member each)
    expect(passages.some((p) => p.label.includes("serial"))).toBe(false);
  });

  it("ranks by a value node's number and names it by both predicates", () => {
    const cost = find("lowest and highest cost amount among all gadget");
    expect(cost?.text).toContain("Gadget g1 has the lowest cost amount (10)");
    expect(cost?.text).toContain("Gadget g5 has the highest cost amount (40)");
  });
});

const music: KgSpec = {
  kind: "files",
  paths: [path.resolve("kg/music.ttl")],
  profile: JSON.parse(readFileSync(path.resolve("kg/music.profile.json"), "utf8")) as Record<string, unknown>,
} as KgSpec;

describe.each([
  ["sample KG", { kind: "sample" } as KgSpec, "runtime (minutes) among all film", "The Lord of the Rings: The Fellowship of the Ring has the highest runtime (minutes) (178)"],
  ["music KG", music, "capacity among all venue", "Blue Crane Arena has the highest capacity (9000)"],
])("extreme-value passages of the %s", (_name, spec, title, sentence) => {
  it("state the class's extremes", async () => {
    const kg = await openKg(spec);
    try {
      const passages = extremePassages(indexFacts(await readAllTriples(kg), kg.profile));
      expect(passages.find((p) => p.label.endsWith(title))?.text).toContain(sentence);
    } finally {
      await kg.close();
    }
  }, 60_000);
});
