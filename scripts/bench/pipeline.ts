// Pipeline bench: scripted questions (CK25's, or those of a generated KG) through chattyKgStrategy.run, N rounds, LLM at
// 0 ms: pipeline overhead, LLM calls and SPARQL queries per question. Run alone: npx tsx scripts/bench/pipeline.ts
// [--kg prod-inst.ttl] [--rounds 20]
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { ck25KgSpec, ck25Paths, loadCk25Fixture, runTurn, scriptFrom, type Ck25Question } from "@/lib/eval/ck25-scripted";

/** Targets for the pipeline's own work per question (LLM time excluded). */
export const TARGET_P50_MS = 30;
export const TARGET_P95_MS = 150;

export interface BenchPipelineArgs {
  /** an open KG holding the graph the questions' replies are written for (default: CK25's prod-inst.ttl) */
  kg: KnowledgeGraph;
  /** scripted questions (default: test/fixtures/ck25/replies.json) */
  questions?: Ck25Question[];
  /** what the questions are, for the printout (default "CK25") */
  label?: string;
  /** overhead targets (default 30 / 150 ms, CK25's) */
  targets?: { p50: number; p95: number };
  /** measured rounds over all questions (default 20) */
  rounds?: number;
  /** unmeasured rounds first, so JIT and caches settle (default 2) */
  warmup?: number;
  log?: (line: string) => void;
}

export interface BenchPipelineResult {
  questions: number;
  rounds: number;
  overheadMs: { p50: number; p95: number; max: number };
  llmCallsPerQuestion: number;
  queriesPerQuestion: number;
  failed: number;
  targetsMet: { p50: boolean; p95: boolean };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export async function benchPipeline(args: BenchPipelineArgs): Promise<BenchPipelineResult> {
  const log = args.log ?? ((l: string) => console.log(l));
  const rounds = args.rounds ?? 20;
  const questions = args.questions ?? loadCk25Fixture();
  const targets = args.targets ?? { p50: TARGET_P50_MS, p95: TARGET_P95_MS };
  const similarity = createLexicalSimilarity();
  const overhead: number[] = [];
  let llmCalls = 0;
  let queries = 0;
  let failed = 0;
  for (let r = -(args.warmup ?? 2); r < rounds; r++) {
    for (const q of questions) {
      const llm = createScriptedLlm(scriptFrom(q.replies));
      const { result, events } = await runTurn(q.question, [], DEFAULT_CONFIG, { kg: args.kg, llm: llm.gateway, similarity });
      if (r < 0) continue;
      // the scripted model answers at once; its recorded latency is still subtracted so only pipeline work remains
      const llmMs = events.reduce((sum, e) => sum + (e.type === "llm-call" ? e.call.latencyMs : 0), 0);
      overhead.push(Math.max(0, result.stats.ms - llmMs));
      llmCalls += result.stats.llmCalls;
      queries += result.stats.queries;
      if (result.source === "failed") failed++;
    }
  }
  const sorted = [...overhead].sort((a, b) => a - b);
  const n = overhead.length;
  const result: BenchPipelineResult = {
    questions: questions.length,
    rounds,
    overheadMs: { p50: round1(percentile(sorted, 50)), p95: round1(percentile(sorted, 95)), max: round1(sorted[n - 1] ?? 0) },
    llmCallsPerQuestion: round1(llmCalls / Math.max(1, n)),
    queriesPerQuestion: round1(queries / Math.max(1, n)),
    failed,
    targetsMet: { p50: false, p95: false },
  };
  result.targetsMet = { p50: result.overheadMs.p50 <= targets.p50, p95: result.overheadMs.p95 <= targets.p95 };
  log(`Pipeline bench: ${result.questions} ${args.label ?? "CK25"} questions × ${rounds} rounds (scripted LLM, 0 ms) on ${args.kg.info.name}`);
  log(`  overhead per question: p50 ${result.overheadMs.p50} ms, p95 ${result.overheadMs.p95} ms, max ${result.overheadMs.max} ms`);
  log(`  LLM calls per question: ${result.llmCallsPerQuestion}`);
  log(`  SPARQL queries per question: ${result.queriesPerQuestion}`);
  log(`  failed turns: ${failed}`);
  log(`  target p50 <= ${targets.p50} ms: ${result.targetsMet.p50 ? "met" : "NOT met"}; target p95 <= ${targets.p95} ms: ${result.targetsMet.p95 ? "met" : "NOT met"}`);
  return result;
}

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const argv = process.argv.slice(2);
  const file = arg(argv, "kg") ?? ck25Paths().graph;
  const spec = { ...ck25KgSpec(), paths: [path.resolve(file)] };
  const kg = await openKg(spec);
  try {
    const result = await benchPipeline({ kg, rounds: arg(argv, "rounds") ? Number(arg(argv, "rounds")) : undefined });
    if (argv.includes("--json")) console.log(JSON.stringify(result, null, 2));
  } finally {
    await kg.close();
  }
}
