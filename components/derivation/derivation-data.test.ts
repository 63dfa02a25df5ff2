// Derivation readers: candidates per mention with the chosen vertex, predicate rankings, which queries ran, QIR layout.
import { describe, expect, it } from "vitest";
import type { DerivationEvent, Stage } from "@/lib/pipeline/types";
import { USER_CHOICE_TOOL } from "@/lib/pipeline/corrections";
import { clip, correctionMarks, entityCandidates, layoutQir, predicateChoices, predicateRankings, queryRuns, runOf } from "./derivation-data";
import { groupByStage } from "./group-events";

const R = "http://x/";
const search = (mention: string, top: { iri: string; label: string; score: number }[], count = top.length): DerivationEvent => ({
  type: "tool-call",
  stage: "entity-linking",
  tool: "label-search",
  input: { mention, limit: 600 },
  output: { count, top },
});

describe("entityCandidates", () => {
  it("lists each mention's top candidates and marks the chosen vertex", () => {
    const details = [
      search("Daniel Radcliffe", [
        { iri: `${R}Daniel_Radcliffe_(engineer)`, label: "Daniel Radcliffe", score: 1 },
        { iri: `${R}Daniel_Radcliffe`, label: "Daniel Radcliffe", score: 1 },
      ], 14),
      search("Harry Potter", [{ iri: `${R}Harry_Potter`, label: "Harry Potter", score: 1 }]),
    ];
    const vertices = {
      "Daniel Radcliffe": { mention: "Daniel Radcliffe", iri: `${R}Daniel_Radcliffe`, label: "Daniel Radcliffe", candidates: 14, how: "llm" },
      "Harry Potter": { mention: "Harry Potter", iri: `${R}Harry_Potter`, label: "Harry Potter", candidates: 1, how: "single" },
    };
    const m = entityCandidates(details, vertices);
    expect(m.map((x) => x.mention)).toEqual(["Daniel Radcliffe", "Harry Potter"]);
    expect(m[0].count).toBe(14);
    expect(m[0].top).toHaveLength(2);
    expect(m[0].chosen?.iri).toBe(`${R}Daniel_Radcliffe`);
    expect(m[1].chosen?.how).toBe("single");
  });

  it("takes the KG lexicon's candidates when the label search found none, with the name each matched", () => {
    const lexicon: DerivationEvent = {
      type: "tool-call",
      stage: "entity-linking",
      tool: "lexicon-search",
      input: { mention: "Marigold Lantern", limit: 600 },
      output: { count: 1, top: [{ iri: "urn:uuid:1", label: "Marigold Lantern", score: 1, matched: { name: "Marigold Lantern", via: "lt:callName" } }] },
    };
    const m = entityCandidates([search("Marigold Lantern", []), lexicon], undefined);
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({ count: 1, top: [{ iri: "urn:uuid:1", matched: { name: "Marigold Lantern", via: "lt:callName" } }] });
  });

  it("shows candidates before the stage ends (no chosen yet), and a failed search as an error", () => {
    const failed: DerivationEvent = { type: "tool-call", stage: "entity-linking", tool: "label-search", input: { mention: "X" }, error: "endpoint down" };
    const m = entityCandidates([search("A", [{ iri: `${R}A`, label: "A", score: 0.5 }]), failed], undefined);
    expect(m[0]).toMatchObject({ mention: "A", count: 1 });
    expect(m[0].chosen).toBeUndefined();
    expect(m[1]).toMatchObject({ mention: "X", error: "endpoint down", top: [] });
  });

  it("adds a vertex linked from the dialogue (no search) and ignores malformed events", () => {
    const junk: DerivationEvent[] = [
      { type: "tool-call", stage: "entity-linking", tool: "label-search", input: "nope" },
      { type: "tool-call", stage: "entity-linking", tool: "label-search", input: { mention: "B" }, output: { top: [{ label: "no iri" }, 5] } },
      { type: "tool-call", stage: "entity-linking", tool: "other", input: { mention: "C" } },
    ];
    const m = entityCandidates(junk, { he: { mention: "he", iri: `${R}D`, label: "D", candidates: 0, how: "context" } });
    expect(m.map((x) => x.mention)).toEqual(["B", "he"]);
    expect(m[0].top).toEqual([]);
    expect(m[1]).toMatchObject({ top: [], chosen: { how: "context" } });
    // an output that is not a vertex map is not trusted
    expect(entityCandidates([], { a: { iri: 5 } })).toEqual([]);
  });
});

describe("predicateRankings", () => {
  it("reads each rank-predicates call with its context", () => {
    const e: DerivationEvent = {
      type: "tool-call",
      stage: "relation-linking",
      tool: "rank-predicates",
      input: { relation: "birth date", around: `${R}Daniel_Radcliffe`, candidates: 12, similarity: "lexical" },
      output: [
        { label: "birth date", iri: `${R}birthDate`, direction: "out", score: 0.98 },
        { label: "death date", iri: `${R}deathDate`, direction: "in", score: 0.4 },
        { nope: true },
      ],
    };
    const [r] = predicateRankings([e, { type: "warning", stage: "relation-linking", message: "w" }]);
    expect(r).toMatchObject({ relation: "birth date", around: `${R}Daniel_Radcliffe`, candidates: 12, similarity: "lexical" });
    expect(r.ranked).toEqual([
      { label: "birth date", iri: `${R}birthDate`, direction: "out", score: 0.98 },
      { label: "death date", iri: `${R}deathDate`, direction: "in", score: 0.4 },
    ]);
  });
});

describe("queryRuns", () => {
  const q1 = { id: 1, sparql: "SELECT ?a WHERE { <x> <p> ?a }" };
  const q2 = { id: 2, sparql: "SELECT ?a WHERE { <x> <q> ?a }" };
  it("marks candidates from streamed execution sparql events, by query text", () => {
    const runs = queryRuns([{ type: "sparql", stage: "execution", purpose: "candidate #1 (SELECT)", query: ` ${q1.sparql}\n`, ms: 3, rows: 2 }]);
    expect(runOf(q1, runs)).toEqual({ rows: 2, ms: 3, error: undefined });
    expect(runOf(q2, runs)).toBeUndefined();
  });
  it("uses the execution output by id once the stage ended, errors included", () => {
    const runs = queryRuns([
      { type: "sparql", stage: "relation-linking", purpose: "predicates", query: q2.sparql, ms: 1, rows: 9 },
      { type: "stage-end", stage: "execution", at: 1, ms: 1, summary: "", output: [{ ...q2, rows: 0, ms: 4, error: "timeout" }] },
    ]);
    expect(runOf(q2, runs)).toEqual({ rows: 0, ms: 4, error: "timeout" });
    expect(runOf(q1, runs)).toBeUndefined();
  });
});

describe("layoutQir", () => {
  it("puts a chain left to right and marks entities, variables and the target", () => {
    const g = layoutQir({
      triples: [
        { subject: "Harry Potter and the Philosopher's Stone", relation: "main character", object: "?character" },
        { subject: "?character", relation: "portrayed by", object: "?actor" },
      ],
      target: "?actor",
    });
    expect(g.nodes.map((n) => [n.id, n.kind, n.target])).toEqual([
      ["Harry Potter and the Philosopher's Stone", "entity", false],
      ["?character", "variable", false],
      ["?actor", "variable", true],
    ]);
    const xs = g.nodes.map((n) => n.x);
    expect(xs[0]).toBeLessThan(xs[1]);
    expect(xs[1]).toBeLessThan(xs[2]);
    expect(g.edges.map((e) => e.label)).toEqual(["main character", "portrayed by"]);
    expect(g.width).toBeGreaterThanOrEqual(Math.max(...xs));
  });

  it("stacks two entities pointing at one variable in the same column, and lanes parallel edges", () => {
    const g = layoutQir({
      triples: [
        { subject: "A", relation: "r", object: "?x" },
        { subject: "B", relation: "s", object: "?x" },
        { subject: "A", relation: "t", object: "?x" },
      ],
    });
    const [a, x, b] = g.nodes;
    expect(a.x).toBe(b.x);
    expect(a.y).not.toBe(b.y);
    expect(x.x).toBeGreaterThan(a.x);
    expect(g.edges.map((e) => e.lane)).toEqual([0, 0, 1]);
    expect(g.height).toBeGreaterThanOrEqual(b.y);
  });

  it("terminates on cycles and handles an empty QIR", () => {
    const g = layoutQir({ triples: [{ subject: "?a", relation: "r", object: "?b" }, { subject: "?b", relation: "s", object: "?a" }] });
    expect(g.nodes).toHaveLength(2);
    expect(layoutQir({ triples: [] }).nodes).toEqual([]);
  });

  it("clips long labels with an ellipsis", () => {
    expect(clip("short")).toBe("short");
    expect(clip("Harry Potter and the Philosopher's Stone", 10)).toBe("Harry Pot…");
  });
});

describe("corrections in the derivation", () => {
  const end = (stage: Stage, output: unknown): DerivationEvent => ({ type: "stage-end", stage, at: 1, ms: 1, summary: "", output });
  it("marks the cards before the user's choice as kept and the choice's card as corrected", () => {
    const groups = groupByStage([
      end("qir", {}),
      { type: "tool-call", stage: "entity-linking", tool: "label-search", input: { mention: "X" } },
      { type: "tool-call", stage: "entity-linking", tool: USER_CHOICE_TOOL, input: {} },
      end("entity-linking", {}),
      end("relation-linking", {}),
    ]);
    const marks = correctionMarks(groups);
    expect(marks.decided).toBe("entity-linking");
    expect([...marks.kept]).toEqual(["qir"]);
    expect(correctionMarks(groupByStage([end("qir", {})]))).toEqual({ kept: new Set() });
  });

  it("lists the candidates' predicates once, labelled from relation linking, with the selected ones", () => {
    const events = [
      end("relation-linking", { "starred in": [{ iri: "http://o/starring", label: "starring" }, { iri: "http://o/starredIn", label: "starred in" }] }),
      end("query-generation", [
        { id: 1, sparql: "S", kind: "SELECT", predicates: ["http://o/starredIn"], score: 1 },
        { id: 2, sparql: "S", kind: "SELECT", predicates: ["http://o/starring"], score: 1 },
        { id: 3, sparql: "S", kind: "SELECT", predicates: ["http://o/starring", "http://o/other"], score: 1 },
      ]),
      end("query-selection", ["http://o/starring"]),
    ];
    expect(predicateChoices(events)).toEqual([
      { iri: "http://o/starredIn", label: "starred in", selected: false },
      { iri: "http://o/starring", label: "starring", selected: true },
      { iri: "http://o/other", label: "other", selected: false },
    ]);
    expect(predicateChoices([])).toEqual([]);
  });
});

describe("installation notes and long IRIs", () => {
  it("takes warnings about the installation out of the turns, once each (also from turns stored before the code)", async () => {
    const { isSetupWarning, setupNotesOf } = await import("./derivation-data");
    const setup = { type: "warning", stage: "relation-linking", code: "setup", message: 'Embedding model "m" could not be loaded: no file. Using lexical similarity instead.' } as const;
    const old = { type: "warning", stage: "relation-linking", message: 'Embedding model "m" could not be loaded: no file.' } as const;
    const budget = { type: "warning", stage: "execution", code: "budget", message: "The KG budget is spent." } as const;
    expect(setupNotesOf([[setup, budget], [setup], [old]])).toEqual([setup.message, old.message]);
    expect(isSetupWarning(budget)).toBe(false);
  });

  it("cuts an IRI in the middle, keeping its start and its local name", async () => {
    const { middleTruncate } = await import("./derivation-data");
    const iri = "http://example.org/chatty-kg/resource/Daniel_Radcliffe_engineer";
    const cut = middleTruncate(iri, 32);
    expect(cut).toHaveLength(32);
    expect(cut.startsWith("http://exam")).toBe(true);
    expect(cut.endsWith("Radcliffe_engineer")).toBe(true);
    expect(middleTruncate("short", 32)).toBe("short");
  });
});
