import { describe, expect, it } from "vitest";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { createFixtureKg, createTestContext, RES } from "@/test/fixtures/kg/harness";
import { retrieveCandidates, type VertexCandidate } from "@/lib/pipeline/common/entity-retriever";
import { autoSelect, selectVertices, MAX_OPTIONS, type MentionCandidates } from "./vertex-selection";

const kg = createFixtureKg();

async function setup(mentions: string[], script: Script = {}, theta = 3) {
  const llm = createScriptedLlm(script);
  const t = createTestContext({ kg, llm: llm.gateway, config: { theta } });
  const items: MentionCandidates[] = [];
  for (const mention of mentions) {
    const r = await retrieveCandidates(mention, t.ctx);
    items.push({ mention, candidates: r.ok ? r.candidates : [] });
  }
  return { ...t, llm, items };
}

/** The option number the prompt shows for a line starting with `prefix` (e.g. "Harry Potter — type: film series"). */
function optionNumber(messages: PlainMessage[], mention: string, prefix: string): number {
  const user = messages.map((m) => m.text).join("\n");
  const block = user.split(`Mention: ${JSON.stringify(mention)}`)[1] ?? "";
  const line = block.split("\n").find((l) => /^\d+\. /.test(l) && l.replace(/^\d+\. /, "").startsWith(prefix));
  if (!line) throw new Error(`no option "${prefix}" for ${mention} in prompt:\n${user}`);
  return Number(line.split(".")[0]);
}

describe("autoSelect", () => {
  const c = (iri: string, label: string): VertexCandidate => ({ iri, label, score: 1 });
  it("takes a single candidate, or the one exact (normalised) label match", () => {
    expect(autoSelect("x", [c("http://a", "Anything")])).toMatchObject({ iri: "http://a", how: "single" });
    expect(autoSelect("j. k.  ROWLING", [c("http://a", "J. K. Rowling"), c("http://b", "J. K. Rowling bibliography")])).toMatchObject({
      iri: "http://a",
      how: "exact",
    });
    expect(autoSelect("Zoe", [c("http://a", "Zoë"), c("http://b", "Zoe Ball")])).toMatchObject({ iri: "http://a" });
    // two exact matches, or none, need the LLM
    expect(autoSelect("Harry Potter", [c("http://a", "Harry Potter"), c("http://b", "harry potter")])).toBeUndefined();
    expect(autoSelect("Rowling", [c("http://a", "J. K. Rowling"), c("http://b", "Rowling Road")])).toBeUndefined();
  });
});

describe("selectVertices", () => {
  it("makes no LLM call when every mention has one candidate or one exact match", async () => {
    const { ctx, items, llm } = await setup(["J. K. Rowling", "Bloomsbury", "Emma Watson"]);
    const r = await selectVertices("q", items, ctx);
    expect(r).toMatchObject({
      ok: true,
      vertices: {
        "J. K. Rowling": { iri: `${RES}JK_Rowling`, how: "single" },
        Bloomsbury: { iri: `${RES}Bloomsbury`, how: "single" },
        "Emma Watson": { iri: `${RES}Emma_Watson` },
      },
    });
    expect(llm.calls).toHaveLength(0);
  });

  it("resolves a same-name trap by number using type and description hints from the KG", async () => {
    const { ctx, items, llm, events } = await setup(["Harry Potter"], {
      vertex: [(messages) => ({ choices: { "Harry Potter": optionNumber(messages, "Harry Potter", "Harry Potter — type: fictional character") } })],
    });
    const r = await selectVertices("Who portrayed Harry Potter in the films?", items, ctx);
    expect(r).toMatchObject({ ok: true, vertices: { "Harry Potter": { iri: `${RES}Harry_Potter_character`, how: "llm", label: "Harry Potter" } } });
    expect(llm.calls).toHaveLength(1);
    const prompt = llm.calls[0].messages.map((m) => m.text).join("\n");
    expect(prompt).toContain("Who portrayed Harry Potter in the films?");
    expect(prompt).toMatch(/\d+\. Harry Potter — type: film series; "Film series of eight films/);
    expect(prompt).toMatch(/\d+\. Harry Potter — type: novel; "Series of seven fantasy novels"/);
    // labels, not IRIs, are shown; the film and the novel sharing a title are told apart too
    expect(prompt).not.toContain(RES);
    expect(prompt).toMatch(/\d+\. Harry Potter and the Philosopher's Stone — type: film; "2001 film directed by Chris Columbus"/);
    expect(events.some((e) => e.type === "sparql" && e.purpose.includes("hints"))).toBe(true);
  });

  it("shows the compact IRIs of same-named classes, so two vocabularies' classes can be told apart", async () => {
    const charts = createFixtureKg("test/fixtures/kg/chatty/twin-classes.ttl", { prefixes: { sea: "http://example.org/sea/", map: "http://example.org/map/" } });
    const llm = createScriptedLlm({ vertex: [(messages) => ({ choices: { Chart: optionNumber(messages, "Chart", "Chart — type: class; \"A drawing of a map.\" (map:Chart)") } })] });
    const t = createTestContext({ kg: charts, llm: llm.gateway });
    const r = await retrieveCandidates("Chart", t.ctx);
    const sel = await selectVertices("Which charts exist?", [{ mention: "Chart", candidates: r.ok ? r.candidates : [] }], t.ctx);
    expect(sel).toMatchObject({ ok: true, vertices: { Chart: { iri: "http://example.org/map/Chart" } } });
    const prompt = llm.calls[0].messages.map((m) => m.text).join("\n");
    expect(prompt).toContain("(sea:Chart)");
    // the property of the same name is no class: no IRI for it
    expect(prompt).not.toContain("(sea:chart)");
  });

  it("links all ambiguous mentions of a question in ONE call", async () => {
    const { ctx, items, llm } = await setup(["Daniel Radcliffe", "Harry Potter", "J. K. Rowling"], {
      vertex: [
        (m) => ({
          choices: {
            "Daniel Radcliffe": optionNumber(m, "Daniel Radcliffe", "Daniel Radcliffe — type: actor"),
            "Harry Potter": String(optionNumber(m, "Harry Potter", "Harry Potter — type: fictional character")),
          },
        }),
      ],
    });
    const r = await selectVertices("Did Daniel Radcliffe portray Harry Potter?", items, ctx);
    expect(r).toMatchObject({
      ok: true,
      vertices: {
        "Daniel Radcliffe": { iri: `${RES}Daniel_Radcliffe`, how: "llm" },
        "Harry Potter": { iri: `${RES}Harry_Potter_character`, how: "llm" },
        "J. K. Rowling": { iri: `${RES}JK_Rowling`, how: "single" },
      },
    });
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0].messages.at(-1)?.text).not.toContain('Mention: "J. K. Rowling"');
  });

  it("rejects an ambiguous label or an invented one, then accepts the retry", async () => {
    const { ctx, items, llm, events } = await setup(["Harry Potter"], {
      vertex: [
        { choices: { "Harry Potter": "Harry Potter" } },
        "Sure! I think it is the wizard.",
        (m) => ({ choices: { "Harry Potter": `${optionNumber(m, "Harry Potter", "Harry Potter — type: novel")}. Harry Potter` } }),
      ],
    });
    const r = await selectVertices("Who wrote Harry Potter?", items, ctx);
    expect(r).toMatchObject({ ok: true, vertices: { "Harry Potter": { iri: `${RES}Harry_Potter_novels` } } });
    expect(llm.calls).toHaveLength(3);
    const calls = events.filter((e) => e.type === "llm-call");
    expect(calls.map((e) => e.type === "llm-call" && e.call.validationError)).toEqual([
      expect.stringContaining("several options"),
      expect.any(String),
      undefined,
    ]);
    // the retry tells the model what was wrong
    expect(llm.calls[1].messages.at(-1)?.text).toContain("several options");
  });

  it("fails after θ invalid answers", async () => {
    const { ctx, items, llm } = await setup(["Harry Potter"], { vertex: [{ choices: { "Harry Potter": "Hermione Granger" } }, { choices: {} }] }, 2);
    const r = await selectVertices("Who is Harry Potter?", items, ctx);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure).toMatchObject({ stage: "entity-linking", code: "pipeline_failed" });
    expect(r.failure.message).toContain('"Harry Potter"');
    expect(r.failure.message).toContain('no choice for "Harry Potter"');
    expect(llm.calls).toHaveLength(2);
  });

  it("fails clearly when a mention has no candidate", async () => {
    const { ctx, items, llm } = await setup(["Hogwarts Express"]);
    expect(await selectVertices("q", items, ctx)).toEqual({
      ok: false,
      failure: { stage: "entity-linking", code: "pipeline_failed", message: 'Could not find "Hogwarts Express" in the KG.' },
    });
    expect(llm.calls).toHaveLength(0);
  });

  it(`sends at most ${MAX_OPTIONS} options per mention`, async () => {
    const candidates = Array.from({ length: 120 }, (_, i) => ({ iri: `http://x/${i}`, label: `Thing ${i}`, score: 1 - i / 1000 }));
    const llm = createScriptedLlm({ vertex: [{ choices: { thing: 3 } }] });
    const { ctx } = createTestContext({ kg, llm: llm.gateway });
    const r = await selectVertices("q", [{ mention: "thing", candidates }], ctx);
    expect(r).toMatchObject({ ok: true, vertices: { thing: { iri: "http://x/2", candidates: 120 } } });
    const prompt = llm.calls[0].messages.at(-1)?.text ?? "";
    expect(prompt).toContain(`${MAX_OPTIONS}. Thing ${MAX_OPTIONS - 1}`);
    expect(prompt).not.toContain(`${MAX_OPTIONS + 1}. Thing`);
    // distinct labels need no hint (and no hint query)
    expect(prompt).not.toContain(" — ");
    expect(kg.queries.some((q) => q.includes("http://x/2>"))).toBe(false);
  });
});
