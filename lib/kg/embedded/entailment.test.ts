// The embedded store's entailment option end to end: a real worker loads Turtle and TriG with `entailment: "rdfs"`.
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath } from "@/test/fixtures/kg/lexicon/store";
import { createEmbeddedKg, ENTAILED_GRAPH, type EmbeddedKg } from "./embedded-kg";

const OR = "http://example.org/orchard#";
const open: EmbeddedKg[] = [];
afterAll(async () => Promise.all(open.map((k) => k.close())));

async function kg(entailment: "none" | "rdfs", ...files: string[]) {
  const k = await createEmbeddedKg({ entailment, sources: files.map((f) => ({ path: fixturePath(f) })) });
  open.push(k);
  return k;
}

describe("an embedded KG with entailment rdfs", () => {
  it("answers through the KG's own hierarchy and inverses, and can tell an inferred triple by its graph", async () => {
    const plain = await kg("none", "hierarchy.ttl");
    const inferred = await kg("rdfs", "hierarchy.ttl");
    const plants = `PREFIX or: <${OR}> SELECT ?x WHERE { ?x a or:Plant } ORDER BY ?x`;
    expect((await plain.select(plants)).results.bindings).toEqual([]);
    expect((await inferred.select(plants)).results.bindings.map((b) => b.x.value)).toEqual([`${OR}BramleyQuince`, `${OR}OldWardenPear`]);
    expect(await inferred.ask(`PREFIX or: <${OR}> ASK { or:WestPlot or:hosts or:BramleyQuince }`)).toBe(true);
    expect(await inferred.ask(`PREFIX or: <${OR}> ASK { GRAPH <${ENTAILED_GRAPH}> { or:BramleyQuince or:measurement 4.2 } }`)).toBe(true);
    expect(inferred.info.entailment).toBe("rdfs");
    expect(plain.info.entailment).toBeUndefined();
    expect(inferred.info.triples).toBe((plain.info.triples ?? 0) + 9);
  });

  it("reports what it inferred, and loads TriG named graphs alongside Turtle (queried as their union)", async () => {
    const k = await createEmbeddedKg({ entailment: "rdfs" });
    open.push(k);
    const stats = await k.load([{ path: fixturePath("named-graphs.trig") }, { path: fixturePath("hierarchy.ttl") }]);
    expect(stats.entailed).toMatchObject({ added: 9, byRule: { subClassOf: 4, subPropertyOf: 3, inverseOf: 2 } });
    const q = "SELECT ?n WHERE { ?h <http://example.org/apiary/keptBy> ?k . ?k <http://example.org/apiary/callName> ?n } ORDER BY ?n";
    expect((await k.select(q)).results.bindings.map((b) => b.n.value)).toEqual(["Ilse Moravec", "Wren Haldane", "Wren Haldane"]);
  });
});
