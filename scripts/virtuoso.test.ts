// The Virtuoso CLI's argument handling: which named graph each --load file goes into.
import { describe, expect, it } from "vitest";
import { graphFor } from "./virtuoso";

describe("graphFor", () => {
  it("puts a file into urn:chatty-kg:<name> unless a graph IRI follows '='", () => {
    expect(graphFor("../shared/data/ck25/graphs/prod-inst.ttl")).toEqual({ path: "../shared/data/ck25/graphs/prod-inst.ttl", graph: "urn:chatty-kg:prod-inst" });
    expect(graphFor("dumps/labels en.nt.gz")).toEqual({ path: "dumps/labels en.nt.gz", graph: "urn:chatty-kg:labels_en" });
    expect(graphFor("kg/music.ttl=http://example.org/music")).toEqual({ path: "kg/music.ttl", graph: "http://example.org/music" });
    // an "=" that is not followed by an IRI is part of the file name
    expect(graphFor("data/a=b.ttl")).toEqual({ path: "data/a=b.ttl", graph: "urn:chatty-kg:a_b" });
  });
});
