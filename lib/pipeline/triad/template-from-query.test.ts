import { describe, expect, it } from "vitest";
import { templateFromQuery } from "./template-from-query";
import { templateTriples } from "./template-triples";

const T = "http://example.org/tunes/id/";
const V = "http://example.org/tunes/vocab#";

describe("templateFromQuery", () => {
  it("turns predicates into relation slots and other IRIs into entity slots, one per IRI, keeping rdf:type and literals", () => {
    const { template, slots } = templateFromQuery(
      `PREFIX t: <${T}> PREFIX tv: <${V}> SELECT DISTINCT ?b WHERE { ?b a tv:Band ; tv:member ?m . ?m tv:plays "drums" FILTER (?b != t:band-Brass-Meridian) }`,
    );
    expect(slots).toEqual({ e0: `${V}Band`, e1: `${T}band-Brass-Meridian`, r0: `${V}member`, r1: `${V}plays` });
    expect(template.text).toContain("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <e0>");
    expect(template.text).toContain('?m <r1> "drums"');
    expect(template.text).toContain("FILTER(?b != <e1>)");
    expect(template.text).not.toContain(T);
  });

  it("uses one slot for an IRI that appears twice, and slots predicates inside property paths and ORDER BY", () => {
    const { template, slots } = templateFromQuery(`SELECT ?l WHERE { ?a <${V}recordLabel> ?l ; <${V}offer>/<${V}price> ?p . ?b <${V}recordLabel> ?l } GROUP BY ?l ORDER BY DESC(COUNT(?a))`);
    expect(Object.values(slots)).toEqual([`${V}recordLabel`, `${V}offer`, `${V}price`]);
    expect(template.relationSlots).toEqual(["r0", "r1", "r2"]);
  });

  it("refuses what is not a query", () => {
    expect(() => templateFromQuery("DELETE WHERE { ?s ?p ?o }")).toThrow(/Not a usable SPARQL query/);
  });
});

describe("templateTriples", () => {
  it("flattens groups, NOT EXISTS, subqueries and paths (sequences chained, ^p reversed) into plain triples", () => {
    const { template } = templateFromQuery(
      `SELECT ?a WHERE { ?a <${V}performer> <${T}x> . FILTER NOT EXISTS { ?a <${V}award> ?w } { SELECT ?a WHERE { ?a <${V}offer>/<${V}price> ?p . ?q ^<${V}onAlbum> ?a } } }`,
    );
    const text = templateTriples(template.ast.where).map((t) => [t.s, t.p, t.o].map((n) => ("id" in n ? n.id : "name" in n ? `?${n.name}` : "?")).join(" "));
    expect(text).toEqual(["?a r0 e0", "?a r1 ?w", "?a r2 ?path_1", "?path_1 r3 ?p", "?a r4 ?q"]);
  });
});
