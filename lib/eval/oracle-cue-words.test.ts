// The question-grounded explorer oracle and cue words (test/fixtures/kg/explorer/outfitters.ttl): a LIMIT 1 is the
// question's only when it writes a superlative or compares the options it lists — never because a name shares a
// stem with a cue word ("Lead" ~ least, "Tops" ~ top, "Everlasting" ~ last) — and a comparison of two named
// products is answered with the two fixed by VALUES (the explorer's finish check lets the question's constants be).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createGroundedExplorerOracleLlm } from "./oracle-explorer";
import { isCueWord, reviewedNormalisations } from "./oracle-normalisations";
import { itemValues as values, runExplorerOracle } from "./testing/run-explorer-oracle";

const OF = "http://example.org/outfitters/";
const P = `PREFIX of: <${OF}> `;
let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/explorer/outfitters.ttl"], profile: { prefixes: { of: OF } } });
}, 60_000);
afterAll(async () => kg?.close());

async function runOracle(question: string, gold: string) {
  const { result, events, log } = await runExplorerOracle(createGroundedExplorerOracleLlm, kg, question, gold);
  const finishes = events.flatMap((e) => (e.type === "tool-call" && e.tool === "finish" ? [e.output as { accepted: boolean }] : []));
  return { result, log, finishes };
}

describe("cue words in the question-grounded oracle", () => {
  it("does not take a name that shares a stem with a superlative for one: a gold's LIMIT 1 is dropped", async () => {
    // the gold cuts a list the question asks for in full
    const lead = await runOracle("Which products does Lead Street Store sell?", `${P}SELECT ?p WHERE { ?p of:soldAt of:s1 ; of:priceEur ?e } ORDER BY DESC(?e) LIMIT 1`);
    expect(lead.log.dropped).toContain("LIMIT 1");
    expect(lead.log.normalisations.filter((n) => n.startsWith("superlative"))).toEqual([]);
    expect(values(lead.result)).toEqual([`${OF}p1`, `${OF}p2`, `${OF}p3`]);
    const tops = await runOracle("Which shops sell Tank Tops?", `${P}SELECT ?s WHERE { of:p1 of:soldAt ?s } ORDER BY ?s LIMIT 1`);
    expect(tops.log.dropped).toContain("LIMIT 1");
    expect(values(tops.result)).toEqual([`${OF}s1`, `${OF}s2`, `${OF}s3`]);
  });

  it("keeps the LIMIT 1 of a superlative the question writes", async () => {
    const most = await runOracle("Which is the most expensive product at Lead Street Store?", `${P}SELECT ?p WHERE { ?p of:soldAt of:s1 ; of:priceEur ?e } ORDER BY DESC(?e) LIMIT 1`);
    expect(most.log.dropped).toEqual([]);
    expect(values(most.result)).toEqual([`${OF}p3`]);
  });

  it("answers a comparison of two named products with VALUES and the LIMIT 1 the comparison asks for", async () => {
    const gold = `${P}SELECT ?p WHERE { VALUES ?p { of:p1 of:p2 } ?p of:priceEur ?e } ORDER BY ?e LIMIT 1`;
    const cheaper = await runOracle("Which is cheaper, Tank Tops or Everlasting Candle?", gold);
    expect(cheaper.log.dropped).toEqual([]);
    expect(cheaper.log.normalisations).toContain("comparison: cheaper → 1");
    expect(cheaper.finishes.at(-1)).toMatchObject({ accepted: true });
    expect(values(cheaper.result)).toEqual([`${OF}p1`]);
  });
});

describe("cue words match whole", () => {
  const kinds = (q: string, lang?: string) => reviewedNormalisations(q, lang).map((n) => `${n.kind}: ${n.from} → ${n.to}`);
  it("reads no superlative, ordinal or comparison into names and other words", () => {
    expect(kinds("What is the price of Lead?")).toEqual([]);
    expect(kinds("Who sells Tank Tops?")).toEqual([]);
    expect(kinds("Where is the Everlasting Candle sold?")).toEqual([]);
    expect(kinds("How many seconds does a lap take?")).toEqual([]);
    expect(kinds("Which river is in the Forest Park?")).toEqual([]);
    expect(kinds("The Forest Inn is in which town?")).toEqual([]);
    expect(kinds("Which is the number of A or B?")).toEqual([]);
    // a bound or a comparison with a value is no choice between options
    expect(kinds("Which shops sell two or more products?")).toEqual(["number word: two → 2"]);
    expect(kinds("Which payments are higher than 300 or by cheque?")).toEqual([]);
    expect(kinds("What is older, the candle or the jacket?")).toEqual([]);
  });
  it("reads the listed words and their German endings", () => {
    expect(kinds("Which shop sells the least candles?")).toContain("superlative: least → 1");
    expect(kinds("What are the top products?")).toContain("superlative: top → 1");
    expect(kinds("Who came second?")).toContain("ordinal: second → 2");
    expect(kinds("Welcher Laden hat die höchsten Preise?", "de")).toContain("superlative: höchsten → 1");
    expect(kinds("Wer kam als erster an?", "de")).toContain("ordinal: erster → 1");
    expect(kinds("Which of Ann and Bo is older?")).toContain("comparison: older → 1");
    expect(kinds("Wer hat mehr Tore, A oder B?", "de")).toContain("comparison: mehr → 1");
    expect(isCueWord("least", "lead")).toBe(false);
    expect(isCueWord("letzte", "letzten")).toBe(true);
  });
});
