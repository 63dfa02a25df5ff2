// A turn's examples made for its question (common/aimed-examples.ts), as one-call retrieves them: on the windmill fixture with a
// pool cut to ten examples, the five one-call shows include one made for the question with the structure it asks for;
// the trace gets one event saying what was made, not the queries one by one; the turn's KG budget is not drawn on;
// no profile, a count of 0 or a failing profile costs only these examples.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { AppError } from "@/lib/errors";
import { createOnboardingContext } from "@/lib/kg/onboarding/context";
import { prepareInMemory, type PreparedKg } from "@/lib/kg/onboarding/prepare";
import { impliedTypes, queryTemplate } from "@/lib/kg/onboarding/template";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { retrieveSolvedExamples } from "./examples";
import { summarizeOneCallStage, type OneCallState } from "./state";
import type { DerivationEvent, ExperienceExample, ExperienceSource } from "@/lib/pipeline/types";

const FIXTURE = "test/fixtures/kg/onboarding/mills.ttl";
const ASKED = "Which mills have more than 4 sails? Give their names and sails.";
const WANTED = "PREFIX ml: <http://example.org/mills/> SELECT ?n ?s WHERE { ?m ml:mill_name ?n ; ml:sails ?s FILTER(?s > 4) }";

let kg: KnowledgeGraph;
let prepared: PreparedKg;
let pool: ExperienceExample[];
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: [FIXTURE] });
  prepared = await prepareInMemory(kg, { limits: { maxExamples: 10 } });
  pool = prepared.examples.map((e) => ({ id: e.id, question: e.question, sparql: e.sparql, source: "generated" }));
}, 60_000);
afterAll(async () => {
  await kg?.close();
});

function turn() {
  const events: DerivationEvent[] = [];
  const { ctx } = createOnboardingContext(kg, { queryTimeoutMs: 5000, onEvent: (e) => events.push(e) });
  return { ctx: { ...ctx, similarity: createLexicalSimilarity(), emit: (e: DerivationEvent) => events.push(e) }, events };
}
const source = (profile: ExperienceSource["profile"]): ExperienceSource => ({ examples: async () => pool, ...(profile ? { profile } : {}) });
const templateOf = (sparql: string) => queryTemplate(sparql, { impliedTypes: impliedTypes(prepared.profile!) });

describe("one-call's examples with examples made for the question", () => {
  it("shows an example made for the question with the structure it asks for, beside the stored ones", async () => {
    const { ctx, events } = turn();
    const before = ctx.budget.used().queries;
    const { examples, pool: stored } = await retrieveSolvedExamples(source(async () => prepared.profile), ctx, ASKED, 5, "retrieval", 5);
    expect(stored).toBe(10);
    expect(examples).toHaveLength(5);
    const made = examples.filter((e) => e.id.startsWith("aimed-"));
    expect(made.map((e) => templateOf(e.sparql))).toContain(templateOf(WANTED));
    expect(pool.some((e) => templateOf(e.sparql) === templateOf(WANTED))).toBe(false);
    // one event says what was made; the sample reads and candidates are not listed one by one
    const call = events.find((e) => e.type === "tool-call" && e.tool === "examples for this question");
    expect(call).toMatchObject({ input: { classes: expect.arrayContaining(["mill"]) } });
    expect(events.filter((e) => e.type === "sparql")).toHaveLength(0);
    // they have a budget of their own: the turn's KG budget is untouched
    expect(ctx.budget.used().queries).toBe(before);
    // the retrieval card says how many were made, and marks them
    const card = summarizeOneCallStage("retrieval", { examples, pool: stored, ranking: "bm25" } as OneCallState);
    expect(card.summary).toBe(`5 solved example(s) (${made.length} made for this question) of 10 stored and those made by BM25; no schema cards`);
    expect((card.output as { examples: { made?: boolean }[] }).examples.filter((e) => e.made)).toHaveLength(made.length);
  });

  it("shows the stored examples only when the count is 0 or the KG has no onboarding profile", async () => {
    for (const [profile, k] of [[async () => prepared.profile, 0], [undefined, 5], [async () => undefined, 5]] as const) {
      const { ctx } = turn();
      const { examples } = await retrieveSolvedExamples(source(profile), ctx, ASKED, 5, "retrieval", k);
      expect(examples.length).toBeGreaterThan(0);
      expect(examples.every((e) => !e.id.startsWith("aimed-"))).toBe(true);
    }
  });

  it("warns and keeps the stored examples when the profile cannot be read", async () => {
    const { ctx, events } = turn();
    const { examples } = await retrieveSolvedExamples(source(async () => Promise.reject(new AppError("internal", "The database is gone."))), ctx, ASKED, 5, "retrieval", 5);
    expect(examples.length).toBeGreaterThan(0);
    expect(events).toContainEqual(expect.objectContaining({ type: "warning", message: "No examples could be generated for this question: The database is gone." }));
  });

  it("makes none and runs nothing on a KG whose preparation ran every candidate, and says why", async () => {
    const { ctx, events } = turn();
    const exhausted = { ...prepared.profile!, candidatesExhausted: true };
    const { examples } = await retrieveSolvedExamples(source(async () => exhausted), ctx, ASKED, 5, "retrieval", 5);
    expect(examples.every((e) => !e.id.startsWith("aimed-"))).toBe(true);
    expect(events).toContainEqual(expect.objectContaining({ type: "tool-call", tool: "examples for this question", output: expect.objectContaining({ ran: 0, queries: 0, skipped: expect.stringContaining("ran every candidate query") }) }));
  });
});
