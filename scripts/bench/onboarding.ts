// Onboarding bench (no LLM; `npm run bench -- --only onboarding [--full]`): per KG, onboard it in memory (template
// questions), then for every human question of the set retrieve the 5 most similar generated examples as one-call
// does (BM25 without an embedding model) and ask whether one has the gold query's template (template recall@5), and
// which share of the gold's classes and predicates the 5 examples name (coverage@5). Also the onboarding's time,
// queries and heap per KG. Sets: spider4sparql-train (core.tsv; --full: manifest.tsv), talk2powersystem, wc2014, CK25
// (the pool never holds CK25's own pairs: it is generated from the KG alone).
import { readFileSync } from "node:fs";
import path from "node:path";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { readQald } from "@/lib/eval/datasets/qald";
import type { BenchmarkItem } from "@/lib/eval/types";
import { openKg, type KgSpec } from "@/lib/kg/open-kg";
import { prepareInMemory } from "@/lib/kg/onboarding/prepare";
import { impliedTypes, queryTemplate } from "@/lib/kg/onboarding/template";
import { NS } from "@/lib/kg/profile";
import { irisOfSparql } from "@/lib/pipeline/one-call/card-selection";
import { DEFAULT_EXAMPLES, rankExamples } from "@/lib/pipeline/one-call/examples";
import { createOnboardingContext } from "@/lib/kg/onboarding/context";
import type { PreparedKg } from "@/lib/kg/onboarding/prepare";
import { aimedExamples } from "@/lib/pipeline/common/aimed-examples";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Similarity } from "@/lib/embeddings/types";
import type { ExperienceExample } from "@/lib/pipeline/types";
import { sharedDatasets } from "./one-call";

export const ONBOARDING_TARGETS = { spiderTemplateRecall: 0.5 };
const SHARED = path.resolve(process.cwd(), "../shared/data");
const STANDARD = [NS.rdf, NS.rdfs, NS.owl, NS.xsd];

interface KgSet {
  set: string;
  name: string;
  kg: KgSpec;
  items: BenchmarkItem[];
}

export interface KgMeasure {
  set: string;
  name: string;
  questions: number;
  templateHits: number;
  /** hits of what one-call retrieves: the stored pool and the examples made for the question, ranked together */
  aimedHits: number;
  /** wall time of making the examples for the questions, ms in all */
  aimedMs: number;
  /** the gold's template is somewhere in the pool (the ceiling of retrieval) */
  inPool: number;
  /** gold classes + predicates, and how many the 5 examples name */
  terms: number;
  covered: number;
  examples: number;
  ms: number;
  queries: number;
  heapMb: number;
  status: string;
}

function spiderSets(manifest: string): KgSet[] {
  const dir = path.join(SHARED, "spider4sparql-train");
  const rows = readFileSync(path.join(dir, manifest), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  return rows.map(([db, kg, questions]) => ({ set: `spider4sparql-train (${manifest})`, name: db, kg: { kind: "files", paths: [path.join(dir, kg)] }, items: readQald(path.join(dir, questions), { idPrefix: db }) }));
}

/** Classes and predicates a query names (the rdf/rdfs/owl/xsd vocabulary aside); individuals are not counted. */
function schemaTermsOf(sparql: string, typePredicate: string): string[] {
  const t = queryTemplate(sparql, { typePredicates: [typePredicate] }) ?? "";
  const kept = new Set([...t.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]));
  return irisOfSparql(sparql).filter((i) => kept.has(i) && !STANDARD.some((ns) => i.startsWith(ns)));
}

/**
 * The k examples one-call's retrieval gives a question: the stored pool and `aimed` examples made for the question
 * (lib/pipeline/common/aimed-examples.ts) ranked together, on a context of the bench's own; with each one's template.
 */
export async function retrievedWithAimed(kg: KnowledgeGraph, prepared: PreparedKg, pool: ExperienceExample[], question: string, similarity: Similarity, options: { k?: number; aimed?: number; typePredicate: string }): Promise<{ top: ExperienceExample[]; templates: Map<string, string> }> {
  const { ctx } = createOnboardingContext(kg, { queryTimeoutMs: 10_000 });
  const source = { examples: async () => pool, profile: async () => prepared.profile };
  const rank = (docs: { id: string; question: string; sparql: string }[]) => rankExamples(question, docs.map((d) => ({ ...d, source: "generated" as const })), similarity, docs.length);
  const made = await aimedExamples(source, ctx, question, pool, options.aimed ?? DEFAULT_CONFIG.oneCallAimedExamples, rank, "retrieval");
  const implied = prepared.profile ? impliedTypes(prepared.profile) : undefined;
  const templates = new Map(made.flatMap((e) => {
    const t = queryTemplate(e.sparql, { typePredicates: [options.typePredicate], ...(implied ? { impliedTypes: implied } : {}) });
    return t ? [[e.id, t] as const] : [];
  }));
  return { top: await rankExamples(question, [...pool, ...made], similarity, options.k ?? DEFAULT_EXAMPLES), templates };
}

export async function measureKg(s: KgSet, k = DEFAULT_EXAMPLES): Promise<KgMeasure> {
  const kg = await openKg(s.kg, { timeoutMs: 120_000 });
  try {
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const prepared = await prepareInMemory(kg);
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    const typePredicate = kg.profile.typePredicates[0] ?? `${NS.rdf}type`;
    const pool: ExperienceExample[] = prepared.examples.map((e) => ({ id: e.id, question: e.question, sparql: e.sparql, source: "generated" }));
    const templates = new Map(prepared.examples.map((e) => [e.id, e.template]));
    // the gold's template as the pool's are made: a type its predicate implies is left out (docs/onboarding.md)
    const implied = prepared.profile ? impliedTypes(prepared.profile) : undefined;
    const similarity = createLexicalSimilarity();
    let hits = 0;
    let aimedHits = 0;
    let aimedMs = 0;
    let inPool = 0;
    const all = new Set(templates.values());
    let terms = 0;
    let covered = 0;
    let questions = 0;
    for (const item of s.items) {
      if (!item.goldSparql) continue;
      const gold = queryTemplate(item.goldSparql, { typePredicates: [typePredicate], ...(implied ? { impliedTypes: implied } : {}) });
      if (!gold) continue;
      questions++;
      if (all.has(gold)) inPool++;
      const top = await rankExamples(item.question, pool, similarity, k);
      if (top.some((e) => templates.get(e.id) === gold)) hits++;
      else if (process.env.ONBOARDING_BENCH_MISSES === s.name) {
        const anywhere = prepared.examples.find((e) => e.template === gold);
        console.log(`MISS ${item.question}\n  gold ${gold}\n  ${anywhere ? `in pool as: ${anywhere.question}` : "not in pool"}\n  top: ${top.slice(0, 3).map((e) => e.question).join(" | ")}`);
      }
      const started = performance.now();
      const aimed = await retrievedWithAimed(kg, prepared, pool, item.question, similarity, { k, typePredicate });
      aimedMs += performance.now() - started;
      if (aimed.top.some((e) => (templates.get(e.id) ?? aimed.templates.get(e.id)) === gold)) aimedHits++;
      // coverage of what one-call is shown
      const named = new Set(aimed.top.flatMap((e) => irisOfSparql(e.sparql)));
      const want = schemaTermsOf(item.goldSparql, typePredicate);
      terms += want.length;
      covered += want.filter((w) => named.has(w)).length;
    }
    return { set: s.set, name: s.name, questions, templateHits: hits, aimedHits, aimedMs, inPool, terms, covered, examples: prepared.examples.length, ms: prepared.ms, queries: prepared.job.queries, heapMb, status: prepared.job.status };
  } finally {
    await kg.close();
  }
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : "—");

export async function benchOnboarding(options: { full?: boolean; log?: (l: string) => void } = {}): Promise<KgMeasure[]> {
  const log = options.log ?? console.log;
  const sets: KgSet[] = [
    ...spiderSets(options.full ? "manifest.tsv" : "core.tsv"),
    ...sharedDatasets(log).map((d) => ({ set: d.name, name: d.name, kg: d.kg, items: d.items })),
  ];
  const out: KgMeasure[] = [];
  for (const s of sets) {
    const m = await measureKg(s);
    out.push(m);
    if (!s.set.startsWith("spider")) log(`${m.name}: template recall@5 ${pct(m.templateHits, m.questions)} (${m.templateHits}/${m.questions}; in the pool ${m.inPool}), with examples made for the question ${pct(m.aimedHits, m.questions)}, coverage@5 ${pct(m.covered, m.terms)}, ${m.examples} examples, ${(m.ms / 1000).toFixed(1)} s, ${m.queries} queries, heap +${Math.round(m.heapMb)} MB, ${m.status}`);
  }
  const bySet = new Map<string, KgMeasure[]>();
  for (const m of out) bySet.set(m.set, [...(bySet.get(m.set) ?? []), m]);
  log("\n| set | KGs | questions | template recall@5, stored pool | template in pool | template recall@5, one-call's retrieval | class/predicate coverage@5 | examples per KG (median) | onboarding s per KG (max) | examples made per question, ms (mean) |");
  log("|---|---|---|---|---|---|---|---|---|---|");
  for (const [set, ms] of bySet) {
    const sum = (f: (m: KgMeasure) => number) => ms.reduce((a, m) => a + f(m), 0);
    const ex = ms.map((m) => m.examples).sort((a, b) => a - b);
    log(`| ${set} | ${ms.length} | ${sum((m) => m.questions)} | ${pct(sum((m) => m.templateHits), sum((m) => m.questions))} | ${pct(sum((m) => m.inPool), sum((m) => m.questions))} | ${pct(sum((m) => m.aimedHits), sum((m) => m.questions))} | ${pct(sum((m) => m.covered), sum((m) => m.terms))} | ${ex[Math.floor(ex.length / 2)]} | ${(Math.max(...ms.map((m) => m.ms)) / 1000).toFixed(1)} | ${Math.round(sum((m) => m.aimedMs) / Math.max(1, sum((m) => m.questions)))} |`);
  }
  const spider = out.filter((m) => m.set.startsWith("spider"));
  const n = Math.max(1, spider.reduce((a, m) => a + m.questions, 0));
  const recall = spider.reduce((a, m) => a + m.templateHits, 0) / n;
  const aimed = spider.reduce((a, m) => a + m.aimedHits, 0) / n;
  log(`\nSpider template recall@5: ${(aimed * 100).toFixed(1)} % as one-call retrieves (the stored pool and ${DEFAULT_CONFIG.oneCallAimedExamples} examples made for each question), ${(recall * 100).toFixed(1)} % from the stored pool alone (target ≥ ${ONBOARDING_TARGETS.spiderTemplateRecall * 100} %)`);
  return out;
}

/** Onboarding time, queries and heap on generated KGs (scripts/gen-triples.ts) of the given sizes, embedded. */
export async function benchOnboardingScale(sizes: number[], log: (l: string) => void = console.log): Promise<void> {
  const { generatedParts } = await import("../gen-triples");
  log("\n| triples | load s | onboarding s | queries | candidates run | examples | heap after (MB) | status | skipped | examples made per question: ms mean / max, made (10 of the pool's questions) |");
  log("|---:|---:|---:|---:|---:|---:|---:|---|---|---|");
  for (const n of sizes) {
    const paths = await generatedParts(n, () => undefined);
    const t0 = performance.now();
    const kg = await openKg({ kind: "files", paths }, { timeoutMs: 120_000 });
    const loadS = (performance.now() - t0) / 1000;
    try {
      const prepared = await prepareInMemory(kg);
      global.gc?.();
      const heap = process.memoryUsage().heapUsed / 2 ** 20;
      const j = prepared.job;
      // one-call's turn-time examples on a KG this size: asked with ten of the pool's own questions, spread over it
      const pool: ExperienceExample[] = prepared.examples.map((e) => ({ id: e.id, question: e.question, sparql: e.sparql, source: "generated" }));
      const asked = pool.filter((_, i) => i % Math.max(1, Math.floor(pool.length / 10)) === 0).slice(0, 10);
      const times: number[] = [];
      let made = 0;
      for (const e of asked) {
        const t = performance.now();
        const r = await retrievedWithAimed(kg, prepared, pool, e.question, createLexicalSimilarity(), { typePredicate: kg.profile.typePredicates[0] ?? `${NS.rdf}type` });
        times.push(performance.now() - t);
        made += r.templates.size;
      }
      const aimed = times.length ? `${Math.round(times.reduce((a, b) => a + b, 0) / times.length)} / ${Math.round(Math.max(...times))}, ${made}` : "—";
      log(`| ${n.toLocaleString("en")} | ${loadS.toFixed(1)} | ${(prepared.ms / 1000).toFixed(1)} | ${j.queries} | ${j.candidates} | ${prepared.examples.length} | ${Math.round(heap)} | ${j.status}${j.error ? `: ${j.error.message}` : ""} | ${j.skipped.join("; ") || "—"} | ${aimed} |`);
    } finally {
      await kg.close();
    }
  }
}

/** Onboarding of one KG (an endpoint URL or files): time, queries, examples, what was skipped. */
export async function benchOnboardingKg(spec: KgSpec, log: (l: string) => void = console.log): Promise<void> {
  const kg = await openKg(spec, { timeoutMs: 120_000 });
  try {
    const prepared = await prepareInMemory(kg, { onEvent: (e) => e.type === "job" && log(`  ${e.job.phase}…`) });
    const j = prepared.job;
    log(`${kg.info.name}: ${j.status}${j.error ? ` (${j.error.message})` : ""} in ${(prepared.ms / 1000).toFixed(1)} s · ${j.queries} queries · ${j.candidates} candidates run · ${prepared.examples.length} examples · heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`);
    for (const sk of j.skipped) log(`  skipped: ${sk}`);
  } finally {
    await kg.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = process.argv.find((a) => a.startsWith("--scale="));
  if (scale) await benchOnboardingScale(scale.slice("--scale=".length).split(",").map(Number));
  else await benchOnboarding({ full: process.argv.includes("--full") });
}
