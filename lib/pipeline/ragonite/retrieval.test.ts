// search_facts over verbalized facts: passages state facts in both directions and split long subjects; BM25 finds
// entities by name on the sample and music KGs; on CK25 the recall@10 of passages stating single-value gold answers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { ck25KgSpec, ck25Missing } from "@/lib/eval/ck25-scripted";
import { indexFacts, type KgFacts } from "./kg-facts";
import { readAllTriples } from "./kg-triples";
import { buildPassageIndex, type PassageIndex } from "./passage-index";
import { factSentences, verbalize, type Passage } from "./verbalize";
import { expansionFor } from "./query-expansion";
import { ck25SingleValueQuestions, jsonlSingleValueQuestions, recallAtK, type RetrievalCase } from "@/lib/eval/retrieval-recall";

async function indexOf(kg: KnowledgeGraph): Promise<{ facts: KgFacts; passages: Passage[]; index: PassageIndex }> {
  const facts = indexFacts(await readAllTriples(kg), kg.profile);
  const passages = verbalize(facts);
  return { facts, passages, index: await buildPassageIndex(passages, expansionFor(facts)) };
}

function report(kgName: string, cases: RetrievalCase[], recall: number, mode: string): void {
  for (const c of cases) console.log(`  ${c.id} ${c.hit ? `rank ${c.rank}` : "miss"}: ${c.question}`);
  console.log(`${kgName} search_facts recall@10: ${(recall * 100).toFixed(1)} % (${cases.filter((c) => c.hit).length}/${cases.length}, ${mode})`);
}

describe("verbalization", () => {
  it("writes a fact in both directions, keeping a predicate's own verb", () => {
    expect(factSentences("Dune", "author", "Frank Herbert")).toBe("Dune has author Frank Herbert. Frank Herbert is author of Dune.");
    expect(factSentences("Bolt", "has category", "Fasteners")).toBe("Bolt has category Fasteners. Fasteners is category of Bolt.");
    expect(factSentences("Daniel Radcliffe", "starred in", "Horns")).toBe("Daniel Radcliffe starred in Horns.");
  });
});

describe("passages of the sample KG", () => {
  let kg: KnowledgeGraph;
  let built: Awaited<ReturnType<typeof indexOf>>;
  beforeAll(async () => {
    kg = await openKg({ kind: "sample" });
    built = await indexOf(kg);
  }, 60_000);
  afterAll(async () => kg?.close());

  it("has a passage per subject, states types, facts, reverse facts and incoming facts, and splits long subjects", () => {
    const radcliffe = built.passages.filter((p) => p.subject === "http://example.org/chatty-kg/resource/Daniel_Radcliffe");
    const text = radcliffe.map((p) => p.text).join(" ");
    expect(text).toContain("Daniel Radcliffe is a actor.");
    expect(text).toContain("1989-07-23 is birth date of Daniel Radcliffe.");
    // a film stores the cast edge (film → actor): the actor's passages state it too
    expect(text).toMatch(/Now You See Me 2 has starring Daniel Radcliffe\.|Now You See Me 2 starring Daniel Radcliffe\./);
    expect(radcliffe.length).toBeGreaterThan(1);
    expect(radcliffe.slice(1).every((p) => p.text.startsWith("Daniel Radcliffe (continued):"))).toBe(true);
    expect(built.index.mode).toBe("bm25");
  });

  it("finds an entity's passage by its name, and a misspelled one", async () => {
    expect((await built.index.search("Daniel Radcliffe birth date", 3))[0].passage.label).toBe("Daniel Radcliffe");
    expect((await built.index.search("Hogwarts", 5)).some((h) => h.passage.label.startsWith("Hogwarts"))).toBe(true);
    expect((await built.index.search("Hogwards", 5)).some((h) => h.passage.label.startsWith("Hogwarts"))).toBe(true);
    expect(await built.index.search("the of is", 5)).toEqual([]);
  });
});

describe("passages of the music KG", () => {
  it("names tracks by the profile's unlabelled title predicate and finds a literal-valued fact", async () => {
    const profile = JSON.parse(readFileSync(path.resolve("kg/music.profile.json"), "utf8")) as Record<string, unknown>;
    const kg = await openKg({ kind: "files", paths: [path.resolve("kg/music.ttl")], profile });
    try {
      const { index } = await indexOf(kg);
      const hits = await index.search("catalogue number KS-0042", 5);
      expect(hits[0].passage.text).toContain("KS-0042");
      expect(hits[0].passage.subject.startsWith("http://example.org/tunes/id/album")).toBe(true);
      const drums = await index.search("plays drums Salt Lanterns", 10);
      expect(drums.some((h) => /Yuto Sana has plays instrument drums/.test(h.passage.text) && h.passage.text.includes("Salt Lanterns has member Yuto Sana"))).toBe(true);

      const { cases, recall } = await recallAtK(index, await jsonlSingleValueQuestions(kg, path.resolve("kg/music-questions.jsonl")), 10);
      report("music KG", cases, recall, index.mode);
      expect(cases.length).toBeGreaterThanOrEqual(5);
      expect(recall).toBeGreaterThanOrEqual(0.8);
    } finally {
      await kg.close();
    }
  }, 60_000);
});

const missing = ck25Missing();
describe.skipIf(missing !== undefined)("search_facts on CK25", () => {
  it("puts a passage stating the gold value in the top 10 for most single-value questions", async () => {
    const kg = await openKg(ck25KgSpec());
    try {
      const { index } = await indexOf(kg);
      const { cases, recall } = await recallAtK(index, ck25SingleValueQuestions(), 10);
      report("CK25", cases, recall, index.mode);
      expect(cases.length).toBeGreaterThanOrEqual(10);
      // measured 85.7 % (12/14) with BM25 alone, extreme-value passages and question expansion (71.4 % before);
      // the misses need a filter applied before ranking ("the heaviest … not exceeding 15x15 mm") or "french" → France
      expect(recall).toBeGreaterThanOrEqual(0.8);
    } finally {
      await kg.close();
    }
  }, 120_000);
});
