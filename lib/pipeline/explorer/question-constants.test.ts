// The final check and the question's own constants, end to end on a small KG (test/fixtures/kg/explorer/birdwatch.ttl):
// "which is larger, A or B?" may fix ?b to the two birds the question names although a test query returned them; an
// answer found while exploring is still refused when pasted in, alone or as a list of things the question never names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { createScriptedLlm, type ScriptedReply } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type TurnResult } from "@/lib/pipeline/types";
import { runToEnd } from "@/test/fixtures/kg/harness";
import { questionWritesName, questionWritesValue } from "./question-constants";
import { explorerStrategy } from "./strategy";

const BW = "http://example.org/birdwatch/";
let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/explorer/birdwatch.ttl"], profile: { prefixes: { bw: BW } } });
}, 60_000);
afterAll(async () => kg?.close());

const call = (name: string, input: Record<string, unknown>) => ({ toolCall: { name, input } });
const plan = call("plan", { steps: ["find the birds", "compare their wingspans", "finish"] });
const lastTool = (m: PlainMessage[]) => [...m].reverse().find((x) => x.role === "tool")?.text ?? "";
const after = (f: (toolText: string) => ReturnType<typeof call>): ScriptedReply => (m) => f(lastTool(m));

async function ask(question: string, explorer: ScriptedReply[]) {
  const llm = createScriptedLlm({ chat: [call("ask_knowledge_graph", { question, language: "en", context_dependent: false })], explorer });
  const gen = explorerStrategy.run({ question, dialogue: [], config: { ...DEFAULT_CONFIG, strategy: "explorer" } }, { kg, llm: llm.gateway, similarity: createLexicalSimilarity() });
  const { result, events } = await runToEnd(gen);
  const finishes = events.flatMap((e) => (e.type === "tool-call" && e.tool === "finish" ? [e.output as { accepted: boolean; problems?: string[] }] : []));
  return { result, finishes };
}
const values = (r: TurnResult) => (r.answer.kind === "items" ? r.answer.items.map((i) => i.value) : []);

const WINGSPANS = "SELECT ?b ?w WHERE { VALUES ?b { bw:b4 bw:b5 } ?b bw:wingspanCm ?w }";
const LARGER = "SELECT ?b WHERE { VALUES ?b { bw:b4 bw:b5 } ?b bw:wingspanCm ?w } ORDER BY DESC(?w) LIMIT 1";

describe("a choice among the things the question names", () => {
  it("accepts VALUES (and FILTER IN) of two birds found by searching the names the question writes", async () => {
    const { result, finishes } = await ask("Which has the larger wingspan, Barn Owl or Jay?", [
      plan,
      call("search_entities", { query: "Barn Owl" }),
      call("search_entities", { query: "Jay" }),
      // the test query's rows show both birds: they are still the question's, not an answer found by exploring
      call("execute_sparql", { sparql: WINGSPANS }),
      after((t) => {
        expect(t).toMatch(/^2 rows/);
        return call("finish", { sparql: LARGER });
      }),
    ]);
    expect(finishes).toEqual([expect.objectContaining({ accepted: true })]);
    expect(values(result)).toEqual([`${BW}b4`]);

    const viaIn = await ask("Which has the smaller wingspan, Barn Owl or Jay?", [
      plan,
      call("search_entities", { query: "barn owl" }),
      call("search_entities", { query: "jay" }),
      call("execute_sparql", { sparql: WINGSPANS }),
      call("finish", { sparql: "SELECT ?b WHERE { ?b bw:wingspanCm ?w FILTER(?b IN (bw:b4, bw:b5)) } ORDER BY ?w LIMIT 1" }),
    ]);
    expect(values(viaIn.result)).toEqual([`${BW}b5`]);
  });

  it("still refuses the answer pasted in alone, and birds the question does not name", async () => {
    const alone = await ask("Which has the larger wingspan, Barn Owl or Jay?", [
      plan,
      call("search_entities", { query: "Barn Owl" }),
      call("search_entities", { query: "Jay" }),
      call("execute_sparql", { sparql: WINGSPANS }),
      call("finish", { sparql: "SELECT ?b WHERE { VALUES ?b { bw:b4 } }" }),
      after((t) => {
        expect(t).toMatch(/\?b is fixed by VALUES to value\(s\) an earlier query returned/);
        return call("finish", { sparql: LARGER });
      }),
    ]);
    expect(alone.finishes.map((f) => f.accepted)).toEqual([false, true]);

    // the woodpeckers are found by a query, then searched by a name the question never writes: still pasted answers
    const found = await ask("Which birds of the woodpecker family are there?", [
      plan,
      call("execute_sparql", { sparql: "SELECT ?b WHERE { ?b bw:inFamily bw:family-Woodpecker }" }),
      call("search_entities", { query: "Green Woodpecker" }),
      call("search_entities", { query: "Great Spotted Woodpecker" }),
      call("finish", { sparql: "SELECT ?b WHERE { VALUES ?b { bw:b1 bw:b2 } }" }),
      after((t) => {
        expect(t).toMatch(/\?b is fixed by VALUES to value\(s\) an earlier query returned/);
        return call("finish", { sparql: "SELECT ?b WHERE { ?b bw:inFamily bw:family-Woodpecker }" });
      }),
    ]);
    expect(found.finishes.map((f) => f.accepted)).toEqual([false, true]);
  });
});

describe("names and values the question writes", () => {
  it("folds case, inflection and a typo, but wants every content word", () => {
    const asked = ["Which has the larger wingspan, the barn owls or the kngfisher?"];
    expect(questionWritesName("Barn Owl", asked)).toBe(true);
    expect(questionWritesName("Kingfisher", asked)).toBe(true);
    expect(questionWritesName("Barn Swallow", asked)).toBe(false);
    expect(questionWritesName("", asked)).toBe(false);
  });
  it("takes a literal written whole, never a bare number", () => {
    expect(questionWritesValue("Marsh Point", ["Is Marsh Point or Elm Hide nearer?"])).toBe(true);
    expect(questionWritesValue("Marsh", ["Is Marsh Point or Elm Hide nearer?"])).toBe(true);
    expect(questionWritesValue("Point Marsh", ["Is Marsh Point or Elm Hide nearer?"])).toBe(false);
    expect(questionWritesValue("2", ["Which of the 2 hides is nearer?"])).toBe(false);
  });
});
