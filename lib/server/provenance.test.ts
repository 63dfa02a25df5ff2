// Provenance of stored answers on the sample KG: the supporting triples of one item (labelled), per attempt; cited
// evidence for citing strategies; clear answers when there is nothing to show; another session gets not_found.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import type { TurnResult } from "@/lib/pipeline/types";
import { createKgRegistry, type KgRegistry } from "./kg-registry";
import { searchEntities } from "./entity-search";
import { provenanceOf } from "./provenance";
import { createTempDb, type TempDb } from "./testing/temp-db";

const SESSION = "session-provenance";
const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";
const FILMS = `SELECT DISTINCT ?film WHERE { { <${RES}Daniel_Radcliffe> <${ONT}starredIn> ?film } UNION { ?film <${ONT}starring> <${RES}Daniel_Radcliffe> } } LIMIT 1000`;
const stats = { ms: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 1, stageMs: {} };

let tmp: TempDb;
let registry: KgRegistry;

beforeAll(async () => {
  tmp = await createTempDb();
  registry = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: `${tmp.dir}/data`, env: {} });
});
afterAll(async () => {
  await registry.close();
  await tmp.close();
});

async function storedTurn(result: TurnResult): Promise<string> {
  const c = await tmp.queries.createConversation({ sessionId: SESSION, title: "p", kgId: "sample" });
  const t = await tmp.queries.createTurn({ sessionId: SESSION, conversationId: c.id, question: "Films?", config: { kg: { id: "sample" } } });
  await tmp.queries.finishTurn({ sessionId: SESSION, turnId: t.id, result, trace: [] });
  return t.id;
}

const deps = () => ({ queries: tmp.queries, registry });
const films: TurnResult = {
  answer: { kind: "items", items: [{ type: "uri", value: `${RES}Swiss_Army_Man`, label: "Swiss Army Man" }, { type: "uri", value: `${RES}Now_You_See_Me_2` }] },
  source: "kg",
  sparql: [FILMS],
  stats,
};

describe("provenance of a stored answer", () => {
  it("gives each item the one triple behind it, labelled, with the queries that found it", async () => {
    const turnId = await storedTurn(films);
    const swiss = await provenanceOf(deps(), SESSION, turnId, { index: 0 });
    expect(swiss.triples).toEqual([
      {
        subject: { type: "uri", value: `${RES}Daniel_Radcliffe`, label: "Daniel Radcliffe" },
        predicate: { type: "uri", value: `${ONT}starredIn`, label: "starred in" },
        object: { type: "uri", value: `${RES}Swiss_Army_Man`, label: "Swiss Army Man" },
      },
    ]);
    expect(swiss.queries.every((q) => q.startsWith("CONSTRUCT"))).toBe(true);
    expect(swiss.note).toBeUndefined();
    const nysm = await provenanceOf(deps(), SESSION, turnId, { index: 1 });
    expect(nysm.triples.map((t) => [t.subject.value, t.predicate.value].map((v) => v.replace(/^.*\//, "")))).toEqual([["Now_You_See_Me_2", "starring"]]);
  });

  it("explains an earlier attempt with that attempt's query", async () => {
    const turnId = await storedTurn(films);
    await tmp.queries.startAttempt({ sessionId: SESSION, turnId, change: { baseAttempt: 1, correction: { kind: "candidate", id: 1 } } });
    const birth = `SELECT ?d WHERE { <${RES}Daniel_Radcliffe> <${ONT}birthDate> ?d }`;
    await tmp.queries.finishTurn({
      sessionId: SESSION,
      turnId,
      result: { ...films, answer: { kind: "items", items: [{ type: "literal", value: "1989-07-23", datatype: "http://www.w3.org/2001/XMLSchema#date" }] }, sparql: [birth] },
      trace: [],
    });
    expect((await provenanceOf(deps(), SESSION, turnId, { index: 0 })).triples[0].object.value).toBe("1989-07-23");
    expect((await provenanceOf(deps(), SESSION, turnId, { attempt: 1, index: 0 })).triples[0].object.value).toBe(`${RES}Swiss_Army_Man`);
  });

  it("shows the cited rows or passages of a citing strategy, says why a 'no' or a count has nothing, refuses a bad index", async () => {
    const cited = await storedTurn({
      answer: {
        kind: "items",
        items: [{ type: "literal", value: "London", cite: ["P3"] }],
        citations: [
          { id: "P3", kind: "passage", text: "Daniel Radcliffe was born in London.", iris: [`${RES}Daniel_Radcliffe`] },
          { id: "P4", kind: "passage", text: "unrelated", iris: [] },
        ],
      },
      source: "kg",
      sparql: [],
      stats,
    });
    const p = await provenanceOf(deps(), SESSION, cited, { index: 0 });
    expect(p.citations.map((c) => c.id)).toEqual(["P3"]);
    expect(p.triples).toEqual([]);
    const no = await storedTurn({ answer: { kind: "boolean", value: false }, source: "kg", sparql: [`ASK { <${RES}Daniel_Radcliffe> <${ONT}birthPlace> <${RES}Paris> }`], stats });
    expect((await provenanceOf(deps(), SESSION, no, {})).note).toMatch(/absence of matching triples/);
    const yes = await storedTurn({ answer: { kind: "boolean", value: true }, source: "kg", sparql: [`ASK { <${RES}Daniel_Radcliffe> <${ONT}birthPlace> <${RES}London> }`], stats });
    expect((await provenanceOf(deps(), SESSION, yes, {})).triples).toHaveLength(1);
    const count = await storedTurn({ answer: { kind: "count", count: 22 }, source: "kg", sparql: [FILMS], stats });
    await expect(provenanceOf(deps(), SESSION, count, { index: 0 })).rejects.toThrow(/count answer has no items/);
    const turnId = await storedTurn(films);
    await expect(provenanceOf(deps(), SESSION, turnId, { index: 5 })).rejects.toThrow(/2 items/);
    await expect(provenanceOf(deps(), SESSION, turnId, { attempt: 2, index: 0 })).rejects.toSatisfy((e) => isAppError(e, "not_found"));
  });

  it("another session gets not_found", async () => {
    const turnId = await storedTurn(films);
    await expect(provenanceOf(deps(), "session-other", turnId, { index: 0 })).rejects.toSatisfy((e) => isAppError(e, "not_found"));
  });
});

describe("entity search", () => {
  it("finds both same-named vertices with the types that tell them apart", async () => {
    const kg = await registry.getKg(SESSION, "sample");
    const { hits } = await searchEntities(kg, "Daniel Radcliffe");
    const actor = hits.find((h) => h.iri === `${RES}Daniel_Radcliffe`);
    const engineer = hits.find((h) => h.iri === `${RES}Daniel_Radcliffe_engineer`);
    expect(actor?.types.join(" ")).toMatch(/actor/i);
    expect(engineer?.types.join(" ")).toMatch(/engineer/i);
    expect(engineer?.description).toMatch(/railway engineer/);
  });

  it("finds a vertex of a label-less KG by the name in its own predicate (the KG lexicon)", async () => {
    const { createEmbeddedKg } = await import("@/lib/kg/embedded/embedded-kg");
    const kg = await createEmbeddedKg({ sources: [{ path: "test/fixtures/e2e/lanterns.trig" }] });
    try {
      const { hits } = await searchEntities(kg, "marigold lantern");
      expect(hits[0]).toMatchObject({ iri: "urn:uuid:3f2a9c1e-7b4d-4e8a-9f10-5c6d7e8f9a0b", label: "Marigold Lantern" });
      expect(hits[0].types.join(" ")).toMatch(/StreetLantern|street lantern/i);
    } finally {
      await kg.close();
    }
  });
});
