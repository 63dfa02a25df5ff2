// Examples made for one question at turn time, on the windmill fixture (mills.ttl) with a pool cut to ten examples: the
// question's column combination is in no stored example, and the examples made for it have it — with a question in
// the KG's words and an answer from the KG; nothing the pool holds is made again; the query count and the deadline
// bound it; a KG that stops answering costs the examples, not the turn.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { AppError } from "@/lib/errors";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { getLexicon } from "@/lib/pipeline/common/lexicon";
import { rankExamples } from "@/lib/pipeline/one-call/examples";
import { aimExamples, type AimDoc } from "./aimed";
import { createOnboardingContext } from "./context";
import { prepareInMemory, type PreparedKg } from "./prepare";
import { impliedTypes, queryTemplate } from "./template";

const FIXTURE = "test/fixtures/kg/onboarding/mills.ttl";
const ASKED = "Which mills have more than 4 sails? Give their names and sails.";
// the structure a person's query for ASKED has (untyped, constants inline: the template reads it so)
const WANTED = "PREFIX ml: <http://example.org/mills/> SELECT ?n ?s WHERE { ?m ml:mill_name ?n ; ml:sails ?s FILTER(?s > 4) }";

let kg: KnowledgeGraph;
let prepared: PreparedKg;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: [FIXTURE] });
  prepared = await prepareInMemory(kg, { limits: { maxExamples: 10 } });
}, 60_000);
afterAll(async () => {
  await kg?.close();
});

const similarity = createLexicalSimilarity();
const rankFor = (question: string) => (docs: AimDoc[]) => rankExamples(question, docs.map((d) => ({ ...d, source: "generated" as const })), similarity, docs.length);
const templateOf = (sparql: string) => queryTemplate(sparql, { impliedTypes: impliedTypes(prepared.profile!) });

async function aim(question: string, options: { have?: Set<string>; candidates?: number; deadline?: number; kgOf?: KnowledgeGraph } = {}) {
  const { lexicon } = await getLexicon(createOnboardingContext(kg, { queryTimeoutMs: 5000 }).ctx, "retrieval");
  const octx = createOnboardingContext(options.kgOf ?? kg, { queryTimeoutMs: 5000 });
  const have = options.have ?? new Set(prepared.examples.map((e) => e.template));
  return { octx, out: await aimExamples(octx, prepared.profile!, lexicon, { rank: rankFor(question), have, ...(options.candidates ? { candidates: options.candidates } : {}), deadline: options.deadline ?? Date.now() + 10_000 }) };
}

describe("examples made for one question", () => {
  it("makes the example whose structure the question asks for, which the ten stored examples lack", async () => {
    const wanted = templateOf(WANTED);
    expect(prepared.examples).toHaveLength(10);
    expect(prepared.examples.some((e) => e.template === wanted)).toBe(false);
    const { out } = await aim(ASKED);
    expect(out.classes).toContain("mill");
    expect(out.examples.length).toBeGreaterThan(0);
    expect(out.examples.length).toBeLessThanOrEqual(5);
    const hit = out.examples.find((e) => e.template === wanted);
    expect(hit?.question).toBe("What are the mill name and sails of the mills with a sails greater than 4?");
    const r = await kg.query(hit?.sparql ?? "");
    expect(r.kind === "SELECT" ? r.results.bindings.map((b) => b.mill_name?.value).sort() : []).toEqual(["Brindlecote", "Stoatmere", "Tallowby"]);
  });

  it("makes nothing the pool already holds, and no structure twice", async () => {
    const { out } = await aim(ASKED);
    const templates = out.examples.map((e) => e.template);
    expect(new Set(templates).size).toBe(templates.length);
    const { out: again } = await aim(ASKED, { have: new Set([...prepared.examples.map((e) => e.template), ...templates]) });
    expect(again.examples.some((e) => templates.includes(e.template))).toBe(false);
  });

  it("runs at most the candidate queries it is allowed, and nothing once the deadline has passed", async () => {
    const { out } = await aim(ASKED, { candidates: 2 });
    expect(out.ran).toBeLessThanOrEqual(2);
    const { out: late, octx } = await aim(ASKED, { deadline: Date.now() - 1 });
    expect(late).toMatchObject({ examples: [], ran: 0, skipped: "time ran out before enough examples were made" });
    expect(octx.queries()).toBe(0);
  });

  it("makes nothing for a question that names none of the KG's classes or columns", async () => {
    const { out } = await aim("Quelle heure est-il ?");
    expect(out).toMatchObject({ examples: [], classes: [], ran: 0 });
  });

  it("ends with an error a caller can report when the KG stops answering mid-way", async () => {
    const dead = { ...kg, info: kg.info, profile: kg.profile, query: async () => Promise.reject(new AppError("kg_unreachable", "The KG stopped answering.")) } as KnowledgeGraph;
    await expect(aim(ASKED, { kgOf: dead })).rejects.toMatchObject({ code: "kg_unreachable" });
  });

  it("is not needed where the job ran every candidate: its profile says so, a pool cut short does not", async () => {
    expect(prepared.profile?.candidatesExhausted).toBeFalsy();
    // the mills fill the pool of 300 (first and wider pass): candidates were left unrun
    expect((await prepareInMemory(kg)).profile?.candidatesExhausted).toBeFalsy();
    // a KG of lighthouses runs out of candidates first
    const small = await openKg({ kind: "files", paths: ["test/fixtures/kg/onboarding/lighthouses.ttl"] });
    try {
      const whole = await prepareInMemory(small);
      expect(whole.examples.length).toBeLessThan(300);
      expect(whole.profile?.candidatesExhausted).toBe(true);
    } finally {
      await small.close();
    }
  });
});
