// one-call's entity step: what the label search misses, the KG lexicon finds — names without labels, written in lower
// case or inflected; and a notes source that fails costs the notes, not the turn.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { readKgNotes } from "@/lib/pipeline/common/kg-notes";
import { DEFAULT_CONFIG, type DerivationEvent } from "@/lib/pipeline/types";
import { findEntities, questionSpans } from "./entities";

const LH = "http://example.org/lighthouses/";
let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/onboarding/lighthouses.ttl"] });
}, 60_000);
afterAll(async () => {
  await kg?.close();
});

const context = (events: DerivationEvent[] = []) => createAgentContext({ kg, llm: createScriptedLlm({}).gateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, emit: (e) => events.push(e) });

describe("one-call's entity step", () => {
  it("finds an entity named in lower case, by a name predicate the profile does not list", async () => {
    const events: DerivationEvent[] = [];
    const found = await findEntities(context(events), "how tall is gull rock light?");
    expect(found).toContainEqual({ mention: "gull rock light", iri: `${LH}lh-gullrock`, label: "Gull Rock Light" });
    expect(events.some((e) => e.type === "tool-call" && e.tool === "lexicon-search")).toBe(true);
  });

  it("finds an entity whose name the question inflects, and not every thing sharing one of its words", async () => {
    const found = await findEntities(context(), "which lighthouses stand on the amber coasts?");
    expect(found.map((f) => f.iri)).toEqual([`${LH}coast-amber`]);
  });

  it("reads spans longest first, never starting or ending on a function word", () => {
    const spans = questionSpans("which lights are on the slate coast").map((s) => s.text);
    expect(spans[0]).toBe("slate coast");
    expect(spans).toContain("lights");
    expect(spans).not.toContain("on the slate");
  });
});

describe("KG notes in a turn", () => {
  it("a failing notes source gives a warning and no notes; the turn goes on", async () => {
    const events: DerivationEvent[] = [];
    const notes = await readKgNotes({ notes: async () => Promise.reject(new Error("database is locked")) }, context(events), "retrieval");
    expect(notes).toBe("");
    expect(events).toContainEqual(expect.objectContaining({ type: "warning", message: expect.stringMatching(/KG notes could not be read/) }));
  });
});
