import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { createFixtureKg, createTestContext, ONT, RES } from "@/test/fixtures/kg/harness";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import type { ChattyState, Qir } from "../state";
import { matchingAgent, mentionsOf } from "./matching-agent";

const kg = createFixtureKg();

function state(question: string, qir: Qir): ChattyState {
  return { question, dialogue: [], config: DEFAULT_CONFIG, qir };
}
function make(script: Script = {}) {
  const llm = createScriptedLlm(script);
  return { llm, ...createTestContext({ kg, llm: llm.gateway }) };
}

describe("mentionsOf", () => {
  it("lists entities and non-variable triple ends once", () => {
    expect(
      mentionsOf({
        entities: ["Bloomsbury"],
        unknowns: ["?x", "person"],
        relations: ["founded"],
        triples: [
          { subject: "?x", relation: "founded", object: "Bloomsbury" },
          { subject: "person", relation: "knows", object: "J. K. Rowling " },
        ],
        questionType: "factoid",
      }),
    ).toEqual(["Bloomsbury", "J. K. Rowling"]);
  });
});

describe("matchingAgent", () => {
  it("links entities and relations with no LLM call when every mention is unambiguous", async () => {
    const { ctx, llm } = make();
    const patch = await matchingAgent(
      state("Who founded Bloomsbury Publishing?", {
        entities: ["Bloomsbury Publishing"],
        unknowns: ["?founder"],
        relations: ["founded"],
        triples: [{ subject: "?founder", relation: "founded", object: "Bloomsbury Publishing" }],
        target: "?founder",
        questionType: "factoid",
      }),
      ctx,
    );
    expect(patch.failure).toBeUndefined();
    expect(patch.vertices).toEqual({
      "Bloomsbury Publishing": { mention: "Bloomsbury Publishing", iri: `${RES}Bloomsbury`, label: "Bloomsbury Publishing", candidates: 1, how: "single" },
    });
    expect(patch.relationPredicates?.founded.map((p) => p.iri)).toEqual(expect.arrayContaining([`${ONT}founder`, `${ONT}founders`, `${ONT}foundedBy`]));
    expect(llm.calls).toHaveLength(0);
  });

  it("searches all mentions concurrently and asks the LLM once for all ambiguous ones", async () => {
    const { ctx, llm, events } = make({
      vertex: [
        (m) => {
          const text = m.map((x) => x.text).join("\n");
          const num = (prefix: string) => Number(text.split("\n").find((l) => l.replace(/^\d+\. /, "").startsWith(prefix))?.split(".")[0]);
          return { choices: { "Daniel Radcliffe": num("Daniel Radcliffe — type: actor"), "Harry Potter": num("Harry Potter — type: fictional character") } };
        },
      ],
    });
    const patch = await matchingAgent(
      state("Did Daniel Radcliffe portray Harry Potter?", {
        entities: ["Harry Potter", "Daniel Radcliffe"],
        unknowns: [],
        relations: ["portrayed by"],
        triples: [{ subject: "Harry Potter", relation: "portrayed by", object: "Daniel Radcliffe" }],
        questionType: "boolean",
      }),
      ctx,
    );
    expect(patch.failure).toBeUndefined();
    expect(patch.vertices?.["Harry Potter"].iri).toBe(`${RES}Harry_Potter_character`);
    expect(patch.vertices?.["Daniel Radcliffe"].iri).toBe(`${RES}Daniel_Radcliffe`);
    expect(llm.calls).toHaveLength(1);
    // the two entities are directly linked: only that predicate is kept
    expect(patch.relationPredicates?.["portrayed by"]).toEqual([
      expect.objectContaining({ iri: `${ONT}portrayedBy`, direction: "out", vertex: `${RES}Harry_Potter_character` }),
    ]);
    expect(events.filter((e) => e.type === "tool-call" && e.tool === "label-search")).toHaveLength(2);
  });

  it("fails at entity linking when a mention is not in the KG, without linking relations", async () => {
    const { ctx, sparql } = make();
    const patch = await matchingAgent(
      state("Who founded Hogwarts?", {
        entities: ["Hogwarts"],
        unknowns: ["?x"],
        relations: ["founded"],
        triples: [{ subject: "?x", relation: "founded", object: "Hogwarts" }],
        questionType: "factoid",
      }),
      ctx,
    );
    expect(patch).toEqual({ failure: { stage: "entity-linking", code: "pipeline_failed", message: 'Could not find "Hogwarts" in the KG.' } });
    expect(sparql().filter((q) => q.stage === "relation-linking")).toHaveLength(0);
  });

  it("a KG error while searching a mention keeps the KG's code (kg_unreachable), not pipeline_failed", async () => {
    const down = { ...kg, searchLabels: async () => Promise.reject(new AppError("kg_unreachable", "Cannot reach the SPARQL endpoint at kg.example.")) };
    const llm = createScriptedLlm();
    const { ctx, sparql } = createTestContext({ kg: down, llm: llm.gateway });
    const patch = await matchingAgent(
      state("Who founded Hogwarts?", {
        entities: ["Hogwarts"],
        unknowns: ["?x"],
        relations: ["founded"],
        triples: [{ subject: "?x", relation: "founded", object: "Hogwarts" }],
        questionType: "factoid",
      }),
      ctx,
    );
    expect(patch).toEqual({
      failure: { stage: "entity-linking", code: "kg_unreachable", message: 'Could not search the KG for "Hogwarts": Cannot reach the SPARQL endpoint at kg.example.' },
    });
    expect(llm.calls).toHaveLength(0);
    expect(sparql().filter((q) => q.stage === "relation-linking")).toHaveLength(0);
  });

  it("fails at relation linking with the vertices kept for the trace", async () => {
    const { ctx } = make();
    const patch = await matchingAgent(
      state("q", {
        entities: ["Emma Watson"],
        unknowns: ["?a", "?b"],
        relations: ["acted in", "likes"],
        triples: [
          { subject: "Emma Watson", relation: "acted in", object: "?a" },
          { subject: "?b", relation: "likes", object: "?c" },
        ],
        questionType: "factoid",
      }),
      ctx,
    );
    expect(patch.vertices?.["Emma Watson"].iri).toBe(`${RES}Emma_Watson`);
    expect(patch.failure).toMatchObject({ stage: "relation-linking", code: "pipeline_failed" });
  });
});
