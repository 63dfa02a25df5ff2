// `npm run bench -- --kg <file|endpoint URL> [--only kg|pipeline|induction|explorer]`: files: load speed and label search,
// RAGONITE's database induction, the explorer's tools (with CK25's gold questions: recall and overhead too); endpoints:
// label search; then the pipeline's own overhead with a scripted LLM at 0 ms on CK25 or on a generated KG.
// `npm run bench -- --virtuoso [--triples 10000000]`: label search and pipeline on a throwaway Virtuoso holding CK25
// and a generated KG.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openKg } from "@/lib/kg/open-kg";
import { GEN_NAMESPACE, generatedDir, generatedParts } from "./gen-triples";
import { ck25KgSpec, ck25Missing, ck25Paths } from "@/lib/eval/ck25-scripted";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { startVirtuoso } from "@/lib/kg/testing/virtuoso";
import { benchKg } from "./bench/kg";
import { generatedQuestions } from "./bench/gen-questions";
import { benchPipeline } from "./bench/pipeline";
import { benchRagonite } from "./bench/ragonite";
import { benchExplorer } from "./bench/explorer";
import { benchOneCall } from "./bench/one-call";
import { benchLexical } from "./bench/lexical";
import { benchRemoteLabelSearch } from "./bench/remote";
import { benchCeilings } from "./bench/ceilings";
import { KG_PROFILE_OPTIONS, kgSpecFromArgs } from "./kg-profile-args";

const ONLY = ["kg", "pipeline", "induction", "explorer", "one-call", "lexical", "ceilings", "onboarding"];
const CEILING_STRATEGIES = ["chatty-kg", "explorer", "triad"];
const USAGE = `Usage: npm run bench -- --kg <file.ttl | http(s)://endpoint> [--only kg|pipeline|induction|explorer] [--rounds 20]
                     [--questions ck25|generated] [--profile … --label-search virtuoso …]
       npm run bench -- --virtuoso [--triples 10000000] [--rounds 20] [--strategies chatty-kg,explorer,triad]
       npm run bench -- --kg <CK25 endpoint> --only ceilings [--strategies …] [--profile …] [--out <dir>]
       npm run bench -- --only one-call   (no --kg: the development KGs and CK25 in ../shared/data; no LLM)
       npm run bench -- --only onboarding [--full]   (no --kg: template recall@5 and coverage@5 of generated examples on
                  spider4sparql-train core.tsv (--full: manifest.tsv), the development KGs and CK25; onboarding time; no LLM)
       npm run bench -- --only onboarding --triples 1000,30000,1000000   (onboarding time, queries, heap on generated KGs)
       npm run bench -- --only onboarding --kg <endpoint URL | files>   (one KG's onboarding: time, queries, what it skipped)
       npm run bench -- --only lexical    (no --kg: the lexical fallback's predicate ranking on those KGs, per source
                                           of related words: none, the built-in table, WordNet, both)
  --questions   which scripted questions the pipeline bench asks (files: from the file name; endpoints: from what the
                endpoint holds, CK25's prod-inst.ttl or a KG from scripts/gen-triples.ts)
  --virtuoso    start a throwaway Virtuoso, load CK25 and a generated KG of --triples (cached in ${generatedDir()}),
                bench both, then each strategy's question-grounded ceiling on CK25 there and embedded
  ceilings      \`npm run eval -- --llm oracle\` per strategy on the embedded CK25 and on the endpoint: F1 side by side,
                timed-out turns, turn p50/p95 and every question whose F1 differs`;

/** Overhead target on a generated 1M+ KG: the pipeline's work per question, LLM excluded. */
const GENERATED_TARGETS = { p50: 100, p95: 300 };
type Questions = "ck25" | "generated";

function questionsForFile(file: string): Questions | undefined {
  if (path.basename(file) === path.basename(ck25Paths().graph)) return "ck25";
  if (/^gen-\d+\.(nt|ttl)$/.test(path.basename(file))) return "generated";
  return undefined;
}

async function runPipeline(kg: KnowledgeGraph, questions: Questions, rounds: number | undefined) {
  if (questions === "ck25") return benchPipeline({ kg, rounds });
  return benchPipeline({ kg, rounds, questions: generatedQuestions(), label: "generated-KG", targets: GENERATED_TARGETS });
}

function ceilingsOutDir(out: string | undefined): string {
  return out ?? path.join(generatedDir(), `ceilings-${new Date().toISOString().replace(/[:.]/g, "-")}`);
}

async function benchVirtuoso(triples: number, rounds: number | undefined, strategies: string[], out: string | undefined): Promise<void> {
  const missing = ck25Missing();
  const gen = await generatedParts(triples);
  // ~1.4 GB of page cache for 10M triples (170,000 × 8 KB); the packaged 80 MB thrashes on a large load
  const buffers = triples >= 5_000_000 ? 170_000 : 20_000;
  const server = await startVirtuoso({ buffers, maxLifetimeS: 3 * 3600, log: (l) => console.log(l) });
  try {
    const files = [...(missing ? [] : [{ path: ck25Paths().graph, graph: "urn:chatty-kg:ck25" }]), ...gen.map((p) => ({ path: p, graph: `urn:chatty-kg:gen-${triples}` }))];
    let t0 = performance.now();
    const loaded = await server.load(files, { loaders: 2, timeoutMs: 3 * 3600_000 });
    console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${loaded.map((g) => `${g.graph} ${g.triples.toLocaleString("en")} triples`).join(", ")}`);
    t0 = performance.now();
    await server.buildTextIndex(3 * 3600_000);
    console.log(`free-text index built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (missing) console.log(`CK25 skipped: ${missing}`);
    else {
      const ck25 = await openKg({ kind: "endpoint", url: server.endpoint("urn:chatty-kg:ck25"), profile: { ...ck25KgSpec().profile, labelSearch: "virtuoso" } });
      console.log(`\nCK25 on Virtuoso (${server.endpoint("urn:chatty-kg:ck25")})`);
      try {
        await benchRemoteLabelSearch(ck25);
        await runPipeline(ck25, "ck25", rounds);
      } finally {
        await ck25.close();
      }
      console.log(`\nQuestion-grounded ceilings on CK25, embedded and on Virtuoso beside the generated KG`);
      // the documented command's profile: CK25's label predicate, language and prefixes
      const outDir = ceilingsOutDir(out);
      const { labelPredicates, language, prefixes } = ck25KgSpec().profile ?? {};
      const profile = path.join(outDir, "ck25-profile.json");
      mkdirSync(outDir, { recursive: true });
      writeFileSync(profile, JSON.stringify({ labelPredicates, language, prefixes }));
      await benchCeilings({ endpoint: server.endpoint("urn:chatty-kg:ck25"), ck25Dir: ck25Paths().dir, strategies, outDir, profile });
    }
    const big = await openKg({ kind: "endpoint", url: server.endpoint(`urn:chatty-kg:gen-${triples}`), profile: { labelSearch: "virtuoso" } });
    console.log(`\nGenerated KG, ${triples.toLocaleString("en")} triples, on Virtuoso`);
    try {
      await benchRemoteLabelSearch(big);
      await runPipeline(big, "generated", rounds);
    } finally {
      await big.close();
    }
  } finally {
    await server.stop();
  }
}

/** Which scripted questions fit what an endpoint holds: a generated KG (its Person class) or CK25 (its namespace). */
async function questionsForEndpoint(kg: KnowledgeGraph): Promise<Questions | undefined> {
  if (await kg.ask(`ASK { ?s a <${GEN_NAMESPACE}Person> }`, { timeoutMs: 30_000 })) return "generated";
  const ck25 = ck25KgSpec().profile?.prefixes?.prodi;
  if (ck25 && (await kg.ask(`ASK { ?s ?p ?o FILTER(STRSTARTS(STR(?s), "${ck25}")) }`, { timeoutMs: 30_000 }))) return "ck25";
  return undefined;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      kg: { type: "string" },
      only: { type: "string" },
      rounds: { type: "string" },
      questions: { type: "string" },
      virtuoso: { type: "boolean", default: false },
      triples: { type: "string" },
      strategies: { type: "string" },
      out: { type: "string" },
      full: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
      ...KG_PROFILE_OPTIONS,
    },
  });
  const rounds = values.rounds ? Number(values.rounds) : undefined;
  if (values.only === "one-call" && !values.help) {
    // its datasets are fixed (recall needs questions that repeat query shapes; coverage every development KG)
    if (values.kg) console.log(`note: --only one-call measures the development KGs and CK25 from ../shared/data; --kg ${values.kg} is not used`);
    await benchOneCall();
    return 0;
  }
  if (values.only === "onboarding" && !values.help) {
    const { benchOnboarding, benchOnboardingKg, benchOnboardingScale } = await import("./bench/onboarding");
    if (values.kg) await benchOnboardingKg(kgSpecFromArgs(values.kg, values));
    else if (values.triples) await benchOnboardingScale(values.triples.split(",").map(Number));
    else await benchOnboarding({ full: values.full === true });
    return 0;
  }
  if (values.only === "lexical" && !values.help) {
    if (values.kg) console.log(`note: --only lexical measures the development KGs and CK25 from ../shared/data; --kg ${values.kg} is not used`);
    await benchLexical();
    return 0;
  }
  if (values.help || (!values.kg && !values.virtuoso)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.only !== undefined && !ONLY.includes(values.only)) {
    console.error(`--only must be one of ${ONLY.join(", ")}, got "${values.only}".\n${USAGE}`);
    return 2;
  }
  if (values.questions !== undefined && values.questions !== "ck25" && values.questions !== "generated") {
    console.error(`--questions must be "ck25" or "generated", got "${values.questions}".\n${USAGE}`);
    return 2;
  }
  const strategies = values.strategies ? values.strategies.split(",").map((x) => x.trim()).filter(Boolean) : CEILING_STRATEGIES;
  if (values.only === "ceilings") {
    if (!values.kg || !/^https?:\/\//i.test(values.kg)) {
      console.error(`--only ceilings needs --kg <the CK25 endpoint URL>.\n${USAGE}`);
      return 2;
    }
    await benchCeilings({ endpoint: values.kg, ck25Dir: ck25Paths().dir, strategies, outDir: ceilingsOutDir(values.out), ...(values.profile ? { profile: values.profile } : {}) });
    return 0;
  }
  if (values.virtuoso) {
    const triples = values.triples ? Number(values.triples) : 10_000_000;
    if (!Number.isInteger(triples) || triples < 1_000_000) throw new Error("--triples must be at least 1000000 (the generated questions ask about its first 150,000 entities)");
    await benchVirtuoso(triples, rounds, strategies, values.out);
    return 0;
  }

  const kgArg = values.kg!;
  if (/^https?:\/\//i.test(kgArg)) {
    const spec = kgSpecFromArgs(kgArg, values);
    let questions = values.questions as Questions | undefined;
    if (!questions) {
      const probe = await openKg(spec);
      questions = await questionsForEndpoint(probe).finally(() => probe.close());
    }
    // CK25's replies are written for its profile (labels, prefixes); flags still win
    const kg = await openKg(questions === "ck25" ? { ...spec, profile: { ...ck25KgSpec().profile, ...(spec.kind === "endpoint" ? spec.profile : {}) } } : spec);
    try {
      console.log(`KG bench: ${kg.info.name} (${kgArg}), label search "${kg.profile.labelSearch}", questions ${questions ?? "none"}`);
      if (values.only !== "pipeline") await benchRemoteLabelSearch(kg);
      if (values.only === "kg") return 0;
      if (!questions) {
        console.log("Pipeline bench skipped: the endpoint holds neither CK25's prod-inst.ttl nor a generated KG (give --questions to force one).");
        return values.only === "pipeline" ? 2 : 0;
      }
      await runPipeline(kg, questions, rounds);
    } finally {
      await kg.close();
    }
    return 0;
  }

  const file = path.resolve(kgArg);
  const isCk25 = questionsForFile(file) === "ck25";
  if (values.only === undefined || values.only === "kg") await benchKg({ kg: file });
  if (values.only === undefined || values.only === "induction") {
    const kg = await openKg(isCk25 ? { ...ck25KgSpec(), paths: [file] } : { kind: "files", paths: [file] });
    try {
      await benchRagonite({ kg });
    } finally {
      await kg.close();
    }
  }
  if (values.only === undefined || values.only === "explorer") {
    // the explorer runs on the default profile (as `npm run eval` does); CK25's questions give the gold measures
    const kg = await openKg({ kind: "files", paths: [file] }, { timeoutMs: 120_000 });
    try {
      await benchExplorer({ kg, ...(isCk25 ? { questions: path.join(ck25Paths().dir, "questions.yml") } : {}), rounds: values.rounds ? Math.min(5, Number(values.rounds)) : undefined });
    } finally {
      await kg.close();
    }
  }
  if (values.only === "kg" || values.only === "induction" || values.only === "explorer") return 0;
  const questions = (values.questions as Questions | undefined) ?? questionsForFile(file);
  if (!questions) {
    console.log(`Pipeline bench skipped: it needs scripted LLM replies for the graph's questions (CK25's prod-inst.ttl, or a gen-<N>.nt file from scripts/gen-triples.ts).`);
    return values.only === "pipeline" ? 2 : 0;
  }
  const kg = await openKg(questions === "ck25" ? { ...ck25KgSpec(), paths: [file] } : { kind: "files", paths: [file] });
  try {
    await runPipeline(kg, questions, rounds);
  } finally {
    await kg.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`bench failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
