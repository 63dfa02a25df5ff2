import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createFixtureKg, createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState, Qir } from "../state";
import { entityLinkingAgent, typeObjects } from "./entity-linking";

const qir = (triples: Qir["triples"], extra: Partial<Qir> = {}): Qir => ({
  entities: [],
  unknowns: triples.flatMap((t) => [t.subject, t.object]).filter((x) => x.startsWith("?")),
  relations: triples.map((t) => t.relation),
  triples,
  questionType: "factoid",
  ...extra,
});

describe("typeObjects", () => {
  it("finds the mentions that only name the class of something (⟨X, type, C⟩)", () => {
    expect([...typeObjects(qir([{ subject: "Chart Seven", relation: "type", object: "chart" }, { subject: "?x", relation: "drawn on", object: "Chart Seven" }]))]).toEqual(["chart"]);
    // also the object of another relation, or a subject: a thing, not a class
    expect([...typeObjects(qir([{ subject: "Chart Seven", relation: "type", object: "chart" }, { subject: "?x", relation: "drawn on", object: "chart" }]))]).toEqual([]);
    expect([...typeObjects(qir([{ subject: "?x", relation: "is a", object: "?c" }]))]).toEqual([]);
  });
});

describe("entity linking of a type mention", () => {
  it("offers the KG's classes for it, not a property of the same name", async () => {
    const charts = createFixtureKg("test/fixtures/kg/chatty/twin-classes.ttl", { prefixes: { sea: "http://example.org/sea/", map: "http://example.org/map/" } });
    const prompts: string[] = [];
    const pickSea = (messages: PlainMessage[]) => {
      const text = messages.map((m) => m.text).join("\n");
      prompts.push(text);
      const line = text.split("\n").find((l) => /^\d+\. /.test(l) && l.includes("(sea:Chart)"));
      return { json: { choices: { chart: Number(line?.split(".")[0]) } } };
    };
    const t = createTestContext({ kg: charts, llm: createScriptedLlm({ vertex: [pickSea] }).gateway });
    const q = qir([{ subject: "Chart Seven", relation: "type", object: "chart" }, { subject: "?x", relation: "drawn on", object: "Chart Seven" }], { entities: ["Chart Seven", "chart"], target: "?x" });
    const state = { question: "What is drawn on the chart Chart Seven?", dialogue: [], config: DEFAULT_CONFIG, qir: q } as unknown as ChattyState;
    const r = await entityLinkingAgent(state, t.ctx);
    expect(r.failure).toBeUndefined();
    expect(r.vertices?.chart).toMatchObject({ iri: "http://example.org/sea/Chart" });
    expect(r.vertices?.["Chart Seven"]).toMatchObject({ iri: "http://example.org/sea/Chart7" });
    // only the two classes were offered, each with its compact IRI; the property "Chart" was not
    expect(prompts[0]).toMatch(/Chart — a class \(sea:Chart\)/);
    expect(prompts[0]).toMatch(/Chart — a class \(map:Chart\)/);
    expect(prompts[0]).not.toContain("object property");
  });
});
