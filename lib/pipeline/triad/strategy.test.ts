// Triad end to end on the sample KG with a scripted model: every role on the happy path, an unparsable template retried
// with the parser's message, and no candidate with rows → the A-agent's retries → a labelled model-knowledge answer
// only when allowModelKnowledge is on.
import { describe, expect, it } from "vitest";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { askKg, candidateNumbers, optionNumbers, runTriad, SAMPLE_ONT, SAMPLE_RES, sampleKg, summaries } from "@/test/fixtures/kg/triad-harness";

const kg = sampleKg();
const userText = (m: PlainMessage[]) => m.filter((x) => x.role === "user").at(-1)?.text ?? "";

const BORN = {
  triplets: [["Daniel Radcliffe", "born in", "?place"]],
  slots: { e0: "Daniel Radcliffe", r0: "born in" },
  template: "SELECT DISTINCT ?place WHERE { <e0> <r0> ?place . }",
  answer_type: "entities",
};

describe("Triad on the sample KG", () => {
  it("answers through the G-, D- and A-agent: template, the predicate, a choice between two same-named people by their rows", async () => {
    const { result, events, llm } = await runTriad(kg, "Where was Daniel Radcliffe born?", {
      chat: [askKg("Where was Daniel Radcliffe born?")],
      generalist: [BORN],
      // both vertices labelled "Daniel Radcliffe" (the actor and the invented engineer) are within K: no entity call
      decider: [
        (m) => {
          expect(userText(m)).toContain('Slot r0: "born in" — in the template: "Daniel Radcliffe" <r0> ?place');
          return { json: { choices: { r0: optionNumbers(m, "r0", (t) => t === "birth place") } } };
        },
        // two candidates with different rows (London, Manchester), told apart by their type hints
        (m) => {
          const text = userText(m);
          expect(text).toMatch(/Returned: 1 row, e\.g\. "London"/);
          expect(text).toMatch(/Returned: 1 row, e\.g\. "Manchester"/);
          return { json: { choice: candidateNumbers(m, (f) => /type: [^;]*\bactor\b/.test(f.e0))[0] } };
        },
      ],
    });
    expect(result.error).toBeUndefined();
    expect(result.source).toBe("kg");
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "uri", value: `${SAMPLE_RES}London`, label: "London" }] });
    expect(result.sparql).toEqual([`SELECT DISTINCT ?place WHERE { <${SAMPLE_RES}Daniel_Radcliffe> <${SAMPLE_ONT}birthPlace> ?place. }\nLIMIT 1000`]);
    expect(llm.calls.map((c) => c.role)).toEqual(["chat", "generalist", "decider", "decider"]);
    const lines = summaries(events);
    expect(lines.find((l) => l.startsWith("qir:"))).toContain("G-agent (generalist): entities question, template SELECT DISTINCT ?place");
    expect(lines.find((l) => l.startsWith("entity-linking:"))).toContain('D-agent (decision maker), entities: <e0> "Daniel Radcliffe" → Daniel Radcliffe, Daniel Radcliffe (2 found)');
    expect(lines.find((l) => l.startsWith("execution:"))).toBe("execution: Executor: 2 candidate queries run, 2 with rows");
    expect(lines.find((l) => l.startsWith("answer:"))).toMatch(/^answer: A-agent \(advisor\): answer from the rows of candidate \d+: 1 item: London$/);
    // the G-agent saw N = 3 of the project's default examples (no profile examples, no pool)
    const system = llm.calls[1].messages.find((m) => m.role === "system")?.text ?? "";
    expect(system).toContain("Example 3");
    expect(system).not.toContain("Example 4");
  });

  it("shows the G-agent the KG's experience pool: a solved question of this KG comes first among its examples", async () => {
    const solved = { id: "x1", question: "Where was Emma Watson born?", sparql: `SELECT ?p WHERE { <${SAMPLE_RES}Emma_Watson> <${SAMPLE_ONT}birthPlace> ?p }`, source: "feedback" as const };
    let asked = "";
    const { result, llm } = await runTriad(kg, "Where was Daniel Radcliffe born?", {
      chat: [askKg("Where was Daniel Radcliffe born?")],
      generalist: [BORN],
      decider: [
        (m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t === "birth place") } } }),
        (m) => ({ json: { choice: candidateNumbers(m, (f) => /type: [^;]*\bactor\b/.test(f.e0))[0] } }),
      ],
    }, { experience: { examples: async (kgId) => ((asked = kgId), [solved]) } });
    expect(result.source).toBe("kg");
    expect(asked).toBe(kg.info.id);
    const system = llm.calls[1].messages.find((m) => m.role === "system")?.text ?? "";
    // the pool's question, as a template named by the KG's labels, is Example 1; the defaults fill up to N = 3
    expect(system).toMatch(/Example 1[\s\S]*Where was Emma Watson born\?/);
    expect(system.indexOf("Emma Watson born")).toBeLessThan(system.indexOf("Example 2"));
    expect(system).toContain("Example 3");
    expect(system).not.toContain("Example 4");
  });

  it("lets the D-agent keep up to K of many label matches, with type hints for the same-named ones", async () => {
    const { result, llm } = await runTriad(kg, "Who is the author of Harry Potter?", {
      chat: [askKg("Who is the author of Harry Potter?")],
      generalist: [{ triplets: [["Harry Potter", "author", "?author"]], slots: { e0: "Harry Potter", r0: "author" }, template: "SELECT DISTINCT ?author WHERE { <e0> <r0> ?author . }", answer_type: "entities" }],
      decider: [
        (m) => {
          const series = optionNumbers(m, "e0", (t) => /^Harry Potter — type: book series/.test(t));
          expect(series).toHaveLength(1);
          expect(optionNumbers(m, "e0", (t) => /^Harry Potter — type: fictional character/.test(t))).toHaveLength(1);
          return { json: { choices: { e0: series } } };
        },
        (m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t === "author") } } }),
      ],
    });
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "uri", value: `${SAMPLE_RES}J_K_Rowling`, label: "J. K. Rowling" }] });
    expect(llm.calls.map((c) => c.role)).toEqual(["chat", "generalist", "decider", "decider"]);
  });

  it("sends an unparsable template back with the parser's message, and uses the corrected one", async () => {
    const { result, events, llm } = await runTriad(kg, "Which films did Chris Columbus direct?", {
      chat: [askKg("Which films did Chris Columbus direct?")],
      generalist: [
        { ...BORN, slots: { e0: "Chris Columbus", r0: "director" }, template: "SELECT ?film WHERE { ?film <r0> <e0> " },
        (m) => {
          expect(userText(m)).toMatch(/Parse error on line 1[\s\S]*Expecting one of/);
          return { json: { ...BORN, slots: { e0: "Chris Columbus", r0: "director" }, template: "SELECT DISTINCT ?film WHERE { ?film <r0> <e0> . }" } };
        },
      ],
      decider: [
        (m) => ({ json: { choices: { e0: optionNumbers(m, "e0", (t) => t.startsWith("Chris Columbus —") && t.includes("director")) } } }),
        (m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t === "director") } } }),
      ],
    });
    expect(result.source).toBe("kg");
    expect(result.answer.kind).toBe("items");
    const films = result.answer.kind === "items" ? result.answer.items.map((i) => i.value) : [];
    expect(films).toContain(`${SAMPLE_RES}Harry_Potter_and_the_Philosophers_Stone_film`);
    const rejected = events.flatMap((e) => (e.type === "llm-call" && e.call.role === "generalist" ? [e.call.validationError] : []));
    expect(rejected[0]).toMatch(/does not parse/);
    expect(rejected[1]).toBeUndefined();
    expect(llm.calls.filter((c) => c.role === "generalist")).toHaveLength(2);
  });

  const MAYOR = {
    triplets: [["Hogsmeade", "mayor", "?mayor"]],
    slots: { e0: "Hogsmeade", r0: "mayor" },
    template: "SELECT ?mayor WHERE { <e0> <r0> ?mayor . }",
    answer_type: "entities",
  };
  // the D-agent finds no predicate meaning "mayor" around Hogsmeade, on every attempt
  const noMayor = { json: { choices: { r0: [] } } };

  it("retries the earlier phases T times when nothing fits, then says the KG has no answer (no model-knowledge call when off)", async () => {
    let poolReads = 0;
    const { result, events, llm } = await runTriad(
      kg,
      "Who is the mayor of Hogsmeade?",
      {
        chat: [askKg("Who is the mayor of Hogsmeade?")],
        generalist: [
          MAYOR,
          (m) => {
            expect(userText(m)).toMatch(/Earlier attempts found no answer in the KG:\n- Attempt 1: SELECT \?mayor[\s\S]*no KG predicate fits "mayor"/);
            return { json: { ...MAYOR, slots: { e0: "Hogsmeade", r0: "head of the village" } } };
          },
        ],
        decider: [noMayor, noMayor],
      },
      { config: { triadRetries: 1, allowModelKnowledge: false }, experience: { examples: async () => (poolReads++, []) } },
    );
    // the second round's G-agent reuses the turn's examples: the experience pool is read once
    expect(poolReads).toBe(1);
    expect(llm.calls.filter((c) => c.role === "generalist")).toHaveLength(2);
    expect(result.source).toBe("none");
    expect(result.answer).toMatchObject({ kind: "none", reason: expect.stringMatching(/KG has no answer .*after 2 attempts/) });
    expect(llm.calls.some((c) => c.role === "advisor")).toBe(false);
    const answers = summaries(events).filter((l) => l.startsWith("answer:"));
    expect(answers[0]).toContain("retry signal to the G- and D-agent (retry 1 of 1)");
    expect(answers[1]).toContain("The KG has no answer");
  });

  it("answers from the model's own knowledge only when allowModelKnowledge is on, with source llm and labelled not from the KG", async () => {
    const { result, events, llm } = await runTriad(
      kg,
      "Who is the mayor of Hogsmeade?",
      {
        chat: [askKg("Who is the mayor of Hogsmeade?")],
        generalist: [MAYOR],
        decider: [noMayor],
        advisor: [
          (m) => {
            expect(userText(m)).toContain("Who is the mayor of Hogsmeade?");
            return { json: { answers: ["Aberforth Dumbledore"], type: "list" } };
          },
        ],
      },
      { config: { triadRetries: 0, allowModelKnowledge: true } },
    );
    expect(result.source).toBe("llm");
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "literal", value: "Aberforth Dumbledore" }] });
    expect(result.sparql).toEqual([]);
    expect(llm.calls.at(-1)?.role).toBe("advisor");
    expect(summaries(events).find((l) => l.startsWith("answer:"))).toContain("answer from the model's own knowledge, not from the KG");
    // the Chat agent is told too, so it never presents the answer as a KG fact
    const tool = events.find((e) => e.type === "tool-call" && e.stage === "chat");
    expect(tool).toMatchObject({ output: { summary: expect.stringContaining("(not from the KG)") } });
  });
});
