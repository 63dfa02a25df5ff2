import { describe, expect, it } from "vitest";
import oxigraph from "oxigraph";
import { fixtureStore } from "@/test/fixtures/kg/lexicon/store";
import { ENTAILED_GRAPH, materializeRdfs } from "./entailment-core.mjs";

const OR = "http://example.org/orchard#";
const ask = (store: oxigraph.Store, q: string) => store.query(`PREFIX or: <${OR}> ${q}`, { use_default_graph_as_union: true }) as boolean;

describe("RDFS entailment on load", () => {
  it("adds what sub-classes, sub-properties and inverses imply, in a graph of its own, and nothing asserted twice", () => {
    const { store } = fixtureStore("hierarchy.ttl");
    expect(ask(store, "ASK { or:OldWardenPear a or:Plant }")).toBe(false);
    const stats = materializeRdfs(store, oxigraph);
    // chains: PearTree ⊂ FruitTree ⊂ Plant
    expect(ask(store, "ASK { or:OldWardenPear a or:FruitTree , or:Plant }")).toBe(true);
    // a parent property reaches the children's values
    expect(ask(store, "ASK { or:OldWardenPear or:measurement 7.5 , 140 }")).toBe(true);
    // the inverse is stated on or:hosts, the data uses or:growsIn
    expect(ask(store, "ASK { or:EastPlot or:hosts or:OldWardenPear . or:WestPlot or:hosts or:BramleyQuince }")).toBe(true);
    // inferred triples sit in their own graph; asserted ones are not copied there
    expect(ask(store, `ASK { GRAPH <${ENTAILED_GRAPH}> { or:OldWardenPear a or:Plant } }`)).toBe(true);
    expect(ask(store, `ASK { GRAPH <${ENTAILED_GRAPH}> { or:OldWardenPear a or:PearTree } }`)).toBe(false);
    // 2 trees × (FruitTree, Plant) types, 3 measurements, 2 inverse links
    expect(stats).toMatchObject({ added: 9, byRule: { subClassOf: 4, subPropertyOf: 3, inverseOf: 2 } });
    // a second run finds nothing new
    expect(materializeRdfs(store, oxigraph).added).toBe(0);
  });

  it("does nothing on a KG without schema statements", () => {
    const { store } = fixtureStore("camel-case.ttl");
    const before = store.size;
    expect(materializeRdfs(store, oxigraph).added).toBe(0);
    expect(store.size).toBe(before);
  });
});
