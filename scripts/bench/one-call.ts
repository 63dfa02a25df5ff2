// One-call bench (no LLM), on the development KGs and CK25 from ../shared/data: example recall@k (a retrieved pair has
// the question's query shape; talk2powersystem marks shapes by template), schema-card coverage (share of the gold
// queries' classes and predicates the given cards show), the validator on planted faults and on the gold queries
// (false alarms), and prompt tokens per question. Run alone: npx tsx scripts/bench/one-call.ts
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Sparql from "sparqljs";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { readQald } from "@/lib/eval/datasets/qald";
import { readText2SparqlQuestions } from "@/lib/eval/datasets/text2sparql";
import { poolItemsOf } from "@/lib/eval/experience-guard";
import type { BenchmarkItem } from "@/lib/eval/types";
import { openKg, type KgSpec } from "@/lib/kg/open-kg";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { renderOneCallPrompt } from "@/lib/pipeline/one-call/attempts";
import { estimateTokens, selectCards } from "@/lib/pipeline/one-call/card-selection";
import { DEFAULT_EXAMPLES, rankExamples } from "@/lib/pipeline/one-call/examples";
import { queryTerms } from "@/lib/pipeline/common/query-terms";
import { findEntities, promptIris, type Retrieved } from "@/lib/pipeline/one-call/retrieval";
import { buildSchemaCards } from "@/lib/pipeline/common/schema-cards";
import { validateQuery } from "@/lib/pipeline/common/query-validator";
import { DEFAULT_CONFIG, type ExperienceExample } from "@/lib/pipeline/types";
import { plantFaults, resultKey, type FaultKind } from "./one-call-faults";
import { BENCH_CONFIG } from "./config";

export const TARGETS = { recallAt5: 0.9, coverage: 0.95, faultsCaught: 0.95, falseAlarms: 0, promptTokensCk25: 6000 };

export interface OneCallDataset {
  name: string;
  kg: KgSpec;
  items: BenchmarkItem[];
  /** item id → query shape (template); recall@k is measured only where shapes are known */
  shapes?: Map<string, string>;
}

const SHARED = path.resolve(process.cwd(), "../shared/data");

/** The development KGs and CK25 as the shared data holds them (missing ones are skipped with a note). */
export function sharedDatasets(log: (l: string) => void): OneCallDataset[] {
  const out: OneCallDataset[] = [];
  const t2ps = path.join(SHARED, "talk2powersystem");
  if (existsSync(t2ps)) {
    const file = path.join(t2ps, "questions.json");
    const raw = JSON.parse(readFileSync(file, "utf8")) as { questions: { id: string | number; source?: { template_id?: string } }[] };
    const items = readQald(file, { idPrefix: "t2ps" });
    const shapes = new Map(raw.questions.flatMap((q) => (q.source?.template_id ? [[`t2ps:${q.id}`, q.source.template_id] as [string, string]] : [])));
    const graphs = readdirSync(path.join(t2ps, "graphs")).filter((f) => f.endsWith(".trig")).map((f) => path.join(t2ps, "graphs", f));
    out.push({ name: "talk2powersystem", kg: { kind: "files", paths: [...graphs, path.join(t2ps, "cim-subset-pretty-ontology.ttl")] }, items, shapes });
  } else log(`talk2powersystem skipped: ${t2ps} not found`);
  const wc = path.join(SHARED, "wc2014");
  if (existsSync(wc)) out.push({ name: "wc2014", kg: { kind: "files", paths: [path.join(wc, "kg.nt")] }, items: readQald(path.join(wc, "questions.json"), { idPrefix: "wc2014" }) });
  else log(`wc2014 skipped: ${wc} not found`);
  const ck25 = path.join(SHARED, "ck25");
  if (existsSync(ck25)) out.push({ name: "CK25", kg: { kind: "files", paths: [path.join(ck25, "graphs/prod-inst.ttl")] }, items: readText2SparqlQuestions(path.join(ck25, "questions.yml")) });
  else log(`CK25 skipped: ${ck25} not found`);
  return out;
}

const pct = (a: number, b: number) => `${a}/${b} (${b ? ((100 * a) / b).toFixed(1) : "0.0"} %)`;
const percentile = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : 0;
};

function context(kg: KnowledgeGraph): AgentContext {
  return createAgentContext({ kg, llm: {} as LlmGateway, similarity: createLexicalSimilarity(), config: BENCH_CONFIG, emit: () => {} });
}

async function runKey(kg: KnowledgeGraph, sparql: string): Promise<string | undefined> {
  try {
    return resultKey(await kg.query(sparql, { timeoutMs: 30_000 }));
  } catch {
    return undefined;
  }
}

export interface OneCallBenchResult {
  name: string;
  recall?: { hit: number; total: number };
  coverage: { shown: number; total: number; complete: number; questions: number };
  tokens: number[];
  faults: Record<FaultKind, { planted: number; caught: number }>;
  falseAlarms: { count: number; golds: number; examples: string[] };
}

export async function benchOneCallDataset(ds: OneCallDataset, log: (l: string) => void): Promise<OneCallBenchResult> {
  const kg = await openKg(ds.kg, { timeoutMs: 300_000 });
  try {
    const ctx = context(kg);
    const t0 = performance.now();
    const cards = await buildSchemaCards(ctx, "retrieval");
    log(`\n${ds.name}: ${ds.items.length} questions; schema cards: ${cards.cards.length} card(s) built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const pool: (ExperienceExample & { item: string })[] = poolItemsOf(ds.items).map((e) => ({ id: e.itemId, item: e.itemId.replace(/-[a-z]{2}$/, ""), question: e.question, sparql: e.sparql, source: "import" }));
    const poolItem = new Map(pool.map((e) => [e.id, e.item]));
    const shapeCount = new Map<string, number>();
    for (const s of ds.shapes?.values() ?? []) shapeCount.set(s, (shapeCount.get(s) ?? 0) + 1);
    const res: OneCallBenchResult = {
      name: ds.name,
      ...(ds.shapes ? { recall: { hit: 0, total: 0 } } : {}),
      coverage: { shown: 0, total: 0, complete: 0, questions: 0 },
      tokens: [],
      faults: { "wrong predicate": { planted: 0, caught: 0 }, "wrong direction": { planted: 0, caught: 0 }, "unknown class": { planted: 0, caught: 0 }, "IRI typo": { planted: 0, caught: 0 } },
      falseAlarms: { count: 0, golds: 0, examples: [] },
    };
    for (const item of ds.items) {
      if (!item.goldSparql) continue;
      const allowed = pool.filter((e) => e.item !== item.id);
      const languages = Object.entries(item.questions ?? { en: item.question });
      let retrievedEn: Retrieved | undefined;
      for (const [lang, question] of languages) {
        const examples = await rankExamples(question, allowed, ctx.similarity, DEFAULT_EXAMPLES);
        const selection = selectCards(cards, question, examples.map((e) => e.sparql), { budget: DEFAULT_CONFIG.oneCallCardTokens, topPredicates: DEFAULT_CONFIG.oneCallCardPredicates });
        const entities = await findEntities(ctx, question);
        const retrieved: Retrieved = { examples, cards, selection, entities, notes: "" };
        const { system, prompt } = renderOneCallPrompt(ctx, retrieved, { question, context: "" }, "");
        res.tokens.push(estimateTokens(system) + estimateTokens(prompt));
        if (lang !== "en" && languages.length > 1) continue;
        retrievedEn = retrieved;
        const shape = ds.shapes?.get(item.id);
        if (res.recall && shape && (shapeCount.get(shape) ?? 0) > 1) {
          res.recall.total++;
          if (examples.some((e) => ds.shapes?.get(poolItem.get(e.id) ?? "") === shape)) res.recall.hit++;
        }
        const gold = queryTerms(parseReadOnly(item.goldSparql).ast as Sparql.SelectQuery, kg.profile.typePredicates);
        const needed = new Set([...gold.classes, ...gold.predicates]);
        const shown = new Set(selection.cards.flatMap((c) => c.iris));
        const covered = [...needed].filter((i) => shown.has(i)).length;
        res.coverage.shown += covered;
        res.coverage.total += needed.size;
        res.coverage.questions++;
        if (covered === needed.size) res.coverage.complete++;
      }
      await validatorOnItem(kg, item, retrievedEn!, res);
    }
    report(res, log);
    return res;
  } finally {
    await kg.close();
  }
}

async function validatorOnItem(kg: KnowledgeGraph, item: BenchmarkItem, retrieved: Retrieved, res: OneCallBenchResult): Promise<void> {
  const env = { cards: retrieved.cards, known: promptIris(retrieved, ""), typePredicates: kg.profile.typePredicates, labelPredicates: kg.profile.labelPredicates, ask: (q: string) => kg.ask(q, { timeoutMs: 30_000 }).catch(() => undefined) };
  const gold = parseReadOnly(item.goldSparql!).ast as Sparql.SelectQuery | Sparql.AskQuery;
  const onGold = await validateQuery(gold, env);
  res.falseAlarms.golds++;
  if (onGold.problems.length) {
    res.falseAlarms.count++;
    if (res.falseAlarms.examples.length < 5) res.falseAlarms.examples.push(`${item.id}: ${onGold.problems.join(" | ")}`);
  }
  const goldKey = await runKey(kg, item.goldSparql!);
  for (const fault of plantFaults(gold, retrieved.cards, kg.profile.typePredicates, item.id)) {
    // a plant that gives the gold's answer is no fault
    if ((await runKey(kg, fault.sparql)) === goldKey) continue;
    res.faults[fault.kind].planted++;
    const planted = await validateQuery(parseReadOnly(fault.sparql).ast as Sparql.SelectQuery | Sparql.AskQuery, env);
    // ONE_CALL_BENCH_MISSES=1 lists the faults the validator let through
    if (planted.problems.length) res.faults[fault.kind].caught++;
    else if (process.env.ONE_CALL_BENCH_MISSES) console.log(`  missed ${fault.kind} in ${item.id}: ${fault.sparql.replace(/\s+/g, " ")}`);
  }
}

function report(r: OneCallBenchResult, log: (l: string) => void): void {
  if (r.recall) log(`  example recall@${DEFAULT_EXAMPLES} (BM25; a retrieved pair has the question's template; questions whose template has another instance): ${pct(r.recall.hit, r.recall.total)} (target ≥ ${TARGETS.recallAt5 * 100} %)`);
  log(`  schema-card coverage (gold classes + predicates the given cards show; rdf/rdfs/owl/xsd terms aside): ${pct(r.coverage.shown, r.coverage.total)} (target ≥ ${TARGETS.coverage * 100} %); questions fully covered ${pct(r.coverage.complete, r.coverage.questions)}`);
  const planted = Object.values(r.faults).reduce((n, f) => n + f.planted, 0);
  const caught = Object.values(r.faults).reduce((n, f) => n + f.caught, 0);
  log(`  validator: planted faults caught ${pct(caught, planted)} (target ≥ ${TARGETS.faultsCaught * 100} %) — ${Object.entries(r.faults).map(([k, f]) => `${k} ${f.caught}/${f.planted}`).join(", ")}`);
  log(`  validator: false alarms on gold queries ${r.falseAlarms.count}/${r.falseAlarms.golds} (target 0)${r.falseAlarms.examples.map((e) => `\n    ${e}`).join("")}`);
  log(`  prompt tokens per question (≈ chars/4, system + user, first call): p50 ${percentile(r.tokens, 50)}, p95 ${percentile(r.tokens, 95)}, max ${Math.max(...r.tokens)} over ${r.tokens.length} question(s)`);
}

export async function benchOneCall(log: (l: string) => void = console.log): Promise<OneCallBenchResult[]> {
  const out: OneCallBenchResult[] = [];
  for (const ds of sharedDatasets(log)) out.push(await benchOneCallDataset(ds, log));
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  benchOneCall().then(
    () => process.exit(0),
    (e) => {
      console.error(`one-call bench failed: ${e instanceof Error ? e.stack : String(e)}`);
      process.exit(1);
    },
  );
}
