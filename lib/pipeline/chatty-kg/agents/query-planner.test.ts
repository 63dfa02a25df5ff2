import { describe, expect, it } from "vitest";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createFixtureKg, createTestContext, ONT, RES } from "@/test/fixtures/kg/harness";
import type { ChattyState, Qir, QirTriple } from "../state";
import { matchingAgent } from "./matching-agent";
import { planRuns, queryPlanningAgent, selectCandidates, validateSelection, withShownText, type PredicateOption } from "./query-planner";

const fixtureKg = createFixtureKg();

function qir(triples: QirTriple[], questionType: Qir["questionType"] = "factoid", target?: string): Qir {
  const terms = triples.flatMap((t) => [t.subject, t.object]);
  return {
    entities: terms.filter((x) => !x.startsWith("?")),
    unknowns: terms.filter((x) => x.startsWith("?")),
    relations: triples.map((t) => t.relation),
    triples,
    questionType,
    ...(target ? { target } : {}),
  };
}

/** Numbers of the listed predicates whose label is one of `labels`. */
function pick(messages: PlainMessage[], ...labels: string[]): number[] {
  const lines = messages.at(-1)?.text.split("\n") ?? [];
  return lines
    .map((l) => /^(\d+)\. (.+?)( \(.*\))?$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m && labels.includes(m[2]))
    .map((m) => Number(m[1]));
}

async function plan(question: string, q: Qir, script: Script = {}, opts: { theta?: number; kg?: KnowledgeGraph } = {}) {
  const llm = createScriptedLlm(script);
  const t = createTestContext({ kg: opts.kg ?? fixtureKg, llm: llm.gateway, config: { theta: opts.theta ?? 3 } });
  let state: ChattyState = { question, dialogue: [], config: DEFAULT_CONFIG, qir: q };
  const matched = await matchingAgent(state, t.ctx);
  expect(matched.failure).toBeUndefined();
  state = { ...state, ...matched };
  const patch = await queryPlanningAgent(state, t.ctx);
  return { ...t, llm, patch, state };
}

const STONE = "Harry Potter and the Philosopher's Stone";

/** Vertex-selection reply: the option whose line starts with `prefix`. */
function pickOption(messages: PlainMessage[], prefix: string): number {
  const line = (messages.at(-1)?.text.split("\n") ?? []).find((l) => l.replace(/^\d+\. /, "").startsWith(prefix));
  if (!line) throw new Error(`no option ${prefix}`);
  return Number(line.split(".")[0]);
}
const chooseFilm = (m: PlainMessage[]) => ({ choices: { [STONE]: pickOption(m, `${STONE} — type: film`) } });

const founded = qir([{ subject: "?founder", relation: "founded", object: "Bloomsbury Publishing" }], "factoid", "?founder");

describe("queryPlanningAgent", () => {
  it("keeps synonymous predicates, runs only the selected queries, merges and labels the answers", async () => {
    const { patch, llm, sparql } = await plan("Who founded Bloomsbury Publishing?", founded, {
      predicates: [(m) => ({ reasoning: "The founders of a company.", predicates: pick(m, "founder", "founders", "founded by") })],
    });
    expect(patch.failure).toBeUndefined();
    expect(llm.calls).toHaveLength(1);
    expect(patch.selectedPredicates?.sort()).toEqual([`${ONT}foundedBy`, `${ONT}founder`, `${ONT}founders`]);
    expect(patch.answer?.kind).toBe("items");
    // Nigel Newton is reached through two predicates but listed once
    expect(patch.answerItems).toEqual(
      expect.arrayContaining([
        { type: "uri", value: `${RES}Nigel_Newton`, label: "Nigel Newton" },
        { type: "uri", value: `${RES}Alan_Wherry`, label: "Alan Wherry" },
        { type: "uri", value: `${RES}David_Reynolds`, label: "David Reynolds" },
      ]),
    );
    expect(patch.answerItems).toHaveLength(3);
    const producing = (patch.executed ?? []).filter((e) => e.rows > 0);
    expect(producing).toHaveLength(3);
    // only queries with a selected predicate ran
    const ran = sparql().filter((q) => q.stage === "execution" && q.purpose.startsWith("candidate"));
    expect(ran).toHaveLength(patch.executed?.length ?? -1);
    expect(ran.length).toBeLessThan(patch.candidates?.length ?? 0);
    // answer labels come from one VALUES query
    expect(sparql().filter((q) => q.purpose === "answer labels")).toHaveLength(1);
  });

  it("drops unknown predicates, retries an empty selection, then succeeds", async () => {
    const { patch, llm, events } = await plan("Who founded Bloomsbury Publishing?", founded, {
      predicates: ['{"reasoning": "x", "predicates": ["inventor", 999]}', "not json at all", (m) => ({ predicates: [...pick(m, "founder"), "made up"] })],
    });
    expect(llm.calls).toHaveLength(3);
    expect(patch.selectedPredicates).toEqual([`${ONT}founder`]);
    expect(patch.answerItems?.map((i) => i.value)).toEqual([`${RES}Nigel_Newton`]);
    const rejected = events.filter((e) => e.type === "llm-call" && e.call.validationError).map((e) => e.type === "llm-call" && e.call.validationError);
    expect(rejected[0]).toContain('none of "inventor", "999" is in the list');
    expect(llm.calls[1].messages.at(-1)?.text).toContain("previous answer was rejected");
  });

  it("fails after θ invalid selections instead of running everything", async () => {
    const { patch, sparql } = await plan("Who founded Bloomsbury Publishing?", founded, { predicates: [{ predicates: [] }, { predicates: ["nothing"] }] }, { theta: 2 });
    expect(patch.failure).toMatchObject({ stage: "query-selection", code: "pipeline_failed" });
    expect(patch.answer).toBeUndefined();
    expect(sparql().filter((q) => q.stage === "execution")).toHaveLength(0);
  });

  it("an explicit none_fit is an honest 'none' answer: nothing run, not a failure (the query writer, shown the classes around, declines too)", async () => {
    const { patch, llm, sparql } = await plan("Who is the mayor of Bloomsbury Publishing?", qir([{ subject: "Bloomsbury Publishing", relation: "mayor", object: "?mayor" }], "factoid", "?mayor"), {
      predicates: [{ reasoning: "No predicate is about a mayor.", predicates: [], none_fit: true }],
      "query-writer": [{ reasoning: "Nothing listed is about a mayor.", sparql: null }],
    });
    expect(patch.failure).toBeUndefined();
    expect(patch.selectedPredicates).toEqual([]);
    expect(patch.answer).toEqual({ kind: "none", reason: expect.stringMatching(/^The KG has no "mayor" for Bloomsbury Publishing \(none of its \d+ candidate predicates fits/) });
    expect(llm.calls.map((c) => c.role)).toEqual(["predicates", "query-writer"]);
    expect(llm.calls[0].messages.map((m) => m.text).join("\n")).toContain('"none_fit"');
    expect(sparql().filter((q) => q.stage === "execution")).toHaveLength(0);
  });

  it("skips the LLM when only one predicate is left", async () => {
    // Yate's only edge besides label and type is an incoming birthPlace
    const { patch, llm } = await plan("Who was born in Yate?", qir([{ subject: "?person", relation: "born in", object: "Yate" }], "factoid", "?person"), {});
    expect(llm.calls).toHaveLength(0);
    expect(patch.selectedPredicates).toEqual([`${ONT}birthPlace`]);
    expect(patch.answerItems).toEqual([{ type: "uri", value: `${RES}JK_Rowling`, label: "J. K. Rowling" }]);
  });

  it("answers from an edge stored only inverse (starredIn) together with the forward one", async () => {
    const { patch } = await plan(
      "Who starred in the film Harry Potter and the Philosopher's Stone?",
      qir([{ subject: "?actor", relation: "starred in", object: STONE }], "factoid", "?actor"),
      { vertex: [chooseFilm], predicates: [(m) => ({ predicates: pick(m, "starring", "starred in") })] },
    );
    expect(patch.answerItems?.map((i) => i.value).sort()).toEqual([`${RES}Daniel_Radcliffe`, `${RES}Emma_Watson`, `${RES}Rupert_Grint`]);
  });

  it("answers yes/no with ASK: true if any selected ASK holds; false lists all ASKs as its source", async () => {
    const yes = await plan(
      "Did Rupert Grint star in the film Harry Potter and the Philosopher's Stone?",
      qir([{ subject: "Rupert Grint", relation: "star in", object: STONE }], "boolean"),
      { vertex: [chooseFilm] },
    );
    expect(yes.patch.answer).toEqual({ kind: "boolean", value: true });
    expect(yes.patch.candidates?.every((c) => c.kind === "ASK")).toBe(true);
    const no = await plan(
      "Did Rupert Grint found Bloomsbury Publishing?",
      qir([{ subject: "Rupert Grint", relation: "founded", object: "Bloomsbury Publishing" }], "boolean"),
      { predicates: [(m) => ({ predicates: pick(m, "starred in", "starring") })] },
    );
    expect(no.patch.answer).toEqual({ kind: "boolean", value: false });
    expect(no.patch.executed?.length).toBeGreaterThan(0);
    expect(no.patch.executed?.every((e) => e.rows === 1)).toBe(true);
  });

  it("counts distinct answers across synonymous predicates (3 founders, not 4)", async () => {
    const { patch } = await plan("How many founders does Bloomsbury Publishing have?", qir([{ subject: "Bloomsbury Publishing", relation: "founders", object: "?f" }], "count", "?f"), {
      predicates: [(m) => ({ predicates: pick(m, "founder", "founders", "founded by") })],
    });
    expect(patch.answer).toEqual({ kind: "count", count: 3 });
    expect(patch.candidates?.some((c) => c.kind === "COUNT")).toBe(true);
    expect(patch.executed?.some((e) => e.rows > 0 && /COUNT/.test(e.sparql))).toBe(true);
  });

  it("answers a count with the number the KG stores", async () => {
    const { patch } = await plan(
      "How many pages does the novel Harry Potter and the Philosopher's Stone have?",
      qir([{ subject: STONE, relation: "pages", object: "?n" }], "count", "?n"),
      {
        vertex: [(m) => ({ choices: { [STONE]: pickOption(m, `${STONE} — type: novel`) } })],
        predicates: [(m) => ({ predicates: pick(m, "number of pages") })],
      },
    );
    expect(patch.answer).toEqual({ kind: "count", count: 223 });
    expect(patch.executed?.filter((e) => e.rows > 0).map((e) => e.sparql.startsWith("SELECT DISTINCT"))).toEqual([true]);
  });

  it('says "none" when the selected queries return nothing, never a guess', async () => {
    const yate = `${RES}Yate`;
    const { ctx } = createTestContext({ kg: fixtureKg, llm: createScriptedLlm({ "query-writer": [{ json: { reasoning: "no other way", sparql: null } }] }).gateway });
    const patch = await queryPlanningAgent(
      {
        question: "Who founded Yate?",
        dialogue: [],
        config: DEFAULT_CONFIG,
        qir: qir([{ subject: "?x", relation: "founded", object: "Yate" }], "factoid", "?x"),
        vertices: { Yate: { mention: "Yate", iri: yate, label: "Yate", candidates: 1, how: "single" } },
        relationPredicates: { founded: [{ iri: `${ONT}founder`, label: "founder", score: 0.9, direction: "in", vertex: yate }] },
      },
      ctx,
    );
    expect(patch.answer).toEqual({ kind: "none", reason: "The KG has no answer to this question." });
    expect(patch.executed?.every((e) => e.rows === 0)).toBe(true);
  });

  it("when the selected queries find nothing, the query writer gets one try from the classes around the linked vertex", async () => {
    const yate = `${RES}Yate`;
    let prompt = "";
    const llm = createScriptedLlm({
      "query-writer": [
        (messages) => {
          prompt = messages.map((m) => m.text).join("\n");
          return { json: { reasoning: "born there", sparql: `SELECT ?x WHERE { ?x <${ONT}birthPlace> <${yate}> }` } };
        },
      ],
    });
    const { ctx, events } = createTestContext({ kg: fixtureKg, llm: llm.gateway });
    const patch = await queryPlanningAgent(
      {
        question: "Who comes from Yate?",
        dialogue: [],
        config: DEFAULT_CONFIG,
        qir: qir([{ subject: "?x", relation: "comes from", object: "Yate" }], "factoid", "?x"),
        vertices: { Yate: { mention: "Yate", iri: yate, label: "Yate", candidates: 1, how: "single" } },
        relationPredicates: { "comes from": [{ iri: `${ONT}founder`, label: "founder", score: 0.2, direction: "in", vertex: yate }] },
      },
      ctx,
    );
    expect(prompt).toContain(`<${ONT}birthPlace>`);
    expect(patch.answerItems?.map((i) => i.value)).toEqual([`${RES}JK_Rowling`]);
    expect(patch.candidates?.at(-1)).toMatchObject({ written: true });
    expect(events.filter((e) => e.type === "llm-call").map((e) => e.stage)).toEqual(["execution"]);
  });

  it("records a failing query and answers from the others; fails only if all fail", async () => {
    const flaky: KnowledgeGraph = {
      ...fixtureKg,
      query: async (q, o) => {
        if (q.includes("/founders>") && !q.includes("VALUES")) throw new Error("query timed out");
        return fixtureKg.query(q, o);
      },
    };
    const { patch } = await plan("Who founded Bloomsbury Publishing?", founded, { predicates: [(m) => ({ predicates: pick(m, "founder", "founders") })] }, { kg: flaky });
    expect(patch.executed?.find((e) => e.error)?.error).toBe("query timed out");
    expect(patch.answerItems?.map((i) => i.value)).toEqual([`${RES}Nigel_Newton`]);

    const { patch: all } = await plan("Who founded Bloomsbury Publishing?", founded, { predicates: [(m) => ({ predicates: pick(m, "founders") })], "query-writer": [{ sparql: null }] }, { kg: flaky });
    expect(all.failure).toMatchObject({ stage: "execution", message: "Every query failed; first error: query timed out" });
  });
});

describe("validateSelection", () => {
  const options: PredicateOption[] = [
    { n: 1, iri: "http://x/founder", label: "founder", queries: [1] },
    { n: 2, iri: "http://y/founder", label: "founder", queries: [2] },
    { n: 3, iri: "http://x/author", label: "author", queries: [3] },
  ];
  it("accepts numbers, numeric strings, labels (all twins) and IRIs, in P's order", () => {
    expect(validateSelection({ predicates: ["3"] }, options)).toEqual({ ok: true, value: ["http://x/author"] });
    expect(validateSelection({ predicates: ["founder"] }, options)).toEqual({ ok: true, value: ["http://x/founder", "http://y/founder"] });
    expect(validateSelection({ predicates: [3, "2. founder", "http://x/founder", "ghost"] }, options)).toEqual({
      ok: true,
      value: ["http://x/founder", "http://y/founder", "http://x/author"],
    });
  });
  it("accepts an option's exact text as shown (the label, or label + compact IRI for one twin) as well as its number", () => {
    const shown = withShownText(
      [...options, { n: 4, iri: "http://x/phone", label: "phone number", queries: [4] }],
      { x: "http://x/", y: "http://y/" },
    );
    expect(shown.map((o) => o.shown)).toEqual(["founder (x:founder)", "founder (y:founder)", "author", "phone number"]);
    // CK25 q2: pv:phone is listed as "phone number"; the model may name it by that text
    expect(validateSelection({ predicates: ["phone number"] }, shown)).toEqual({ ok: true, value: ["http://x/phone"] });
    expect(validateSelection({ predicates: ["Phone Number."] }, shown)).toEqual({ ok: true, value: ["http://x/phone"] });
    expect(validateSelection({ predicates: ["#4", "4."] }, shown)).toEqual({ ok: true, value: ["http://x/phone"] });
    // the exact text of one twin selects that twin only; the bare shared label still selects both
    expect(validateSelection({ predicates: ["founder (y:founder)"] }, shown)).toEqual({ ok: true, value: ["http://y/founder"] });
    expect(validateSelection({ predicates: ["founder"] }, shown)).toEqual({ ok: true, value: ["http://x/founder", "http://y/founder"] });
    // text that is not an option's is still unknown
    expect(validateSelection({ predicates: ["telephone"] }, shown)).toMatchObject({ ok: false, reason: expect.stringContaining('"telephone" is in the list') });
  });

  it("rejects an empty result", () => {
    expect(validateSelection({ predicates: [] }, options)).toMatchObject({ ok: false, reason: expect.stringContaining("none_fit") });
    expect(validateSelection({ predicates: [], none_fit: false }, options)).toMatchObject({ ok: false });
    // "none fit" only with an empty list; a list with none_fit is contradictory and retried
    expect(validateSelection({ predicates: [], none_fit: true }, options)).toEqual({ ok: true, value: [] });
    expect(validateSelection({ predicates: [3], none_fit: true }, options)).toMatchObject({ ok: false, reason: expect.stringContaining("none_fit") });
    expect(validateSelection({ predicates: [0, 4, "2.5"] }, options)).toMatchObject({ ok: false });
  });
});

describe("selectCandidates", () => {
  const q = (id: number, predicates: string[]) => ({ id, sparql: `# ${id}`, kind: "SELECT" as const, predicates, score: 1 });
  const candidates = [q(1, ["memberOf", "hasManager"]), q(2, ["memberOf", "responsibleFor"]), q(3, ["email"])];

  it("runs only the multi-triple queries whose predicates were all selected (no 'memberOf ∧ rejected' junk)", () => {
    expect(selectCandidates(candidates, ["memberOf", "hasManager"]).map((c) => c.id)).toEqual([1]);
  });

  it("falls back to the paper's rule (any selected predicate) when no query has all of its predicates selected", () => {
    expect(selectCandidates(candidates, ["memberOf"]).map((c) => c.id)).toEqual([1, 2]);
    expect(selectCandidates(candidates, ["nothing"])).toEqual([]);
  });
});

describe("planRuns: one wiring per predicate set, maximal sets first", () => {
  const c = (id: number, predicates: string[], wiring: string, reversed = 0, kind: "SELECT" | "COUNT" = "SELECT", score = 1) => ({
    id,
    sparql: `# ${id}`,
    kind,
    predicates,
    score,
    wiring,
    reversed,
  });
  const ids = (tiers: ReturnType<typeof planRuns>) => tiers.map((t) => t.map((g) => g.wirings.map((w) => w.map((x) => x.id))));

  it("CK25 q7: hasManager both ways and memberOf standing for both relations → the QIR's wiring first, the rest held back", () => {
    const right = c(1, ["memberOf", "hasManager"], "?p memberOf D . ?p hasManager ?r");
    const inverse = c(2, ["memberOf", "hasManager"], "?p memberOf D . ?r hasManager ?p", 1);
    const reused = c(3, ["memberOf"], "?p memberOf D . ?p memberOf ?r");
    // the reversed wiring is tried only after the preferred one, the subset group only in tier 2
    expect(ids(planRuns([inverse, reused, right], ["memberOf", "hasManager"]))).toEqual([[[[1], [2]]], [[[3]]]]);
  });

  it("keeps genuinely different predicates (synonyms, inverses) as separate groups that all run", () => {
    const tiers = planRuns([c(1, ["founder"], "a"), c(2, ["founders"], "b"), c(3, ["foundedBy"], "c", 1)], ["founder", "founders", "foundedBy"]);
    expect(ids(tiers)).toEqual([[[[1]], [[2]], [[3]]]]);
  });

  it("a COUNT and its plain SELECT are one wiring; ties on direction go to the better score", () => {
    const tiers = planRuns(
      [c(1, ["p"], "x", 0, "COUNT", 0.5), c(2, ["p"], "x", 0, "SELECT", 0.5), c(3, ["p"], "y", 0, "COUNT", 0.9), c(4, ["p"], "y", 0, "SELECT", 0.9)],
      ["p"],
    );
    expect(ids(tiers)).toEqual([[[[3, 4], [1, 2]]]]);
  });

  it("with the paper's fallback (no query has all its predicates selected) there is one tier", () => {
    const tiers = planRuns([c(1, ["memberOf", "hasManager"], "a"), c(2, ["memberOf", "email"], "b"), c(3, ["email"], "c")], ["memberOf"]);
    expect(ids(tiers)).toEqual([[[[1]], [[2]]]]);
    expect(planRuns([c(1, ["email"], "a")], ["nothing"])).toEqual([]);
  });
});

describe("executionAgent: wirings of one predicate", () => {
  const yate = `${RES}Yate`;
  const birthPlace = `${ONT}birthPlace`;
  async function run(triple: QirTriple) {
    const { ctx, sparql } = createTestContext({ kg: fixtureKg, llm: createScriptedLlm().gateway });
    const patch = await queryPlanningAgent(
      {
        question: "Who was born in Yate?",
        dialogue: [],
        config: DEFAULT_CONFIG,
        qir: qir([triple], "factoid", "?person"),
        vertices: { Yate: { mention: "Yate", iri: yate, label: "Yate", candidates: 1, how: "single" } },
        // the same predicate found in both directions around Yate
        relationPredicates: {
          [triple.relation]: [
            { iri: birthPlace, label: "birth place", score: 0.8, direction: "out", vertex: yate },
            { iri: birthPlace, label: "birth place", score: 0.8, direction: "in", vertex: yate },
          ],
        },
      },
      ctx,
    );
    const ran = sparql().filter((q) => q.stage === "execution" && q.purpose.startsWith("candidate"));
    return { patch, ran };
  }

  it("runs only the wiring that follows the QIR's direction when it answers", async () => {
    const { patch, ran } = await run({ subject: "?person", relation: "born in", object: "Yate" });
    expect(patch.candidates).toHaveLength(2);
    expect(ran).toHaveLength(1);
    expect(ran[0].query).toMatch(/\?person <http:\/\/[^>]+birthPlace> <[^>]+Yate>/);
    expect(patch.answerItems?.map((i) => i.value)).toEqual([`${RES}JK_Rowling`]);
  });

  it("falls back to the other wiring of the same predicate when the preferred one finds nothing", async () => {
    // the QIR states it the other way round: "Yate birthplace of ?person"; Yate has no birthPlace of its own
    const { patch, ran } = await run({ subject: "Yate", relation: "birthplace of", object: "?person" });
    expect(ran).toHaveLength(2);
    expect(patch.executed?.map((e) => e.rows)).toEqual([0, 1]);
    expect(patch.answerItems?.map((i) => i.value)).toEqual([`${RES}JK_Rowling`]);
  });
});

