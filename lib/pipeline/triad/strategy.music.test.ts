// Triad end to end on the second KG (kg/music.ttl, modelled unlike the sample KG) with a scripted model: a name the
// KG holds as a literal, an edge the template wrote in the other direction, a two-hop chain through an offer node, and
// an unparsable template retried. Expected answers are the gold queries of kg/music-questions.jsonl run on the KG.
import { describe, expect, it } from "vitest";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import type { Answer } from "@/lib/pipeline/types";
import { askKg, musicKg, optionNumbers, runTriad, summaries } from "@/test/fixtures/kg/triad-harness";
import { readJsonl } from "@/lib/eval/datasets/jsonl";
import path from "node:path";

const kg = musicKg();
const gold = new Map(readJsonl(path.join(process.cwd(), "kg/music-questions.jsonl")).map((i) => [i.id, i.goldSparql!]));
const userText = (m: PlainMessage[]) => m.filter((x) => x.role === "user").at(-1)?.text ?? "";

/** The gold query's answer values (first column), as the KG returns them. */
async function goldValues(id: string): Promise<string[]> {
  const r = await kg.select(gold.get(id)!);
  return r.results.bindings.map((b) => Object.values(b)[0].value).sort();
}

const values = (a: Answer) => (a.kind === "items" ? a.items.map((i) => i.value).sort() : a.kind === "count" ? [String(a.count)] : []);

describe("Triad on the music KG", () => {
  it("fills a slot the KG holds as a plain value with the literal (countries are literals here), and counts", async () => {
    const { result, llm, events } = await runTriad(kg, "How many bands are from Iceland?", {
      chat: [askKg("How many bands are from Iceland?")],
      generalist: [
        {
          triplets: [["?band", "type", "band"], ["?band", "from", "Iceland"]],
          slots: { e0: "band", e1: "Iceland", r0: "from" },
          template: "SELECT (COUNT(DISTINCT ?band) AS ?count) WHERE { ?band a <e0> ; <r0> <e1> . }",
          answer_type: "count",
        },
      ],
    });
    expect(result.source).toBe("kg");
    expect(result.answer).toEqual({ kind: "count", count: Number((await goldValues("m03"))[0]) });
    expect(result.sparql[0]).toContain('<http://example.org/tunes/vocab#originCountry> "Iceland"');
    // "band" names the class only; "Iceland" no vertex, so its literal is the one option; the relation found between the
    // class members and the literal is a single predicate: no D-agent call was needed
    expect(summaries(events).find((l) => l.startsWith("entity-linking:"))).toContain('<e1> "Iceland" → the text "Iceland" as a value (0 found)');
    expect(llm.calls.map((c) => c.role)).toEqual(["chat", "generalist"]);
  });

  it("reads an edge the other way when the KG holds it so (the template's direction is not the KG's)", async () => {
    const { result, events } = await runTriad(kg, "Which albums did Mira Solberg release?", {
      chat: [askKg("Which albums did Mira Solberg release?")],
      generalist: [
        {
          triplets: [["Mira Solberg", "released", "?album"]],
          slots: { e0: "Mira Solberg", r0: "released" },
          template: "SELECT DISTINCT ?album WHERE { <e0> <r0> ?album . }",
          answer_type: "entities",
        },
      ],
      decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t === "performer (reversed)") } } })],
    });
    expect(values(result.answer)).toEqual(await goldValues("m02"));
    expect(result.sparql[0]).toContain("?album <http://example.org/tunes/vocab#performer> <http://example.org/tunes/id/artist/Mira%20Solberg>");
    expect(summaries(events).find((l) => l.startsWith("relation-linking:"))).toContain('<r0> "released" → performer (reversed)');
  });

  it("links a chain of relations one hop at a time from the named entity (label → album → offer → price)", async () => {
    const seen: string[] = [];
    const pick = (slot: string, label: string) => (m: PlainMessage[]) => {
      seen.push(slot);
      return { json: { choices: { [slot]: optionNumbers(m, slot, (t) => t === label) } } };
    };
    const { result } = await runTriad(kg, "What is the average price of the offers for albums on Lumen Lane?", {
      chat: [askKg("What is the average price of the offers for albums on Lumen Lane?")],
      generalist: [
        {
          triplets: [["?album", "on label", "Lumen Lane"], ["?album", "offer", "?offer"], ["?offer", "price", "?price"]],
          slots: { e0: "Lumen Lane", r0: "on label", r1: "offer", r2: "price" },
          template: "SELECT (AVG(?price) AS ?avg) WHERE { ?album <r0> <e0> ; <r1> ?offer . ?offer <r2> ?price . }",
          answer_type: "value",
        },
      ],
      decider: [pick("r0", "record label"), pick("r1", "offer"), pick("r2", "price")].map((f, i) => (m: PlainMessage[]) => {
        // one slot per round: r1 is reached only through r0's predicate, r2 only through r1's
        expect(userText(m)).toContain(`Slot r${i}:`);
        expect(userText(m)).not.toContain(`Slot r${i + 1}:`);
        return f(m);
      }),
    });
    expect(seen).toEqual(["r0", "r1", "r2"]);
    expect(result.source).toBe("kg");
    const avg = result.answer.kind === "items" ? Number(result.answer.items[0].value) : NaN;
    expect(avg).toBeCloseTo(Number((await goldValues("m05"))[0]), 6);
  });

  it("retries a template that names a real IRI, telling the model to use a slot, and links the corrected one", async () => {
    const { result, events } = await runTriad(kg, "Who is the drummer of Brass Meridian?", {
      chat: [askKg("Who is the drummer of Brass Meridian?")],
      generalist: [
        {
          triplets: [["Brass Meridian", "member", "?m"]],
          slots: { e0: "Brass Meridian" },
          template: "SELECT ?m WHERE { <e0> <http://example.org/tunes/vocab#member> ?m }",
          answer_type: "entities",
        },
        (m) => {
          expect(userText(m)).toContain("names the IRI <http://example.org/tunes/vocab#member>: replace it with a slot");
          return {
            json: {
              triplets: [["Brass Meridian", "member", "?m"], ["?m", "plays", "drums"]],
              slots: { e0: "Brass Meridian", e1: "drums", r0: "member", r1: "plays" },
              template: "SELECT DISTINCT ?m WHERE { <e0> <r0> ?m . ?m <r1> <e1> . }",
              answer_type: "entities",
            },
          };
        },
      ],
      decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t === "member") } } })],
    });
    expect(values(result.answer)).toEqual(await goldValues("d2.0"));
    const g = events.flatMap((e) => (e.type === "llm-call" && e.call.role === "generalist" ? [e.call.validationError ?? "ok"] : []));
    expect(g).toEqual([expect.stringContaining("replace it with a slot"), "ok"]);
  });

  const NOWHERE = {
    triplets: [["?venue", "hosted", "Moon Choir"]],
    slots: { e0: "Moon Choir", r0: "hosted" },
    template: "SELECT DISTINCT ?venue WHERE { ?venue <r0> <e0> . }",
    answer_type: "entities",
  };

  it("finds no candidate with rows, retries, and without the switch says the KG has no answer", async () => {
    const { result, llm } = await runTriad(
      kg,
      "Which venue hosted the Moon Choir?",
      { chat: [askKg("Which venue hosted the Moon Choir?")], generalist: [NOWHERE, NOWHERE, NOWHERE] },
      { config: { triadRetries: 2 } },
    );
    expect(result.source).toBe("none");
    expect(result.answer).toMatchObject({ kind: "none", reason: expect.stringContaining("after 3 attempts") });
    expect(llm.calls.filter((c) => c.role === "generalist")).toHaveLength(3);
    expect(llm.calls.some((c) => c.role === "advisor")).toBe(false);
  });

  it("with the switch on, the A-agent answers from the model's knowledge after the retries, labelled as not from the KG", async () => {
    const { result, events } = await runTriad(
      kg,
      "Which venue hosted the Moon Choir?",
      {
        chat: [askKg("Which venue hosted the Moon Choir?")],
        generalist: [NOWHERE, NOWHERE],
        advisor: [(m) => (expect(userText(m)).toContain("Question: Which venue hosted the Moon Choir?"), { json: { answers: ["Aurora Hall"], type: "list" } })],
      },
      { config: { triadRetries: 1, allowModelKnowledge: true } },
    );
    expect(result).toMatchObject({ source: "llm", answer: { kind: "items", items: [{ type: "literal", value: "Aurora Hall" }] }, sparql: [] });
    expect(summaries(events).at(-2)).toMatch(/^answer: A-agent \(advisor\): answer from the model's own knowledge, not from the KG/);
  });
});
