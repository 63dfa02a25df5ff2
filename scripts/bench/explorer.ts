// Explorer bench (no LLM): schema-summary size, coverage and build time; tool latency p50/p95; and, on a KG with gold
// questions (CK25), instance grounding recall@10 from question words, literal recall of gold constants through the value
// search, an IRI round-trip check, and the pipeline's own overhead per question with the oracle as a 0 ms model.
// Run alone: npx tsx scripts/bench/explorer.ts --kg <file> [--questions questions.yml] [--rounds 3]
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { iri } from "@/lib/kg/escape";
import { openKg, type KgSpec } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { loadDataset } from "@/lib/eval/datasets";
import { portableGoldSparql } from "@/lib/eval/gold";
import { goldTerms } from "@/lib/eval/oracle-explorer";
import { createExplorerOracleLlm } from "@/lib/eval/oracle-explorer";
import type { BenchmarkItem } from "@/lib/eval/types";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { buildEntityIndex } from "@/lib/pipeline/explorer/entity-index";
import { buildKgShape, type KgShape } from "@/lib/pipeline/explorer/kg-shape";
import { KnownIris } from "@/lib/pipeline/explorer/known-iris";
import { Render } from "@/lib/pipeline/explorer/render";
import { createExplorerStrategy } from "@/lib/pipeline/explorer/strategy";
import type { ExplorerTool, ToolEnv } from "@/lib/pipeline/explorer/tool-env";
import { describeEntity } from "@/lib/pipeline/explorer/tools/describe-entity";
import { executeSparql } from "@/lib/pipeline/explorer/tools/execute-sparql";
import { propertyValues } from "@/lib/pipeline/explorer/tools/property-values";
import { searchEntities } from "@/lib/pipeline/explorer/tools/search-entities";
import { searchSchema } from "@/lib/pipeline/explorer/tools/search-schema";
import { searchValues } from "@/lib/pipeline/explorer/tools/search-values";
import { DEFAULT_CONFIG, type DerivationEvent, type TurnResult } from "@/lib/pipeline/types";
import { BENCH_CONFIG } from "./config";

/** Targets from the issue (printed next to the numbers). */
export const TARGETS = { summaryTokens: 4000, summaryMsSmall: 2000, summaryMsLarge: 20_000, overheadP50Ms: 50 };

export interface BenchExplorerArgs {
  kg: KnowledgeGraph;
  /** CK25-style questions.yml: enables the recall, round-trip and overhead measures */
  questions?: string;
  rounds?: number;
  log?: (line: string) => void;
}

const pct = (a: number, b: number) => `${a}/${b} (${b ? ((100 * a) / b).toFixed(0) : 0} %)`;
const round1 = (n: number) => Math.round(n * 10) / 10;
function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : 0;
}

function context(kg: KnowledgeGraph): AgentContext {
  return createAgentContext({ kg, llm: {} as LlmGateway, similarity: createLexicalSimilarity(), config: BENCH_CONFIG, emit: () => {} });
}

async function envFor(kg: KnowledgeGraph): Promise<{ env: ToolEnv; shape: KgShape; indexMs: () => number }> {
  const ctx = context(kg);
  const shape = await buildKgShape(ctx, "plan");
  let index: ReturnType<typeof buildEntityIndex> | undefined;
  let indexMs = 0;
  const entityIndex = () =>
    (index ??= (async () => {
      const t = performance.now();
      const built = await buildEntityIndex(ctx, "explore", shape.labelLike);
      indexMs = performance.now() - t;
      return built;
    })());
  return { env: { ctx, shape, known: new KnownIris(), seenInResults: new Set(), asked: [], questionConstants: new Set(), declaredPrefixes: new Set(), entityIndex }, shape, indexMs: () => indexMs };
}

/** Runs a tool, timing it; the IRIs it showed are collected for the round-trip check. */
async function timed<I>(tool: ExplorerTool<I>, env: ToolEnv, input: I, times: Map<string, number[]>, shown?: Set<string>) {
  const render = new Render(env.shape.prefixes);
  const t = performance.now();
  const out = await tool.run(input, env, render);
  const ms = performance.now() - t;
  times.set(tool.name, [...(times.get(tool.name) ?? []), ms]);
  if (shown) for (const v of render.shown) shown.add(v);
  return { ...out, shown: render.shown };
}

function logLatency(log: (l: string) => void, times: Map<string, number[]>): Record<string, { n: number; p50: number; p95: number }> {
  const out: Record<string, { n: number; p50: number; p95: number }> = {};
  for (const [name, ms] of times) {
    out[name] = { n: ms.length, p50: round1(percentile(ms, 50)), p95: round1(percentile(ms, 95)) };
    log(`    ${name.padEnd(16)} n=${String(ms.length).padStart(4)}  p50 ${out[name].p50} ms  p95 ${out[name].p95} ms`);
  }
  return out;
}

/** Words of the question as 1–3-word spans, plus the whole question (what a model would search with). */
export function questionSpans(question: string): string[] {
  const words = question.replace(/[?!.,;:"“”()]/g, " ").split(/\s+/).filter(Boolean);
  const spans = new Set<string>([words.join(" ")]);
  for (let n = 1; n <= 3; n++) for (let i = 0; i + n <= words.length; i++) spans.add(words.slice(i, i + n).join(" "));
  return [...spans];
}

export async function benchExplorer(args: BenchExplorerArgs) {
  const log = args.log ?? ((l: string) => console.log(l));
  const { kg } = args;
  log(`Explorer bench: ${kg.info.name} (${kg.info.triples ?? "?"} triples)`);

  // schema summary: a fresh build (no cache), timed
  const { env, shape, indexMs } = await envFor(kg);
  const small = (kg.info.triples ?? 0) < 100_000;
  const limit = small ? TARGETS.summaryMsSmall : TARGETS.summaryMsLarge;
  log(`  schema summary: ${shape.classes.length} classes, ≈${shape.tokens} tokens (target ≤ ${TARGETS.summaryTokens}), built in ${Math.round(shape.buildMs)} ms (target ≤ ${limit} ms)${shape.sampled ? ", counts sampled" : ""}`);

  const times = new Map<string, number[]>();
  const shown = new Set<string>();
  const result: Record<string, unknown> = { summary: { tokens: shape.tokens, buildMs: Math.round(shape.buildMs), classes: shape.classes.length } };

  // generic tool calls: terms from the KG's own labels, entities and properties from the summary
  const labels = (await kg.select(`SELECT ?s ?l WHERE { ?s ${iri(shape.labelLike[0] ?? "http://www.w3.org/2000/01/rdf-schema#label")} ?l FILTER(isLiteral(?l)) } LIMIT 400`)).results.bindings;
  const n = small ? 40 : 20;
  const sample = labels.filter((_, i) => i % Math.max(1, Math.floor(labels.length / n)) === 0).slice(0, n);
  await timed(searchEntities, env, { query: sample[0]?.l.value ?? "a" }, new Map()); // builds the entity index (timed apart)
  log(`  entity index: built in ${Math.round(indexMs())} ms, ${(await env.entityIndex()).size} entries${(await env.entityIndex()).truncated ? " (bounded: part of the KG not indexed)" : ""}`);
  const properties = shape.classes.flatMap((c) => c.out.map((p) => p.predicate)).slice(0, 20);
  for (const [i, b] of sample.entries()) {
    await timed(searchEntities, env, { query: b.l.value }, times, shown);
    await timed(searchValues, env, { query: b.l.value.split(/\s+/)[0] }, times, shown);
    await timed(describeEntity, env, { iri: `<${b.s.value}>` }, times, shown);
    if (properties.length) await timed(propertyValues, env, { iri: `<${b.s.value}>`, property: `<${properties[i % properties.length]}>` }, times, shown);
    await timed(executeSparql, env, { sparql: `SELECT ?p ?o WHERE { <${b.s.value}> ?p ?o } LIMIT 50` }, times, shown);
    if (i < 10) await timed(searchSchema, env, { query: b.l.value.split(/\s+/)[0] }, times, shown);
  }
  log("  tool latency (warm, label-derived inputs):");
  result.latency = logLatency(log, times);

  if (args.questions) Object.assign(result, await goldMeasures(args, env, shape, shown, log));
  result.roundTrip = await roundTrip(kg, shown, log);
  return result;
}

/** CK25-style gold: grounding recall@10 from question words, literal recall, summary coverage, pipeline overhead. */
async function goldMeasures(args: BenchExplorerArgs, env: ToolEnv, shape: KgShape, shown: Set<string>, log: (l: string) => void) {
  const items = loadDataset("ck25", args.questions!).filter((i) => i.goldSparql);
  const parsed = items.map((i) => ({ item: i, ast: parseSparql(portableGoldSparql(i.goldSparql!)) }));
  const out: Record<string, unknown> = {};

  // instance grounding: every gold instance IRI, searched with every 1–3-word span of its question
  let found = 0;
  let total = 0;
  const misses: string[] = [];
  for (const { item, ast } of parsed) {
    const wanted = goldTerms(ast).filter((t) => t.kind === "instance");
    if (!wanted.length) continue;
    const seen = new Set<string>();
    for (const span of questionSpans(item.question)) {
      const r = await timed(searchEntities, env, { query: span }, new Map(), shown);
      for (const v of r.shown) seen.add(v);
    }
    for (const t of wanted) {
      total++;
      if (seen.has(t.value)) found++;
      else misses.push(`${item.id} <${t.value}>`);
    }
  }
  log(`  instance grounding recall@10 (gold IRIs found by searching 1–3-word spans of the question): ${pct(found, total)} (anchor: a crude BM25 finds 24/30)`);
  if (misses.length) log(`    not found: ${misses.join(", ")}`);
  out.grounding = { found, total, misses };

  // literal recall: each gold string constant through the value search, with its gold property when it has one
  let lf = 0;
  let lt = 0;
  const lmiss: string[] = [];
  for (const { item, ast } of parsed) {
    for (const t of goldTerms(ast).filter((x) => x.kind === "literal")) {
      lt++;
      const r = await timed(searchValues, env, { query: t.value, ...(t.predicate ? { property: `<${t.predicate}>` } : {}) }, new Map(), shown);
      const ok = t.match === "substring" ? new RegExp(`"[^"\\n]*${t.value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^"\\n]*"`, "i").test(r.text) : r.text.includes(JSON.stringify(t.value));
      if (ok) lf++;
      else lmiss.push(`${item.id} "${t.value}"`);
    }
  }
  log(`  literal recall (gold string constants through search_values, top 10): ${pct(lf, lt)}${lmiss.length ? ` — missed ${lmiss.join(", ")}` : ""}`);
  out.literals = { found: lf, total: lt, misses: lmiss };

  // schema coverage: every class and property of the gold queries named by the summary
  const schemaTerms = [...new Set(parsed.flatMap(({ ast }) => goldTerms(ast).filter((t) => t.kind === "schema").map((t) => t.value)))];
  const standard = ["http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2000/01/rdf-schema#"];
  const inSummary = schemaTerms.filter((v) => shape.iris.has(v) || standard.some((ns) => v.startsWith(ns)));
  const absent = schemaTerms.filter((v) => !inSummary.includes(v));
  log(`  schema summary coverage: ${pct(inSummary.length, schemaTerms.length)} of the gold queries' classes and properties${absent.length ? ` — missing ${absent.join(", ")}` : ""}`);
  out.coverage = { covered: inSummary.length, total: schemaTerms.length, missing: absent };

  out.overhead = await overhead(args, items, log);
  return out;
}

/** The real strategy over every gold question with the oracle as the model (0 ms): the pipeline's own time. */
async function overhead(args: BenchExplorerArgs, items: BenchmarkItem[], log: (l: string) => void) {
  const rounds = args.rounds ?? 3;
  const strategy = createExplorerStrategy();
  const similarity = createLexicalSimilarity();
  const per: number[] = [];
  let toolCalls = 0;
  let failed = 0;
  for (let r = -1; r < rounds; r++) {
    for (const item of items) {
      const llm = await createExplorerOracleLlm(item, args.kg);
      const gen = strategy.run({ question: item.question, dialogue: [], config: { ...DEFAULT_CONFIG, strategy: "explorer" } }, { kg: args.kg, llm, similarity });
      const events: DerivationEvent[] = [];
      let step = await gen.next();
      while (!step.done) {
        events.push(step.value);
        step = await gen.next();
      }
      if (r < 0) continue; // warm-up round: builds and caches the summary and the entity index
      const result = step.value as TurnResult;
      const llmMs = events.reduce((a, e) => a + (e.type === "llm-call" ? e.call.latencyMs : 0), 0);
      per.push(Math.max(0, result.stats.ms - llmMs));
      toolCalls += result.stats.toolCalls ?? 0;
      if (result.source === "failed") failed++;
    }
  }
  const p50 = round1(percentile(per, 50));
  const p95 = round1(percentile(per, 95));
  log(`  pipeline overhead per question (oracle model at 0 ms, ${items.length} questions × ${rounds} rounds, warm caches): p50 ${p50} ms (target ≤ ${TARGETS.overheadP50Ms} ms), p95 ${p95} ms; ${round1(toolCalls / Math.max(1, per.length))} tool calls per question; ${failed} failed`);
  return { p50, p95, toolCallsPerQuestion: round1(toolCalls / Math.max(1, per.length)), failed };
}

/** Every IRI a tool showed must match a triple when written as <iri> (catches re-encoded or invented IRIs). */
async function roundTrip(kg: KnowledgeGraph, shown: Set<string>, log: (l: string) => void) {
  let ok = 0;
  const bad: string[] = [];
  for (const v of shown) {
    const e = iri(v);
    if (await kg.ask(`ASK { { ${e} ?p ?o } UNION { ?s ?p ${e} } UNION { ?s ${e} ?o } }`)) ok++;
    else bad.push(v);
  }
  log(`  IRI round trip: ${pct(ok, shown.size)} of the IRIs the tools showed match a triple${bad.length ? ` — not: ${bad.slice(0, 5).join(", ")}` : ""}`);
  return { ok, total: shown.size, bad };
}

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const argv = process.argv.slice(2);
  const file = arg(argv, "kg");
  if (!file) {
    console.error("usage: npx tsx scripts/bench/explorer.ts --kg <file> [--questions questions.yml] [--rounds 3]");
    process.exit(2);
  }
  const spec: KgSpec = { kind: "files", paths: [path.resolve(file)] };
  const kg = await openKg(spec, { timeoutMs: 120_000 });
  try {
    await benchExplorer({ kg, questions: arg(argv, "questions"), rounds: arg(argv, "rounds") ? Number(arg(argv, "rounds")) : undefined });
  } finally {
    await kg.close();
  }
}
