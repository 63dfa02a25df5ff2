import { describe, expect, it } from "vitest";
import { allowedEntries, guardedSource, poolItemsOf, type PoolEntry } from "./experience-guard";
import type { BenchmarkItem } from "./types";

const items: BenchmarkItem[] = [
  { id: "bench:1", question: "Who wrote Dune?", questions: { de: "Wer schrieb Dune?" } },
  { id: "bench:2", question: "When was Dune published?" },
];
const entry = (id: string, question: string, extra: Partial<PoolEntry> = {}): PoolEntry => ({ id, question, sparql: "SELECT ?x WHERE { ?x ?p ?o }", source: "import", dataset: null, itemId: null, split: null, ...extra });
const pool: PoolEntry[] = [
  entry("a", "Who wrote Dune?", { dataset: "bench", itemId: "bench:1", split: "test" }),
  entry("b", "who wrote dune", { source: "feedback" }),
  entry("c", "Wer schrieb Dune?", { dataset: "other", itemId: "x" }),
  entry("d", "When was Dune published?", { dataset: "bench", itemId: "bench:2", split: "test" }),
  entry("e", "Who directed Alien?", { dataset: "bench", itemId: "bench:9", split: "train" }),
  entry("f", "Who composed the music of Alien?", { dataset: "bench", itemId: "bench:10", split: "test" }),
];

describe("the experience pool's leakage guard", () => {
  it("imports every language of an item as its own question, and a run never shows any of them for that item", () => {
    const multi: BenchmarkItem = { id: "bench:1", question: "Who wrote Dune?", questions: { en: "Who wrote Dune?", de: "Wer schrieb Dune?" }, goldSparql: "SELECT ?a WHERE { ?a ?p ?o }" };
    const imported = poolItemsOf([multi, { id: "bench:3", question: "No gold" }, { ...items[1], goldSparql: "ASK {}" }]);
    expect(imported.map((e) => [e.itemId, e.question])).toEqual([["bench:1-en", "Who wrote Dune?"], ["bench:1-de", "Wer schrieb Dune?"], ["bench:2", "When was Dune published?"]]);
    // the German entry reworded: only its item id ties it to the asked item
    const entries = imported.map((e, i) => entry(`i${i}`, `${e.question} (reworded)`, { dataset: "bench", itemId: e.itemId }));
    expect(allowedEntries(multi, entries, { dataset: "bench", items, excludeTestSplit: false }).map((e) => e.itemId)).toEqual(["bench:2"]);
    // the item asked in one language (--question-lang de: id bench:1-de) sees none of its versions either
    expect(allowedEntries({ ...multi, id: "bench:1-de" }, entries, { dataset: "bench", items, excludeTestSplit: false }).map((e) => e.itemId)).toEqual(["bench:2"]);
  });

  it("never shows the question being asked: not its item, nor the same question in any of its languages", () => {
    expect(allowedEntries(items[0], pool, { dataset: "bench", items, excludeTestSplit: false }).map((e) => e.id)).toEqual(["d", "e", "f"]);
  });

  it("with excludeTestSplit leaves out every item of the run and every entry imported as test", () => {
    expect(allowedEntries(items[0], pool, { dataset: "bench", items, excludeTestSplit: true }).map((e) => e.id)).toEqual(["e"]);
  });

  it("gives the strategy a source holding only the allowed entries", async () => {
    const source = guardedSource(items[1], pool, { dataset: "bench", items, excludeTestSplit: false });
    expect((await source.examples("any")).map((e) => e.id)).toEqual(["a", "b", "c", "e", "f"]);
  });
});
