// Shared set-up for the hardening tests: a temp database, a KG registry with the sample, a turn runner on the real
// Chatty-KG strategy (or another) with a scripted LLM, and a KG wrapper that records every query sent to the store.
import { AppError } from "@/lib/errors";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script, type ScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { chattyKgStrategy } from "@/lib/pipeline/chatty-kg/strategy";
import type { Strategy, TurnResult } from "@/lib/pipeline/types";
import type { TurnErrorData } from "@/lib/api/contract";
import { createKgRegistry, type KgRegistry } from "@/lib/server/kg-registry";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";
import { readAll, type Chunk } from "@/lib/server/testing/turn-stream";
import { createTurnRunner, type TurnRunnerDeps } from "@/lib/server/turn-runner";

export type { Chunk };

export interface Harness {
  tmp: TempDb;
  registry: KgRegistry;
  /** every query that reached a KG through the recording registry, in order */
  queries: string[];
  close(): Promise<void>;
}

/** Wraps a KG so every query (and label search) it runs is logged; the store itself is untouched. */
export function recordingKg(kg: KnowledgeGraph, log: string[]): KnowledgeGraph {
  return {
    get info() {
      return kg.info;
    },
    profile: kg.profile,
    query: (q, o) => (log.push(q), kg.query(q, o)),
    select: (q, o) => (log.push(q), kg.select(q, o)),
    ask: (q, o) => (log.push(q), kg.ask(q, o)),
    construct: (q, o) => (log.push(q), kg.construct(q, o)),
    searchLabels: (t, o) => kg.searchLabels(t, o),
    close: () => kg.close(),
  };
}

export async function createHarness(env: Record<string, string | undefined> = {}): Promise<Harness> {
  const tmp = await createTempDb("chatty-kg-hardening-");
  const inner = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: `${tmp.dir}/data`, env });
  const queries: string[] = [];
  const registry: KgRegistry = { ...inner, defaultKgId: inner.defaultKgId, getKg: async (s, id) => recordingKg(await inner.getKg(s, id), queries) };
  await inner.getKg("warm-up", "sample");
  return {
    tmp,
    registry,
    queries,
    async close() {
      await inner.close();
      await tmp.close();
    },
  };
}

export interface RunnerSetup {
  script?: Script | "no-llm";
  strategy?: Strategy;
  llm?: ScriptedLlm;
  overrides?: Partial<TurnRunnerDeps>;
}

/** A turn runner on the harness; the scripted LLM waits no real time between retries. */
export function runnerOn(h: Harness, setup: RunnerSetup = {}) {
  // roles the script does not cover get "{}", which no agent's schema accepts: a model answering nonsense
  const llm = setup.llm ?? (setup.script === "no-llm" ? undefined : createScriptedLlm(setup.script ?? {}, { fallback: () => "{}" }));
  const runner = createTurnRunner({
    queries: h.tmp.queries,
    registry: h.registry,
    getStrategy: () => setup.strategy ?? chattyKgStrategy,
    createLlm: () => {
      if (!llm) throw new AppError("llm_not_configured", "No LLM is configured.");
      return { gateway: llm.gateway, provider: "mock", model: "scripted" };
    },
    similarity: async () => createLexicalSimilarity(),
    flushMs: 10,
    ...setup.overrides,
  });
  return { runner, llm };
}

export { readAll };

export interface TurnOutcome {
  chunks: Chunk[];
  status: string;
  result: TurnResult;
  error?: TurnErrorData;
}

export function outcomeOf(chunks: Chunk[]): TurnOutcome {
  const result = chunks.find((c) => c.type === "data-result")?.data as { status: string; result: TurnResult } | undefined;
  if (!result) throw new Error(`no data-result in the stream: ${chunks.map((c) => c.type).join(", ")}`);
  const error = chunks.find((c) => c.type === "data-error")?.data as TurnErrorData | undefined;
  return { chunks, status: result.status, result: result.result, error };
}

/** The Chat agent's tool call that sends the question to the KG pipeline as an English standalone question. */
export function askKg(question: string, language = "en") {
  return { toolCall: { name: "ask_knowledge_graph", input: { question, language, context_dependent: false } } };
}

/** A QIR reply naming one entity and one relation (what the matching stage then searches for). */
export function qirFor(entity: string, relation = "author") {
  return {
    reasoning: "One entity, one relation.",
    entities: [entity],
    unknowns: ["?x"],
    relations: [relation],
    triples: [[entity, relation, "?x"]],
    target: "?x",
    question_type: "factoid",
  };
}
