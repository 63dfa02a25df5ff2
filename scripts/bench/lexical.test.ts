// The lexical bench's reading of a gold query: the predicates it uses, in triple patterns, paths and nested groups.
import { describe, expect, it } from "vitest";
import { queryPredicates } from "./lexical";

describe("lexical bench", () => {
  it("collects predicate IRIs of triples, property paths, OPTIONAL/UNION/FILTER EXISTS groups; not variables", () => {
    const q = `PREFIX ex: <http://ex.org/>
      SELECT ?x WHERE {
        ?x ex:p1 ?y . ?y ex:p2/ex:p3 ?z .
        OPTIONAL { ?x ex:p4 ?w } { ?x ex:p5 ?v } UNION { ?x ?any ?u }
        FILTER EXISTS { ?x ^ex:p6 ?t }
      }`;
    expect([...queryPredicates(q)].sort()).toEqual(["http://ex.org/p1", "http://ex.org/p2", "http://ex.org/p3", "http://ex.org/p4", "http://ex.org/p5", "http://ex.org/p6"]);
  });
});
