// The explorer run with an oracle playing its model on a fixture KG, as the oracle tests read it: the answer, the
// explore stage's tool calls, every event and the oracle's log (one helper, so the tests differ only in what they ask).
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { explorerStrategy } from "@/lib/pipeline/explorer/strategy";
import { DEFAULT_CONFIG, type TurnResult } from "@/lib/pipeline/types";
import { runToEnd } from "@/test/fixtures/kg/harness";
import type { OracleGateway } from "../oracle-llm";
import type { BenchmarkItem } from "../types";

export type ExplorerOracleFactory = (item: BenchmarkItem, kg: KnowledgeGraph) => Promise<OracleGateway>;

export async function runExplorerOracle(oracle: ExplorerOracleFactory, kg: KnowledgeGraph, question: string, gold: string) {
  const llm = await oracle({ id: "t", question, goldSparql: gold }, kg);
  const gen = explorerStrategy.run({ question, dialogue: [], config: { ...DEFAULT_CONFIG, strategy: "explorer" } }, { kg, llm, similarity: createLexicalSimilarity() });
  const { result, events } = await runToEnd(gen);
  const tools = events.flatMap((e) => (e.type === "tool-call" && e.stage === "explore" ? [e] : []));
  return { result, events, tools, log: llm.oracleLog };
}

/** The answer's item values, sorted (none when the answer is not a list of items). */
export const itemValues = (r: TurnResult) => (r.answer.kind === "items" ? r.answer.items.map((i) => i.value).sort() : []);
