import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "@/lib/kg/profile";
import type { Bindings } from "@/lib/kg/types";
import { classifyPredicate, discoverNamePredicates, valueStats } from "./discover";

const rowsOf = (values: string[], opts: { datatype?: string; perSubject?: number } = {}) =>
  values.map((value, i) => ({ s: `http://example.org/s${Math.floor(i / (opts.perSubject ?? 1))}`, value, ...(opts.datatype ? { datatype: opts.datatype } : {}) }));
const P = (local: string) => `http://example.org/v#${local}`;

describe("which predicates name their subjects", () => {
  it("takes a predicate whose local name says 'name' even when names repeat a little", () => {
    expect(classifyPredicate(P("callName"), valueStats(rowsOf(["Ash", "Birch", "Ash", "Cedar"])))).toBe("name");
  });

  it("needs a large sample of near-unique short texts for a predicate that does not say so", () => {
    const ten = ["Oslo", "Lima", "Quito", "Accra", "Hanoi", "Dakar", "Minsk", "Sucre", "Riga", "Male"];
    // ten subjects, ten places: an attribute that varies, not a name
    expect(classifyPredicate(P("basedIn"), valueStats(rowsOf(ten)))).toBeUndefined();
    const many = Array.from({ length: 40 }, (_, i) => `Lantern ${String.fromCharCode(65 + (i % 26))}${i}`);
    expect(classifyPredicate(P("moniker2"), valueStats(rowsOf(many)))).toBe("name");
  });

  it("refuses prose, categories, numbers in text and many values per subject; takes codes as ids", () => {
    expect(classifyPredicate(P("summary"), valueStats(rowsOf(["Short.", "Also short."])))).toBeUndefined();
    expect(classifyPredicate(P("colourName"), valueStats(rowsOf(Array(30).fill("red"))))).toBeUndefined();
    expect(classifyPredicate(P("latitude"), valueStats(rowsOf(Array.from({ length: 30 }, (_, i) => `4${i}.51`))))).toBeUndefined();
    expect(classifyPredicate(P("tagName"), valueStats(rowsOf(["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"].map((x) => `tag ${x}`), { perSubject: 8 })))).toBeUndefined();
    expect(classifyPredicate(P("serial"), valueStats(rowsOf(["XB-1001", "XB-1002", "XB-1003"])))).toBe("id");
    expect(classifyPredicate(P("count"), valueStats(rowsOf(["12", "13"], { datatype: "http://www.w3.org/2001/XMLSchema#integer" })))).toBeUndefined();
  });

  it("rejects a name-looking attribute of things that have names already", async () => {
    const cities = Array.from({ length: 30 }, (_, i) => ({ s: { type: "uri", value: `http://example.org/s${i}` }, o: { type: "literal", value: `Town ${String.fromCharCode(65 + (i % 26))}${i}` } }));
    const select = async (purpose: string, q: string): Promise<Bindings[]> => {
      if (purpose === "lexicon: literal-valued predicates") return [{ p: { type: "uri", value: P("locality") }, n: { type: "literal", value: "30" } }];
      if (purpose.startsWith("lexicon: values of")) return cities as Bindings[];
      // every subject already has an rdfs:label
      if (purpose.startsWith("lexicon: do the subjects")) return [...q.matchAll(/<(http:\/\/example\.org\/s\d+)>/g)].map((m) => ({ s: { type: "uri", value: m[1] } }));
      return [];
    };
    const found = await discoverNamePredicates(select, DEFAULT_PROFILE);
    expect(found.map((p) => p.predicate)).not.toContain(P("locality"));
  });
});
