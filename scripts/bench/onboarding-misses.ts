// Where template recall is lost, by KIND of gold query (never by vocabulary): for every question of a Spider-style
// suite (../shared/data/spider4sparql-train core.tsv or manifest.tsv), the gold template's kind (joins, count, group,
// HAVING, order, LIMIT, comparison, subquery, negation, several columns …), whether the generated pool holds it and
// whether the 5 retrieved examples do. Prints a table by kind; --show <kind words> lists the questions of kinds that
// contain those words with the gold template and the nearest pool questions.
//   npx tsx scripts/bench/onboarding-misses.ts [core.tsv|manifest.tsv] [--show "join2 count"] [--json out.json]
//     [--max-examples N --max-candidates N]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { readQald } from "@/lib/eval/datasets/qald";
import { openKg } from "@/lib/kg/open-kg";
import { prepareInMemory } from "@/lib/kg/onboarding/prepare";
import { impliedTypes, queryTemplate } from "@/lib/kg/onboarding/template";
import { NS } from "@/lib/kg/profile";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { retrievedWithAimed } from "./onboarding";
import { DEFAULT_EXAMPLES, rankExamples } from "@/lib/pipeline/one-call/examples";

/** A template's kind in words: "join2 count group having proj1" (typed variables, operators, projected columns). */
export function templateKind(template: string): string {
  const f: string[] = [];
  const types = (template.match(/rdf-syntax-ns#type>/g) ?? []).length;
  const select = template.slice(0, template.indexOf("WHERE"));
  const subqueries = (template.match(/SELECT/g) ?? []).length - 1;
  if (/MINUS|NOT EXISTS/.test(template)) f.push("negation");
  else if (/UNION/.test(template)) f.push("union");
  else if (subqueries > 0 && /AVG\(/.test(template.slice(template.indexOf("WHERE")))) f.push("above-avg");
  else if (subqueries > 0) f.push("subquery");
  if (/FILTER in\(/.test(template)) f.push("both");
  if (types >= 2) f.push(`join${types}`);
  if (/COUNT\(/.test(select)) f.push("count");
  if (/\b(AVG|SUM|MIN|MAX)\(/.test(select)) f.push("agg");
  if (/GROUP BY/.test(template)) f.push("group");
  if (/HAVING/.test(template)) f.push("having");
  if (/ORDER BY/.test(template)) f.push(/LIMIT/.test(template) ? "top" : "order");
  if (/FILTER (&&|\|\||[<>]=?|!=)\(/.test(template)) f.push("cmp");
  if (/ (STR|NUM|DATE|BOOL|LIT|<IRI>) ?[.}]/.test(template)) f.push("value");
  const aggregates = select.match(/\((COUNT|AVG|SUM|MIN|MAX)\([^)]*\) AS \?v\d+\)/g) ?? [];
  const projected = aggregates.length + (select.replace(/\((COUNT|AVG|SUM|MIN|MAX)\([^)]*\) AS \?v\d+\)/g, "").match(/\?v\d+/g) ?? []).length;
  f.push(`cols${projected}`);
  return f.join(" ");
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { show: { type: "string" }, json: { type: "string" }, aimed: { type: "string" }, "max-examples": { type: "string" }, "max-candidates": { type: "string" } } });
  // Raising the caps shows what the generators could make at all (the pool's ceiling), apart from what the cap cuts.
  const limits = { ...(values["max-examples"] ? { maxExamples: Number(values["max-examples"]) } : {}), ...(values["max-candidates"] ? { maxCandidates: Number(values["max-candidates"]) } : {}) };
  const dir = path.resolve(process.cwd(), "../shared/data/spider4sparql-train");
  const manifest = positionals[0] ?? "core.tsv";
  const rows = readFileSync(path.join(dir, manifest), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  // examples made for each question at turn time (one-call's default count; --aimed 0: the stored pool only)
  const aimedK = Number(values.aimed ?? DEFAULT_CONFIG.oneCallAimedExamples);
  const out: { db: string; question: string; kind: string; inPool: boolean; hit: boolean; aimedHit: boolean; gold: string; nearest?: string; top: string[] }[] = [];
  let examples = 0;
  let ms = 0;
  for (const [db, kgPath, questions] of rows) {
    const kg = await openKg({ kind: "files", paths: [path.join(dir, kgPath)] }, { timeoutMs: 120_000 });
    try {
      const prepared = await prepareInMemory(kg, { limits });
      examples += prepared.examples.length;
      ms += prepared.ms;
      const typePredicates = [kg.profile.typePredicates[0] ?? `${NS.rdf}type`];
      const pool = prepared.examples.map((e) => ({ id: e.id, question: e.question, sparql: e.sparql, source: "generated" as const }));
      const templates = new Map(prepared.examples.map((e) => [e.id, e.template]));
      const all = new Set(templates.values());
      const similarity = createLexicalSimilarity();
      for (const item of readQald(path.join(dir, questions), { idPrefix: db })) {
        const gold = item.goldSparql ? queryTemplate(item.goldSparql, { typePredicates, ...(prepared.profile ? { impliedTypes: impliedTypes(prepared.profile) } : {}) }) : undefined;
        if (!gold) continue;
        const top = await rankExamples(item.question, pool, similarity, DEFAULT_EXAMPLES);
        const nearest = prepared.examples.find((e) => e.template === gold)?.question;
        // what one-call retrieves: the same ranking over the stored pool and the examples made for the question
        const aimed = aimedK > 0 ? await retrievedWithAimed(kg, prepared, pool, item.question, similarity, { aimed: aimedK, typePredicate: typePredicates[0] }) : undefined;
        const aimedHit = !!aimed?.top.some((e) => (templates.get(e.id) ?? aimed.templates.get(e.id)) === gold);
        out.push({ db, question: item.question, kind: templateKind(gold), inPool: all.has(gold), hit: top.some((e) => templates.get(e.id) === gold), aimedHit, gold, ...(nearest ? { nearest } : {}), top: top.map((e) => e.question) });
      }
    } finally {
      await kg.close();
    }
  }
  const byKind = new Map<string, { n: number; pool: number; hit: number }>();
  for (const r of out) {
    const k = byKind.get(r.kind) ?? { n: 0, pool: 0, hit: 0 };
    k.n++;
    k.pool += Number(r.inPool);
    k.hit += Number(r.hit);
    byKind.set(r.kind, k);
  }
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;
  console.log(`${manifest}: ${out.length} questions · recall@5 ${pct(out.filter((r) => r.hit).length, out.length)} · in pool ${pct(out.filter((r) => r.inPool).length, out.length)} · ${examples} examples · onboarding ${(ms / 1000).toFixed(1)} s in all`);
  if (aimedK > 0) console.log(`with ${aimedK} examples made for each question (one-call's retrieval): recall@5 ${pct(out.filter((r) => r.aimedHit).length, out.length)}`);
  console.log("\n| questions | in pool | @5 | kind |\n|---:|---:|---:|---|");
  for (const [kind, k] of [...byKind].sort((a, b) => b[1].n - a[1].n)) console.log(`| ${k.n} | ${k.pool} | ${k.hit} | ${kind} |`);
  if (values.show) {
    const words = values.show.split(/\s+/);
    for (const r of out.filter((x) => !x.hit && words.every((w) => x.kind.split(" ").includes(w)))) {
      console.log(`\n${r.db}: ${r.question}  [${r.kind}]${r.inPool ? `\n  in pool as: ${r.nearest}` : ""}\n  gold ${r.gold}\n  top: ${r.top.slice(0, 3).join(" | ")}`);
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 1));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
