// Lexical fallback bench (no LLM, no embedding model), on the development KGs and CK25 from ../shared/data: for each
// question with a gold query, every predicate of the KG ranked by the lexical similarity of the question to the
// predicate's label; recall@5/@10 and MRR of the gold query's predicates (type and label predicates left out), for each
// source of related words (none, the built-in table, WordNet, both). Run: npm run bench -- --only lexical
import type * as Sparql from "sparqljs";
import { createLexicalSimilarity, type Relatedness } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import { loadLexicon } from "@/lib/pipeline/ragonite/wordnet";
import { sharedDatasets } from "./one-call";
import { BENCH_CONFIG } from "./config";

const VARIANTS: Relatedness[] = ["none", "table", "lexicon", "both"];

export interface LexicalScores {
  pairs: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
  msPerQuestion: number;
}

/** Predicate IRIs of a query's triple patterns and property paths (variables left out). */
export function queryPredicates(sparql: string): Set<string> {
  const out = new Set<string>();
  const visitPath = (p: unknown) => {
    if (!p || typeof p !== "object") return;
    const t = p as { termType?: string; value?: string; items?: unknown[] };
    if (t.termType === "NamedNode" && t.value) out.add(t.value);
    for (const item of t.items ?? []) visitPath(item);
  };
  const walk = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(walk);
    const n = node as Record<string, unknown>;
    if (Array.isArray(n.triples)) for (const tr of n.triples as Sparql.Triple[]) visitPath(tr.predicate);
    for (const [k, v] of Object.entries(n)) if (k !== "triples" && typeof v === "object") walk(v);
  };
  walk(parseReadOnly(sparql).ast);
  return out;
}

async function predicatesOf(kg: KnowledgeGraph): Promise<string[]> {
  const r = await kg.select("SELECT DISTINCT ?p WHERE { ?s ?p ?o }", { timeoutMs: 300_000 });
  return r.results.bindings.map((b) => b.p.value);
}

/** Ranks `labels` for each question with one variant; the gold predicates' ranks give recall@k and MRR. */
async function score(variant: Relatedness, cases: { question: string; gold: number[] }[], labels: string[], lexicon: ReturnType<typeof loadLexicon>): Promise<LexicalScores> {
  const sim = createLexicalSimilarity({ relatedness: variant, lexicon });
  let pairs = 0;
  let at5 = 0;
  let at10 = 0;
  let rr = 0;
  const started = performance.now();
  for (const c of cases) {
    const scores = await sim.scores(c.question, labels);
    for (const g of c.gold) {
      // rank = 1 + labels scoring strictly higher (ties in the gold's favour, as a stable sort by score would not promise)
      const rank = 1 + scores.filter((s) => s > scores[g]).length;
      pairs++;
      if (rank <= 5) at5++;
      if (rank <= 10) at10++;
      rr += 1 / rank;
    }
  }
  const ms = performance.now() - started;
  return { pairs, recallAt5: at5 / pairs, recallAt10: at10 / pairs, mrr: rr / pairs, msPerQuestion: ms / Math.max(1, cases.length) };
}

export async function benchLexical(log: (line: string) => void = console.log): Promise<Record<string, Record<Relatedness, LexicalScores>>> {
  let t0 = performance.now();
  const lexicon = loadLexicon();
  log(`WordNet lexicon: ${lexicon ? `loaded in ${(performance.now() - t0).toFixed(0)} ms` : "not installed (variants lexicon/both = none/table)"}`);
  const out: Record<string, Record<Relatedness, LexicalScores>> = {};
  for (const ds of sharedDatasets(log)) {
    t0 = performance.now();
    const kg = await openKg(ds.kg, { timeoutMs: 300_000 });
    try {
      const skip = new Set([...kg.profile.typePredicates, ...kg.profile.labelPredicates]);
      const predicates = (await predicatesOf(kg)).filter((p) => !skip.has(p));
      const ctx = createAgentContext({ kg, llm: {} as LlmGateway, similarity: createLexicalSimilarity(), config: BENCH_CONFIG, emit: () => {} });
      const labelOf = await fetchLabels(ctx, "relation-linking", predicates, "bench: predicate labels");
      const labels = predicates.map((p) => labelOf.get(p) ?? localNameWords(p));
      const index = new Map(predicates.map((p, i) => [p, i]));
      const cases = ds.items.flatMap((item) => {
        if (!item.goldSparql) return [];
        const gold = [...queryPredicates(item.goldSparql)].flatMap((p) => (index.has(p) ? [index.get(p)!] : []));
        return gold.length ? [{ question: item.question, gold }] : [];
      });
      log(`\n${ds.name}: ${predicates.length} predicates, ${cases.length} questions with gold predicates (opened in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      const row = {} as Record<Relatedness, LexicalScores>;
      for (const v of VARIANTS) {
        const s = (row[v] = await score(v, cases, labels, lexicon));
        log(`  ${v.padEnd(8)} recall@5 ${(100 * s.recallAt5).toFixed(1)} %  recall@10 ${(100 * s.recallAt10).toFixed(1)} %  MRR ${s.mrr.toFixed(3)}  (${s.pairs} gold predicates, ${s.msPerQuestion.toFixed(1)} ms/question)`);
      }
      out[ds.name] = row;
    } finally {
      await kg.close();
    }
  }
  return out;
}
