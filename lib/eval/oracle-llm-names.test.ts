// The question-grounded Chatty-KG oracle on a KG whose entities are urn:uuid IRIs named only in a custom predicate:
// it finds the question's span of an entity by the KG's own name for it, or by the start of its id, and picks the
// option the pipeline shows by another name; the pipeline links such a mention (the lexicon) and answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { getStrategy } from "@/lib/pipeline/registry";
import { DEFAULT_CONFIG, type PipelineConfig } from "@/lib/pipeline/types";
import { groundQir } from "./oracle-grounded-qir";
import { createOracleLog } from "./oracle-grounding";
import { oracleQir, parseGold, type OracleKgFacts } from "./oracle-llm";
import { createGroundedOracleLlm } from "./oracle-llm-grounded";
import { nameSpan } from "./oracle-llm-names";
import type { BenchmarkItem } from "./types";

const LS = "http://example.org/lightships/";
const OUTER_ROADS = "urn:uuid:5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/lexicon/custom-names.ttl"] });
}, 60_000);
afterAll(async () => kg?.close());

const gold = `PREFIX ls: <${LS}> SELECT ?x WHERE { ?x a ls:Lightship ; ls:mooredAt <${OUTER_ROADS}> . }`;
const item = (question: string): BenchmarkItem => ({ id: question, question, goldSparql: gold });

async function ask(question: string) {
  const config: PipelineConfig = { ...DEFAULT_CONFIG, strategy: "chatty-kg" };
  const llm = await createGroundedOracleLlm(item(question), kg);
  const gen = getStrategy("chatty-kg").run({ question, dialogue: [], config }, { kg, llm, similarity: createLexicalSimilarity() });
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  const answer = step.value.answer;
  return { iris: answer.kind === "items" ? answer.items.map((i) => i.value).sort() : [], log: llm.oracleLog };
}

describe("nameSpan", () => {
  it("finds a whole name in the question, or an id by its start where the id breaks", () => {
    expect(nameSpan(["Outer Roads", "AN-0001"], "Which lightships are moored at outer roads?")).toBe("outer roads");
    expect(nameSpan(["5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d"], "Which lightships are moored at 5a6b7c8d?")).toBe("5a6b7c8d");
    // not where the id goes on, not a short word, not a word without a digit
    expect(nameSpan(["5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d"], "moored at 5a6b7c?")).toBeNull();
    expect(nameSpan(["abcdefgh-1234"], "moored at abcdefgh?")).toBeNull();
  });
});

describe("the question-grounded Chatty-KG oracle names entities the way the KG does", () => {
  const moored = ["urn:uuid:0b9e6c3a-1f2d-4a5b-8c7d-9e0f1a2b3c4d", "urn:uuid:2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a"];

  it("by the name in the KG's own predicate (no rdfs:label anywhere)", async () => {
    const r = await ask("Which lightships are moored at Outer Roads?");
    expect(r.log.refused).toEqual([]);
    expect(r.iris).toEqual(moored);
  });

  it("by the start of its id, which the pipeline links through the lexicon", async () => {
    const r = await ask("Which lightships are moored at 5a6b7c8d?");
    expect(r.log.refused).toEqual([]);
    expect(r.iris).toEqual(moored);
  });

  it("refuses an entity the question does not name, and does not answer", async () => {
    const r = await ask("Which lightships are moored there?");
    expect(r.log.dropped.some((d) => d.startsWith("entity"))).toBe(true);
    expect(r.iris).not.toEqual(moored);
  });
});

describe("the class of a named entity", () => {
  it("is written only when the question says it, never as a few overlapping words", () => {
    const EX = "http://example.org/lamps/";
    const plan = parseGold(`PREFIX ex: <${EX}> SELECT ?x WHERE { ?x a ex:Lamp ; ex:mode <${EX}LampModeKind.flashing> . <${EX}LampModeKind.flashing> a ex:LampModeKind . }`);
    const facts: OracleKgFacts = { labels: new Map([[`${EX}LampModeKind.flashing`, "flashing"]]), types: new Map(), prefixes: {} };
    const qirOf = (question: string) => groundQir(oracleQir(plan, facts), plan, facts, { text: question, language: "en" }, createOracleLog("question-grounded")).qir;
    // "lamps have the mode" overlaps "Lamp Mode Kind" but does not say it: the entity's class is left open
    const loose = qirOf("Which lamps have the mode flashing?");
    expect(loose.entities).toEqual(["flashing"]);
    expect(loose.triples.some((t) => t[0] === "flashing" && t[1] === "type" && t[2].startsWith("?"))).toBe(true);
    // said in full, it is written
    expect(qirOf("Which lamps have the lamp mode kind flashing?").entities).toContain("lamp mode kind");
  });
});

describe("relation phrases of the question-grounded Chatty-KG oracle", () => {
  it("never takes the words the question opens with (its request) or a helper word as a relation", () => {
    const EX = "http://example.org/lamps/";
    const plan = parseGold(`PREFIX ex: <${EX}> SELECT ?x WHERE { ?x a ex:Lamp ; ex:feedsFrom ?c . ?c ex:hangsOn <${EX}Mast4> . }`);
    const facts: OracleKgFacts = { labels: new Map([[`${EX}Mast4`, "Mast Four"], [`${EX}Lamp`, "lamp"]]), types: new Map(), prefixes: {} };
    const qir = groundQir(oracleQir(plan, facts), plan, facts, { text: "Identify the lamps having a cable strung along Mast Four.", language: "en" }, createOracleLog("question-grounded")).qir;
    const relations = qir.triples.map((t) => t[1]);
    expect(relations).not.toContain("Identify");
    expect(relations).not.toContain("having");
    expect(relations.length).toBe(2);
  });
});
