import { describe, expect, it } from "vitest";
import type { LinkedClass } from "../state";
import { twoHopChains } from "./path-fit";

const crane: LinkedClass = { variable: "?c", mention: "cranes", iri: "http://example.org/harbour/Crane", label: "Crane", how: "exact", subclasses: false };
const vertexOf = (t: string) => (t === "North Quay" ? "http://example.org/harbour/Depot7" : undefined);
const isVar = (t: string) => t.startsWith("?");

describe("twoHopChains", () => {
  it("finds ?x r1 ?m, ?m r2 V with ?x of a linked class, in either direction", () => {
    const chains = twoHopChains(
      [
        { subject: "?c", relation: "runs on", object: "?m" },
        { subject: "North Quay", relation: "holds", object: "?m" },
      ],
      vertexOf,
      isVar,
      { "?c": crane },
    );
    expect(chains).toEqual([{ vertexTriple: 1, classTriple: 0, vertex: "http://example.org/harbour/Depot7", cls: crane }]);
  });

  it("finds none when the middle is used elsewhere, has a class of its own, or the far end has no class", () => {
    const chain = [
      { subject: "?c", relation: "runs on", object: "?m" },
      { subject: "?m", relation: "at", object: "North Quay" },
    ];
    expect(twoHopChains([...chain, { subject: "?m", relation: "painted", object: "?colour" }], vertexOf, isVar, { "?c": crane })).toEqual([]);
    expect(twoHopChains(chain, vertexOf, isVar, { "?c": crane, "?m": { ...crane, variable: "?m" } })).toEqual([]);
    expect(twoHopChains(chain, vertexOf, isVar, {})).toEqual([]);
  });
});
