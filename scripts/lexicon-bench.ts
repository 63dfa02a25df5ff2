// Builds a KG's lexicon and prints what it took (time, heap, sizes, the name predicates found) and, given questions with
// gold SPARQL, its name recall: the share of the gold queries' IRIs (schema vocabularies aside) that a lexicon search for
// some word n-gram of the question returns among its top hits.
//   npx tsx scripts/lexicon-bench.ts --kg <paths|folder|url> [--dataset qald|ck25 --questions <file>] [--top 5]
import { parseArgs } from "node:util";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { openKg } from "@/lib/kg/open-kg";
import { NS } from "@/lib/kg/profile";
import { buildLexicon, type Lexicon, type TermKind } from "@/lib/kg/lexicon";
import { loadDataset } from "@/lib/eval/datasets";
import { kgSpecFromArgs, KG_PROFILE_OPTIONS } from "./kg-profile-args";

const SCHEMA_NS = [NS.rdf, NS.rdfs, NS.owl, NS.xsd];

/** IRIs a gold query names (variables, literals and the RDF/RDFS/OWL/XSD vocabularies aside). */
export function goldIris(sparql: string): string[] {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(walk);
    const t = node as { termType?: string; value?: string };
    if (t.termType === "NamedNode" && t.value && !SCHEMA_NS.some((ns) => t.value?.startsWith(ns))) out.add(t.value);
    for (const v of Object.values(node)) walk(v);
  };
  const parsed = parseSparql(sparql) as unknown as Record<string, unknown>;
  walk({ where: parsed.where, variables: parsed.variables, group: parsed.group, order: parsed.order, having: parsed.having });
  return [...out];
}

/** Word n-grams (1..4) of a question; punctuation around words dropped. */
export function ngrams(question: string, max = 4): string[] {
  const words = question.split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")).filter(Boolean);
  const out = new Set<string>();
  for (let n = 1; n <= max; n++) for (let i = 0; i + n <= words.length; i++) out.add(words.slice(i, i + n).join(" "));
  return [...out];
}

/** IRIs the lexicon returns for the question's n-grams (top `top` per n-gram, every word matched). */
export function namedFromQuestion(lexicon: Lexicon, question: string, top: number): Map<string, TermKind> {
  const found = new Map<string, TermKind>();
  for (const g of ngrams(question)) {
    for (const h of lexicon.search(g, { limit: top })) if (h.score >= 2 / 3 && !found.has(h.iri)) found.set(h.iri, h.kind);
  }
  return found;
}

async function main() {
  const { values } = parseArgs({
    options: { kg: { type: "string" }, dataset: { type: "string", default: "qald" }, questions: { type: "string" }, top: { type: "string", default: "5" }, ...KG_PROFILE_OPTIONS },
  });
  if (!values.kg) throw new Error("--kg is required");
  const t0 = performance.now();
  const kg = await openKg(kgSpecFromArgs(values.kg, values), { timeoutMs: 300_000 });
  const loadMs = performance.now() - t0;
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const { lexicon, stats } = await buildLexicon(async (_purpose, q) => (await kg.select(q, { timeoutMs: 300_000 })).results.bindings, kg.profile);
  global.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
  console.log(`KG: ${kg.info.name} (${kg.info.triples ?? "?"} triples), loaded in ${(loadMs / 1000).toFixed(1)} s`);
  console.log(
    `lexicon: ${stats.buildMs.toFixed(0)} ms, ${stats.names} names for ${lexicon.terms} named IRIs; terms seen: ${stats.entities} entities, ${stats.classes} classes, ${stats.properties} properties (nameless ones included), heap +${heapMb.toFixed(0)} MB${stats.truncated ? ", TRUNCATED at a bound" : ""}`,
  );
  for (const p of stats.namePredicates) console.log(`  name predicate ${p.predicate} (${p.role}: ${p.why})`);
  if (values.questions) {
    const top = Number(values.top);
    const items = loadDataset(values.dataset ?? "qald", values.questions).filter((i) => i.goldSparql);
    const byKind: Record<string, { gold: number; found: number }> = {};
    let gold = 0;
    let found = 0;
    const s0 = performance.now();
    for (const item of items) {
      const named = namedFromQuestion(lexicon, item.question, top);
      for (const g of goldIris(item.goldSparql as string)) {
        const kind = lexicon.kindsOf(g)[0] ?? "unknown";
        const k = (byKind[kind] ??= { gold: 0, found: 0 });
        k.gold++;
        gold++;
        if (named.has(g)) {
          k.found++;
          found++;
        }
      }
    }
    const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : "-");
    console.log(`name recall over ${items.length} questions (top ${top} per n-gram): ${pct(found, gold)}% of ${gold} gold IRIs; ${((performance.now() - s0) / items.length).toFixed(1)} ms per question`);
    for (const [kind, k] of Object.entries(byKind)) console.log(`  ${kind}: ${pct(k.found, k.gold)}% of ${k.gold}`);
  }
  await kg.close();
}

if (process.argv[1]?.endsWith("lexicon-bench.ts")) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
