import { describe, expect, it } from "vitest";
import { queryTemplate } from "./template";

const P = "PREFIX ex: <http://example.org/orchard#> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";

describe("query templates", () => {
  it("replaces individuals and literals by typed placeholders and keeps classes and predicates", () => {
    expect(queryTemplate(`${P} SELECT ?h WHERE { ex:tree7 ex:heightMetres ?h }`)).toBe("SELECT ?v0 WHERE {<IRI> <http://example.org/orchard#heightMetres> ?v0}");
    expect(queryTemplate(`${P} SELECT ?t WHERE { ?t a ex:PearTree ; ex:variety "Conference" ; ex:planted ?d FILTER(?d > "2001-01-01"^^xsd:date) }`)).toBe(
      'SELECT ?v0 WHERE {?v0 <http://example.org/orchard#planted> ?v1 . ?v0 <http://example.org/orchard#variety> STR . ?v0 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/orchard#PearTree> FILTER >(?v1, DATE)}',
    );
  });

  it("gives equal templates to the same question written differently", () => {
    const a = queryTemplate(`${P} SELECT DISTINCT ?name WHERE { ?x a ex:Plot . ?x ex:name ?name . ?x ex:soil ?s . FILTER(?s = ex:Clay) }`);
    const b = queryTemplate(`${P} SELECT ?n WHERE { ?p ex:soil ex:Loam . ?p a ex:Plot . ?p ex:name ?n . ?p ex:name ?n }`);
    expect(a).toBe(b);
    const c1 = queryTemplate(`${P} SELECT (COUNT(*) AS ?c) WHERE { ?x a ex:Plot }`);
    const c2 = queryTemplate(`${P} SELECT (COUNT(DISTINCT ?p) AS ?count) WHERE { ?p a ex:Plot }`);
    expect(c1).toBe(c2);
  });

  it("keeps what changes the question: the class, the predicate, the direction, the order and a superlative's LIMIT 1", () => {
    const base = queryTemplate(`${P} SELECT ?x WHERE { ?x a ex:Plot ; ex:area ?a } ORDER BY DESC(?a) LIMIT 1`);
    expect(queryTemplate(`${P} SELECT ?x WHERE { ?x a ex:Plot ; ex:area ?a } ORDER BY ASC(?a) LIMIT 1`)).not.toBe(base);
    expect(queryTemplate(`${P} SELECT ?x WHERE { ?x a ex:Plot ; ex:area ?a } ORDER BY DESC(?a) LIMIT 3`)).not.toBe(base);
    expect(queryTemplate(`${P} SELECT ?x WHERE { ?x a ex:Tree ; ex:area ?a } ORDER BY DESC(?a) LIMIT 1`)).not.toBe(base);
    expect(queryTemplate(`${P} SELECT ?x WHERE { ex:a ex:hosts ?x }`)).not.toBe(queryTemplate(`${P} SELECT ?x WHERE { ?x ex:hosts ex:a }`));
    // a projected variable compared to a value is not folded (it is the answer)
    expect(queryTemplate(`${P} SELECT ?s WHERE { ?x ex:soil ?s FILTER(?s = ex:Clay) }`)).toContain("FILTER");
  });

  it("is undefined for text that does not parse", () => {
    expect(queryTemplate("SELECT WHERE {")).toBeUndefined();
  });
});
