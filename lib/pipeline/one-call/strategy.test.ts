// The one-call strategy end to end with a scripted model on the music KG (kg/music.ttl): examples and cards in the
// prompt, a validation problem sent back and repaired, the no-answer path, and the Chat agent's routing.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { createScriptedLlm, type ScriptedReply } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DerivationEvent, type ExperienceExample, type PipelineConfig, type TurnResult } from "@/lib/pipeline/types";
import { createCardCache } from "@/lib/pipeline/common/schema-cards";
import { createOneCallStrategy } from "./strategy";

const T = "http://example.org/tunes/id/";
let music: KnowledgeGraph;
const strategy = createOneCallStrategy({ cardCache: createCardCache() });

beforeAll(async () => {
  const profile = JSON.parse(readFileSync("kg/music.profile.json", "utf8")) as Record<string, unknown>;
  music = await openKg({ kind: "files", paths: ["kg/music.ttl"], profile });
}, 60_000);
afterAll(async () => {
  await music?.close();
});

const PREFIXES = "PREFIX t: <http://example.org/tunes/id/> PREFIX tv: <http://example.org/tunes/vocab#>";
const POOL: ExperienceExample[] = [
  { id: "1", question: "Which record label released Paper Skies?", sparql: `${PREFIXES} SELECT ?label WHERE { t:album-paper-skies tv:recordLabel ?label }`, source: "import" },
  { id: "2", question: "What does Ása Lind play?", sparql: `${PREFIXES} SELECT ?instrument WHERE { t:person-Asa-Lind tv:plays ?instrument }`, source: "import" },
  { id: "3", question: "How many tracks are on Paper Skies?", sparql: `${PREFIXES} SELECT (COUNT(DISTINCT ?track) AS ?count) WHERE { ?track tv:onAlbum t:album-paper-skies }`, source: "feedback" },
];
const chat = (question: string) => ({ toolCall: { name: "ask_knowledge_graph", input: { question, language: "en", context_dependent: false } } });
const sparql = (q: string) => `\`\`\`sparql\n${q}\n\`\`\``;
const userText = (m: PlainMessage[]) => m.filter((x) => x.role === "user").map((x) => x.text).join("\n");

async function ask(question: string, oneCall: ScriptedReply[], config: Partial<PipelineConfig> = {}) {
  const llm = createScriptedLlm({ chat: [chat(question)], "one-call": oneCall });
  const gen = strategy.run(
    { question, dialogue: [], config: { ...DEFAULT_CONFIG, strategy: "one-call", ...config } },
    { kg: music, llm: llm.gateway, similarity: createLexicalSimilarity(), experience: { examples: async () => POOL } },
  );
  const events: DerivationEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  const ends = (stage: string) => events.flatMap((e) => (e.type === "stage-end" && e.stage === stage ? [e] : []));
  return { result: step.value as TurnResult, events, llm, ends };
}

describe("one-call on the music KG", () => {
  it("shows examples and cards, sends the validator's problem back, and answers from the repaired query", async () => {
    const prompts: string[] = [];
    const { result, ends, llm } = await ask("Which record label released Glass Harbour?", [
      (m) => {
        prompts.push(userText(m));
        // wrong direction: the album is the subject of tv:recordLabel
        return sparql(`${PREFIXES} SELECT ?label WHERE { ?label tv:recordLabel t:album-glass-harbour }`);
      },
      (m) => {
        prompts.push(userText(m));
        return sparql(`${PREFIXES} SELECT ?label WHERE { t:album-glass-harbour tv:recordLabel ?label }`);
      },
    ]);
    expect(result.source).toBe("kg");
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "uri", value: `${T}label-Lumen-Lane`, label: "Lumen Lane" }] });
    expect(result.sparql[0]).toContain("t:album-glass-harbour tv:recordLabel ?label");
    // the prompt: the closest solved question first, the Album card with its record-label predicate
    expect(prompts[0]).toMatch(/Example 1 \(similarity [\d.]+\)\. Question: Which record label released Paper Skies\?/);
    expect(prompts[0]).toMatch(/Class tv:Album "album" \(23 instances\)\n(.*\n)*\s+tv:recordLabel → tv:RecordLabel/);
    // the repair call carries the concrete problem
    expect(prompts[1]).toMatch(/Its problems:\n- Nothing matches .*it holds the other way round: swap its subject and object/);
    const retrieval = ends("retrieval")[0];
    expect(retrieval.summary).toMatch(/1 solved example\(s\) of 3 by BM25; \d+ of \d+ schema card\(s\)/);
    expect((retrieval.output as { examples: { similarity: number }[] }).examples[0].similarity).toBeGreaterThan(0);
    const generations = ends("query-generation");
    expect(generations.map((g) => g.summary)).toEqual([expect.stringMatching(/^Attempt 1\/4: 1 problem\(s\): Nothing matches/), "Attempt 2/4 (repair): valid"]);
    expect(llm.calls.filter((c) => c.role === "one-call")).toHaveLength(2);
  });

  it("repairs a query whose predicate does not exist, naming the closest ones from the cards", async () => {
    const { result, ends } = await ask("When was Glass Harbour released?", [
      sparql(`${PREFIXES} SELECT ?d WHERE { t:album-glass-harbour tv:releasedOn ?d }`),
      (m) => {
        expect(userText(m)).toMatch(/Predicate tv:releasedOn is not used in the KG\. Similar predicates: tv:releaseDate/);
        return sparql(`${PREFIXES} SELECT ?d WHERE { t:album-glass-harbour tv:releaseDate ?d }`);
      },
    ]);
    expect(ends("query-generation")[0].summary).toMatch(/tv:releasedOn is not used/);
    // the cards were built by the first turn on this KG and are reused
    expect(ends("retrieval")[0].summary).toMatch(/schema card\(s\), ≈\d+ tokens \(cached\)/);
    expect(result.answer).toMatchObject({ kind: "items", items: [{ type: "literal", value: "2014-10-02" }] });
  });

  it("says the KG has no answer when every attempt finds no rows, after the configured repairs", async () => {
    // every pattern matches on its own and in pairs (the validator passes it); the filter leaves nothing
    const none = sparql(`${PREFIXES} PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT ?a WHERE { ?a tv:recordLabel ?l . ?a tv:releaseDate ?d FILTER(?d > "2100-01-01"^^xsd:date) }`);
    const { result, ends, llm } = await ask("Which albums will come out after 2100?", [none, none], { oneCallRepairs: 1 });
    expect(result.source).toBe("none");
    expect(result.answer).toMatchObject({ kind: "none", reason: expect.stringMatching(/^The KG has no answer to this question: no query in 2 attempt\(s\)/) });
    expect(ends("execution").map((e) => e.summary)).toEqual([expect.stringMatching(/returned no rows/), expect.stringMatching(/returned no rows/)]);
    // the final query stays in the query panel (it can be edited and re-run)
    expect(result.sparql[0]).toContain("2100-01-01");
    expect(llm.calls.filter((c) => c.role === "one-call")).toHaveLength(2);
  });

  it("refuses a pattern nothing matches before running it", async () => {
    const bad = sparql(`${PREFIXES} SELECT ?a WHERE { ?a tv:recordLabel ?l . ?l tv:basedIn "Atlantis" }`);
    const { result, ends } = await ask("Which albums came out on labels based in Atlantis?", [bad], { oneCallRepairs: 0 });
    expect(ends("query-generation")[0].summary).toMatch(/Nothing in the KG matches \?l tv:basedIn "Atlantis"/);
    expect(ends("execution")).toHaveLength(0);
    expect(result.answer).toMatchObject({ kind: "none" });
  });

  it("answers about the conversation without touching the KG", async () => {
    const llm = createScriptedLlm({ chat: ["Hello! Ask me about the music KG."] });
    const gen = strategy.run({ question: "hi", dialogue: [], config: { ...DEFAULT_CONFIG, strategy: "one-call" } }, { kg: music, llm: llm.gateway, similarity: createLexicalSimilarity() });
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    expect(step.value.source).toBe("conversation");
  });
});
