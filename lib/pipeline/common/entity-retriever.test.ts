import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createFixtureKg, createTestContext, RES } from "@/test/fixtures/kg/harness";
import { fixturePath } from "@/test/fixtures/kg/lexicon/store";
import { dedupeCandidates, retrieveCandidates } from "./entity-retriever";

const kg = createFixtureKg();
const make = (vlimit = 600) => createTestContext({ kg, llm: createScriptedLlm().gateway, config: { vlimit } });

describe("retrieveCandidates", () => {
  it("finds every vertex whose label contains the mention, exact matches first, one per IRI", async () => {
    const { ctx, events } = make();
    const r = await retrieveCandidates("Harry Potter", ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const iris = r.candidates.map((c) => c.iri);
    expect(new Set(iris).size).toBe(iris.length);
    // the three vertices labelled exactly "Harry Potter" rank above the longer titles
    expect(iris.slice(0, 3).sort()).toEqual([`${RES}Harry_Potter_character`, `${RES}Harry_Potter_films`, `${RES}Harry_Potter_novels`]);
    expect(iris).toContain(`${RES}Philosophers_Stone_film`);
    // the character has "Harry Potter"@en and @de: the English label is kept
    expect(r.candidates.find((c) => c.iri === `${RES}Harry_Potter_character`)?.lang).toBe("en");
    const call = events.find((e) => e.type === "tool-call");
    expect(call).toMatchObject({ type: "tool-call", stage: "entity-linking", tool: "label-search", input: { mention: "Harry Potter" } });
  });

  it("respects vlimit", async () => {
    const { ctx } = make(2);
    const r = await retrieveCandidates("Harry Potter", ctx);
    expect(r.ok && r.candidates.length).toBe(2);
  });

  it("keeps legitimate quotes in names working", async () => {
    const { ctx } = make();
    const r = await retrieveCandidates("Philosopher's Stone", ctx);
    expect(r.ok && r.candidates.map((c) => c.iri).sort()).toEqual([`${RES}Philosophers_Stone_film`, `${RES}Philosophers_Stone_novel`]);
  });

  it.each([
    ['"} ; DROP ALL ; {"'],
    ["') } DELETE WHERE { ?s ?p ?o } #"],
    ["Harry\nPotter\"}"],
    ["\\u0022 }"],
    ["{{question}}"],
    ["Ünïcødé 🧙 \uD800"],
    ["   "],
  ])("treats hostile mention %j as plain text: no throw, nothing unrelated matches", async (mention) => {
    const { ctx } = make();
    const r = await retrieveCandidates(mention, ctx);
    expect(r.ok).toBe(true);
    // the junk matches nothing; a real word in it ("Harry\nPotter") may find the things named by it
    const words = mention.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
    for (const c of r.ok ? r.candidates : []) expect(words.some((w) => c.label.toLowerCase().includes(w)), c.label).toBe(true);
    if (!/harry/i.test(mention)) expect(r).toEqual({ ok: true, candidates: [] });
    // and the store still answers (nothing was dropped)
    expect(await kg.ask(`ASK { <${RES}JK_Rowling> ?p ?o }`)).toBe(true);
  });

  it("returns a failing search as data, traced; an error without a code is a pipeline failure", async () => {
    const broken = { ...kg, searchLabels: async () => Promise.reject(new Error("endpoint down")) };
    const { ctx, events } = createTestContext({ kg: broken, llm: createScriptedLlm().gateway });
    expect(await retrieveCandidates("Harry Potter", ctx)).toEqual({ ok: false, error: "endpoint down", code: "pipeline_failed" });
    expect(events.at(-1)).toMatchObject({ type: "tool-call", error: "endpoint down" });
  });

  it("keeps the KG's error code (kg_timeout), so the failure is attributed to the KG", async () => {
    const slow = { ...kg, searchLabels: async () => Promise.reject(new AppError("kg_timeout", "The KG did not answer within 5 s.")) };
    const { ctx } = createTestContext({ kg: slow, llm: createScriptedLlm().gateway });
    expect(await retrieveCandidates("Harry Potter", ctx)).toEqual({ ok: false, error: "The KG did not answer within 5 s.", code: "kg_timeout" });
  });
});

describe("dedupeCandidates", () => {
  it("keeps the preferred-language label and the best score per IRI", () => {
    const out = dedupeCandidates(
      [
        { iri: "http://x/a", label: "Londres", lang: "fr", score: 0.9 },
        { iri: "http://x/b", label: "London Bridge", lang: "en", score: 0.7 },
        { iri: "http://x/a", label: "London", lang: "en", score: 0.5 },
      ],
      "en",
    );
    expect(out).toEqual([
      { iri: "http://x/a", label: "London", lang: "en", score: 0.9 },
      { iri: "http://x/b", label: "London Bridge", lang: "en", score: 0.7 },
    ]);
  });
});

describe("retrieveCandidates on a KG whose names the profile's labels do not hold", () => {
  it("finds an entity named in a custom predicate of named graphs, and says which name matched", async () => {
    const kg = createFixtureKg(fixturePath("named-graphs.trig"));
    const { ctx, events } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const r = await retrieveCandidates("Wren Haldane", ctx);
    expect(r.ok && r.candidates[0]).toMatchObject({ iri: "http://example.org/apiary/keeper-3", label: "Wren Haldane", matched: { name: "Wren Haldane", via: "<http://example.org/apiary/callName>" } });
    expect(events.find((e) => e.type === "tool-call" && e.tool === "lexicon-search")).toBeDefined();
  });

  it("finds an unlabelled entity by the words of its IRI", async () => {
    const kg = createFixtureKg(fixturePath("camel-case.ttl"));
    const { ctx } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const r = await retrieveCandidates("Otto Fenwick", ctx);
    expect(r.ok && r.candidates[0]).toMatchObject({ iri: "http://example.org/clockworks#otto_fenwick", matched: { via: "IRI local name" } });
    // a second mention reuses the lexicon: no new lexicon queries
    const before = kg.queries.length;
    await retrieveCandidates("Martha Quill", ctx);
    expect(kg.queries.filter((q) => /LIMIT 400000|LIMIT 300000/.test(q)).length).toBe(kg.queries.slice(0, before).filter((q) => /LIMIT 400000|LIMIT 300000/.test(q)).length);
  });

  it("links a misspelt mention to the name it is a typo of, and the candidate says the match was approximate", async () => {
    const kg = createFixtureKg(fixturePath("camel-case.ttl"));
    const { ctx, events } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const r = await retrieveCandidates("Otto Fenwik", ctx);
    expect(r.ok && r.candidates[0]).toMatchObject({ iri: "http://example.org/clockworks#otto_fenwick", matched: { via: 'IRI local name — approximate: matched "fenwick" ≈ "fenwik" (1 edit)' } });
    const search = events.filter((e) => e.type === "tool-call" && e.tool === "lexicon-search").at(-1);
    expect(search?.type === "tool-call" && search.output).toMatchObject({ approximate: 'matched "fenwick" ≈ "fenwik" (1 edit)' });
    // a three-letter word is never read as another
    expect(await retrieveCandidates("Oto", ctx)).toEqual({ ok: true, candidates: [] });
  });
});
