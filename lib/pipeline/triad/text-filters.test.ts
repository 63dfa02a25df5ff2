// A kind the KG writes only into names (bellworks.ttl: "…Carillon…" bells, no class for them): the template matches
// it by a text FILTER on the IRI, and that FILTER anchors relation discovery (the carillon bells' own predicates).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { askKg, optionNumbers, runTriad } from "@/test/fixtures/kg/triad-harness";
import { parseTemplate } from "./template";
import { textFiltersOf } from "./text-filters";

const BW = "http://example.org/bellworks#";
const discoveries = (events: DerivationEvent[]) => events.flatMap((e) => (e.type === "sparql" && e.stage === "relation-linking" ? [`${e.purpose}\n${e.query}`] : []));

const where = (text: string) => {
  const t = parseTemplate(text);
  if (!t.ok) throw new Error(t.reason);
  return t.value.ast.where;
};

describe("text filters of a template", () => {
  it("keeps one-variable string tests, not comparisons, two-variable filters or NOT EXISTS", () => {
    const f = textFiltersOf(
      where(`SELECT ?b WHERE { ?b <r0> ?w ; <r1> ?n .
        FILTER(CONTAINS(LCASE(STR(?b)), "carillon")) FILTER(REGEX(?n, "^north", "i")) FILTER(?w < 500) FILTER(CONTAINS(STR(?b), STR(?n)))
        FILTER NOT EXISTS { ?b <r2> ?x } }`),
    );
    expect(Object.keys(f).sort()).toEqual(["b", "n"]);
    expect(f.b).toHaveLength(1);
  });
});

let bells: KnowledgeGraph;
beforeAll(async () => {
  bells = await openKg({ kind: "files", paths: [path.join(process.cwd(), "test/fixtures/kg/any-kg/bellworks.ttl")] });
}, 60_000);
afterAll(async () => {
  await bells?.close();
});

describe("Triad: things of a kind named only in their IRIs", () => {
  it("matches them by a FILTER on the local name and finds the relation from the things that match", async () => {
    const question = "How heavy are the carillon bells?";
    const { result, events } = await runTriad(bells, question, {
      chat: [askKg(question)],
      generalist: [
        {
          triplets: [["?b", "weigh", "?w"]],
          slots: { r0: "heavy" },
          template: 'SELECT DISTINCT ?b ?w WHERE { ?b <r0> ?w . FILTER(CONTAINS(LCASE(STR(?b)), "carillon")) }',
          answer_type: "value",
        },
      ],
      decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("weight")) } } })],
    });
    // discovery started from the filtered things, not from every predicate of the KG
    const found = discoveries(events);
    expect(found.some((q) => q.includes("anywhere in the KG"))).toBe(false);
    expect(found.some((q) => q.includes('"carillon"'))).toBe(true);
    expect(result.sparql[0]).toContain(`<${BW}weightKg>`);
    expect(result.answer.kind).toBe("table");
    expect(JSON.stringify(result.answer)).toContain(`${BW}NorthCarillonTenor`);
  });
});
