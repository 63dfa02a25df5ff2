import { describe, expect, it } from "vitest";
import type { KnowledgeGraph, SelectResult } from "@/lib/kg/types";
import { readAllTriples } from "./kg-triples";

const uri = (value: string) => ({ type: "uri" as const, value });

/** A remote-like KG (no triple count in its info) answering COUNT and paged SELECTs from a list. */
function fakeRemote(count: string | Error, rows = 3): KnowledgeGraph & { queries: string[] } {
  const queries: string[] = [];
  const all = Array.from({ length: rows }, (_, i) => ({ s: uri(`http://ex.org/s${i}`), p: uri("http://ex.org/p"), o: { type: "literal" as const, value: String(i) } }));
  return {
    queries,
    info: { id: "remote", kind: "remote", name: "remote" },
    async select(q: string): Promise<SelectResult> {
      queries.push(q);
      if (q.includes("COUNT")) {
        if (count instanceof Error) throw count;
        return { head: { vars: ["n"] }, results: { bindings: [{ n: { type: "literal", value: count } }] } };
      }
      const m = /LIMIT (\d+) OFFSET (\d+)/.exec(q)!;
      return { head: { vars: ["s", "p", "o"] }, results: { bindings: all.slice(Number(m[2]), Number(m[2]) + Number(m[1])) } };
    },
  } as unknown as KnowledgeGraph & { queries: string[] };
}

describe("readAllTriples", () => {
  it("refuses an endpoint larger than the bound after one COUNT, before reading any triple", async () => {
    const kg = fakeRemote("900000000");
    await expect(readAllTriples(kg, { maxTriples: 5_000_000 })).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("900000000 triples") });
    expect(kg.queries).toHaveLength(1);
  });

  it("refuses an endpoint that cannot tell its size, saying why", async () => {
    await expect(readAllTriples(fakeRemote(new Error("timeout after 20000 ms")))).rejects.toMatchObject({ message: expect.stringContaining("timeout after 20000 ms") });
  });

  it("reads a small endpoint page by page, without repeats", async () => {
    const kg = fakeRemote("5", 5);
    const triples = await readAllTriples(kg, { pageSize: 2 });
    expect(triples.map((t) => t.o.value)).toEqual(["0", "1", "2", "3", "4"]);
    expect(kg.queries.filter((q) => q.includes("OFFSET"))).toHaveLength(3);
  });
});
