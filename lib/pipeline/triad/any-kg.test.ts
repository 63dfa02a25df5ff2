// Triad on KGs unlike the sample and music KGs (issue 20), with a scripted model: no labels at all (things named by
// their IRIs' local names), names only in the KG's own predicate with urn:uuid IRIs in two named graphs, and a question
// that names no entity (the relation is found from the class's members). Entities link through the KG lexicon.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Answer, DerivationEvent } from "@/lib/pipeline/types";
import { askKg, optionNumbers, runTriad, summaries } from "@/test/fixtures/kg/triad-harness";

const BW = "http://example.org/bellworks#";
const FR = "http://example.org/ferries/";
const fixture = (name: string) => path.join(process.cwd(), "test/fixtures/kg/any-kg", name);
const values = (a: Answer) => (a.kind === "items" ? a.items.map((i) => i.value).sort() : []);
/** The lexicon lookups of the turn: what was searched and the names that matched. */
const lexiconHits = (events: DerivationEvent[]) =>
  events.flatMap((e) => (e.type === "tool-call" && e.tool === "lexicon-search" ? [(e.output as { top: { iri: string; matched: { name: string; via: string } }[] }).top] : []));

let bells: KnowledgeGraph;
let ferries: KnowledgeGraph;
beforeAll(async () => {
  bells = await openKg({ kind: "files", paths: [fixture("bellworks.ttl")] });
  ferries = await openKg({ kind: "files", paths: [fixture("ferries.trig")] });
}, 60_000);
afterAll(async () => {
  await bells?.close();
  await ferries?.close();
});

describe("Triad on KGs without labels", () => {
  it("links an entity named only by its IRI's local name and finds the relation around it", async () => {
    const { result, events } = await runTriad(bells, "Which foundry cast Great Tom?", {
      chat: [askKg("Which foundry cast Great Tom?")],
      generalist: [
        { triplets: [["Great Tom", "cast", "?foundry"]], slots: { e0: "Great Tom", r0: "cast" }, template: "SELECT DISTINCT ?foundry WHERE { <e0> <r0> ?foundry . }", answer_type: "entities" },
      ],
      decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("cast")) } } })],
    });
    expect(result.source).toBe("kg");
    expect(values(result.answer)).toEqual([`${BW}Whitechapel_Foundry`]);
    expect(result.sparql[0]).toContain(`<${BW}GreatTom> <${BW}castBy> ?foundry`);
    // the derivation shows the name that matched and where it came from
    expect(lexiconHits(events)[0][0]).toMatchObject({ iri: `${BW}GreatTom`, matched: { name: "Great Tom", via: "IRI local name" } });
  });

  it("finds the relation from a class's members when the question names no entity, and filters on the value", async () => {
    const { result, events } = await runTriad(bells, "Which ship bells weigh less than 100 kg?", {
      chat: [askKg("Which ship bells weigh less than 100 kg?")],
      generalist: [
        {
          triplets: [["?bell", "type", "ship bells"], ["?bell", "weigh", "?kg"]],
          slots: { e0: "ship bells", r0: "weigh" },
          template: "SELECT DISTINCT ?bell WHERE { ?bell a <e0> ; <r0> ?kg . FILTER(?kg < 100) }",
          answer_type: "entities",
        },
      ],
      decider: [
        (m) => ({ json: { choices: { e0: optionNumbers(m, "e0", (t) => t.startsWith("Ship Bell")) } } }),
        (m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("weight")) } } }),
      ],
    });
    expect(values(result.answer)).toEqual([`${BW}OldMercy`, `${BW}SeaWarden`]);
    expect(result.sparql[0]).toContain(`<${BW}ShipBell>`);
    expect(result.sparql[0]).toContain(`<${BW}weightKg>`);
    expect(summaries(events).find((l) => l.startsWith("relation-linking:"))).toMatch(/weight/);
  });
});

describe("Triad on a KG with names in its own predicate, in named graphs", () => {
  it("links a vessel by its name literal (urn:uuid IRI) and follows an edge into the other graph", async () => {
    const { result, events } = await runTriad(ferries, "Which company operates the Tidewalker?", {
      chat: [askKg("Which company operates the Tidewalker?")],
      generalist: [
        { triplets: [["Tidewalker", "operates", "?company"]], slots: { e0: "Tidewalker", r0: "operates" }, template: "SELECT DISTINCT ?company WHERE { <e0> <r0> ?company . }", answer_type: "entities" },
      ],
      decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("operated")) } } })],
    });
    expect(values(result.answer)).toEqual(["urn:uuid:7a2b4c6d-1e3f-4a5b-8c9d-0e1f2a3b4c91"]);
    expect(result.sparql[0]).toContain(`<urn:uuid:3f0c9a52-8d1e-4b6a-9c21-5e7d1a0b2c02> <${FR}operatedBy> ?company`);
    expect(lexiconHits(events)[0][0]).toMatchObject({ iri: "urn:uuid:3f0c9a52-8d1e-4b6a-9c21-5e7d1a0b2c02", matched: { name: "Tidewalker", via: expect.stringContaining("vesselName") } });
  });

  it("links a thing by its code: the option says which name matched", async () => {
    const { result, llm } = await runTriad(ferries, "Who operates FR-1003?", {
      chat: [askKg("Who operates FR-1003?")],
      generalist: [{ triplets: [["FR-1003", "operates", "?c"]], slots: { e0: "FR-1003", r0: "operates" }, template: "SELECT DISTINCT ?c WHERE { <e0> <r0> ?c . }", answer_type: "entities" }],
      decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("operated")) } } })],
    });
    expect(values(result.answer)).toEqual(["urn:uuid:7a2b4c6d-1e3f-4a5b-8c9d-0e1f2a3b4c92"]);
    // one vessel bears the code: no entity choice was needed
    expect(llm.calls.filter((c) => c.role === "decider")).toHaveLength(1);
  });
});
