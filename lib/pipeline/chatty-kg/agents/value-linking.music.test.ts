// Linking of literal values and classes on the music KG (real embedded store): value search, class options, and entity
// linking of a QIR with values, classes and an entity that is a value in the KG.
import path from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import { kgProfilePartialSchema } from "@/lib/kg/profile";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState, Qir } from "../state";
import { classOptions, singular } from "./class-linking";
import { entityLinkingAgent } from "./entity-linking";
import { searchValues, valueTerms } from "./value-search";

const TV = "http://example.org/tunes/vocab#";
const T = "http://example.org/tunes/id/";
let kg: KnowledgeGraph;

beforeAll(async () => {
  const profile = kgProfilePartialSchema.parse(JSON.parse(readFileSync(path.join(process.cwd(), "kg/music.profile.json"), "utf8")));
  kg = await openKg({ kind: "files", paths: [path.join(process.cwd(), "kg/music.ttl")], profile });
}, 60_000);
afterAll(async () => kg?.close());

const context = (script = {}) => createTestContext({ kg, llm: createScriptedLlm(script).gateway });

describe("value search", () => {
  it("writes a value in the forms a KG stores it: case and language variants for text, datatypes for numbers and dates", () => {
    expect(valueTerms("iceland", "string", "en").map((t) => t.value)).toEqual(["iceland", "iceland", "Iceland", "Iceland", "ICELAND", "ICELAND"]);
    expect(valueTerms("2019", "date", "en")).toEqual([
      { type: "literal", value: "2019", datatype: "http://www.w3.org/2001/XMLSchema#gYear" },
      { type: "literal", value: "2019", datatype: "http://www.w3.org/2001/XMLSchema#integer" },
      { type: "literal", value: "2019" },
    ]);
    expect(valueTerms("8.6", "number", "en").map((t) => (t.type === "literal" ? t.datatype : undefined))).toContain("http://www.w3.org/2001/XMLSchema#decimal");
  });

  it("finds the KG's literal and the predicates carrying it, whatever the case the question used", async () => {
    const { ctx } = context();
    expect(await searchValues("iceland", "string", ctx)).toEqual({ terms: [{ type: "literal", value: "Iceland" }], carriers: [{ iri: `${TV}originCountry`, count: expect.any(Number) }] });
    expect((await searchValues("8.6", "number", ctx)).carriers.map((c) => c.iri)).toEqual([`${TV}rating`]);
    expect(await searchValues("Atlantis", "string", ctx)).toEqual({ terms: [], carriers: [] });
  });

  it("does not count label predicates as carriers: a name is an entity's, found by the entity search", async () => {
    const { ctx } = context();
    expect((await searchValues("Hollow Pines", "string", ctx)).carriers).toEqual([]);
  });
});

describe("class linking", () => {
  it("reads plural and singular forms", () => {
    expect(["bands", "categories", "boxes", "record labels", "class", "bus"].map(singular)).toEqual(["band", "category", "box", "record label", "class", "bus"]);
  });

  it("finds a class by its label in either number, and offers close classes when none is exact", async () => {
    const { ctx } = context();
    expect(await classOptions("record labels", ctx)).toEqual([{ kind: "class", iri: `${TV}RecordLabel`, label: "record label", exact: true }]);
    expect((await classOptions("Artists", ctx)).map((o) => o.iri)).toEqual([`${TV}Artist`]);
    const close = await classOptions("music artist", ctx);
    expect(close.every((o) => !o.exact)).toBe(true);
    expect(close.map((o) => o.iri)).toEqual(expect.arrayContaining([`${TV}Artist`, `${TV}SoloArtist`]));
  });
});

describe("entity linking with values and classes", () => {
  const state = (qir: Partial<Qir>): ChattyState => ({
    question: "q",
    dialogue: [],
    config: DEFAULT_CONFIG,
    qir: { entities: [], unknowns: [], relations: [], triples: [], questionType: "factoid", ...qir } as Qir,
  });

  it("links a value to the KG's literal, a class with subclasses, and an entity mention that is a value in the KG, without an LLM call", async () => {
    const { ctx, events } = context();
    const patch = await entityLinkingAgent(
      state({
        entities: ["Canada"],
        unknowns: ["?a", "?m"],
        triples: [
          { subject: "?a", relation: "from", object: "Canada" },
          { subject: "?a", relation: "member", object: "?m" },
          { subject: "?m", relation: "plays", object: "drums" },
        ],
        values: [{ text: "drums", type: "string" }],
        classes: [{ variable: "?a", mention: "artists" }],
      }),
      ctx,
    );
    expect(patch.failure).toBeUndefined();
    expect(patch.literals).toEqual({
      drums: { mention: "drums", type: "string", terms: [{ type: "literal", value: "drums" }], carriers: [`${TV}plays`], how: "value-search" },
      Canada: { mention: "Canada", type: "string", terms: [{ type: "literal", value: "Canada" }], carriers: [`${TV}originCountry`], how: "value-search" },
    });
    expect(patch.classes).toEqual({ "?a": { variable: "?a", mention: "artists", iri: `${TV}Artist`, label: "artist", how: "single", subclasses: true } });
    expect(patch.vertices).toEqual({});
    expect(events.some((e) => e.type === "llm-call")).toBe(false);
  });

  it("asks the model once when a class name is ambiguous, and a text that is a value is never offered for a subject", async () => {
    const llm = createScriptedLlm({ vertex: [(messages) => ({ choices: { "music artist": Number(/(\d+)\. solo artist — a class/.exec(messages.at(-1)?.text ?? "")?.[1]) } })] });
    const { ctx } = createTestContext({ kg, llm: llm.gateway });
    const patch = await entityLinkingAgent(state({ unknowns: ["?a"], triples: [{ subject: "?a", relation: "from", object: "?c" }], classes: [{ variable: "?a", mention: "music artist" }] }), ctx);
    expect(patch.classes?.["?a"]).toMatchObject({ iri: `${TV}SoloArtist`, how: "llm" });
    expect(llm.calls.map((c) => c.role)).toEqual(["vertex"]);
    // "Canada" as the subject of a triple cannot be a literal: only vertices are looked for, and there is none
    const subject = await entityLinkingAgent(state({ entities: ["Canada"], unknowns: ["?x"], triples: [{ subject: "Canada", relation: "has", object: "?x" }] }), context().ctx);
    expect(subject.failure?.message).toBe('Could not find "Canada" in the KG.');
  });

  it("leaves out the entities earlier answers named ('what else')", async () => {
    const { ctx } = context();
    const dialogue = [{ question: "Which was the first?", answer: { kind: "items" as const, items: [{ type: "uri" as const, value: `${T}album-cedar-lines`, label: "Cedar Lines" }] } }];
    const patch = await entityLinkingAgent(
      {
        ...state({ entities: ["Hollow Pines"], unknowns: ["?a"], triples: [{ subject: "?a", relation: "performed by", object: "Hollow Pines" }], exclude: { variable: "?a", entities: [], earlierAnswers: true } }),
        dialogue,
      },
      ctx,
    );
    expect(patch.excluded).toEqual({ variable: "?a", iris: [`${T}album-cedar-lines`], fromEarlierAnswers: 1 });
  });
});
