import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createTestContext } from "@/test/fixtures/kg/harness";
import { MUSIC_ID, MUSIC_VOCAB, musicKg } from "@/test/fixtures/kg/triad-harness";
import { discoverRelations, type Known } from "./relation-discovery";
import { parseTemplate } from "./template";
import { templateTriples } from "./template-triples";
import { textFiltersOf } from "./text-filters";

const kg = musicKg();
const triplesOf = (text: string) => {
  const t = parseTemplate(text);
  if (!t.ok) throw new Error(t.reason);
  return templateTriples(t.value.ast.where);
};
const setup = () => createTestContext({ kg, llm: createScriptedLlm().gateway });
const has = (found: { iri: string; reversed: boolean }[], local: string, reversed = false) => found.some((f) => f.iri === `${MUSIC_VOCAB}${local}` && f.reversed === reversed);

describe("discoverRelations", () => {
  it("finds the predicates between what the slot's triple connects, in both directions, from the chosen entities", async () => {
    const { ctx } = setup();
    const known: Known = { entities: { e0: [{ kind: "iri", iri: `${MUSIC_ID}artist/Mira%20Solberg`, label: "Mira Solberg" }] }, relations: {} };
    const { found, anchored } = await discoverRelations("r0", triplesOf("SELECT ?a WHERE { <e0> <r0> ?a }"), known, ctx);
    expect(anchored).toBe(true);
    expect(has(found, "performer", true)).toBe(true); // albums point at her: reversed against the template
    expect(has(found, "originCountry")).toBe(true);
  });

  it("follows relations chosen earlier to reach a slot between two unknowns (offer → price)", async () => {
    const { ctx, sparql } = setup();
    const known: Known = {
      entities: { e0: [{ kind: "iri", iri: `${MUSIC_ID}label-Lumen-Lane`, label: "Lumen Lane" }] },
      relations: { r0: [{ iri: `${MUSIC_VOCAB}recordLabel`, label: "record label", reversed: false }], r1: [{ iri: `${MUSIC_VOCAB}offer`, label: "offer", reversed: false }] },
    };
    const { found } = await discoverRelations("r2", triplesOf("SELECT ?p WHERE { ?a <r0> <e0> ; <r1> ?o . ?o <r2> ?p }"), known, ctx);
    expect(has(found, "price")).toBe(true);
    expect(has(found, "currency")).toBe(true);
    expect(has(found, "recordLabel")).toBe(false); // only what offers carry
    expect(sparql()[0].query).toContain(`<${MUSIC_VOCAB}offer>`);
  });

  it("when both ends are anchored but not linked (Hollow Pines is not from Japan), explores from each end alone", async () => {
    const { ctx, sparql } = setup();
    const known: Known = { entities: { e0: [{ kind: "iri", iri: `${MUSIC_ID}band-Hollow-Pines`, label: "Hollow Pines" }] }, relations: {} };
    const { found } = await discoverRelations("r0", triplesOf('ASK { <e0> <r0> "Japan" }'), known, ctx);
    expect(has(found, "originCountry")).toBe(true);
    expect(sparql().map((e) => e.purpose)).toEqual(["predicates for <r0> between its anchored ends", "predicates for <r0> around its subject", "predicates for <r0> around its object"]);
  });

  it("lists the KG's predicates for a slot nothing anchors", async () => {
    const { ctx, sparql } = setup();
    const { found, anchored } = await discoverRelations("r0", triplesOf("SELECT ?l WHERE { ?a <r0> ?l } GROUP BY ?l ORDER BY DESC(COUNT(?a)) LIMIT 1"), { entities: {}, relations: {} }, ctx);
    expect(anchored).toBe(false);
    expect(has(found, "recordLabel")).toBe(true);
    expect(sparql()[0].purpose).toContain("nothing anchors it");
  });

  it("when a text FILTER's scan does not finish in time, discovers the slot as if no text pinned it (one timeout, not four)", async () => {
    // a big endpoint: any query that tests text runs out of time
    const slow: KnowledgeGraph = Object.create(kg, {
      query: { value: (q: string, o?: Parameters<KnowledgeGraph["query"]>[1]) => (/CONTAINS/.test(q) ? Promise.reject(new AppError("kg_timeout", "The KG did not answer within 20 s.")) : kg.query(q, o)) },
    });
    const { ctx, sparql, events } = createTestContext({ kg: slow, llm: createScriptedLlm().gateway });
    const where = parseTemplate('SELECT ?a ?c WHERE { ?a <r0> ?c . FILTER(CONTAINS(LCASE(STR(?a)), "pines")) }');
    if (!where.ok) throw new Error(where.reason);
    const known: Known = { entities: {}, relations: {}, textFilters: textFiltersOf(where.value.ast.where) };
    const { found } = await discoverRelations("r0", templateTriples(where.value.ast.where), known, ctx);
    expect(has(found, "originCountry")).toBe(true); // from the KG's predicates, as before text could anchor
    expect(sparql().map((e) => e.purpose)).toEqual(["predicates for <r0> between its anchored ends", "predicates anywhere in the KG for <r0> (nothing anchors it)"]);
    expect(JSON.stringify(events)).toContain("20 s");
  });
});
