// KG benchmark: first-load speed (fresh worker with/without heap pre-grow, fresh worker incl. warm-up, warm spare worker) and label-search latency.
import { statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createEmbeddedKg, startSpareWorker, type EmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { sparqlLabelSearch } from "@/lib/kg/label-search";
import { tokenize } from "@/lib/kg/label-index";

export interface BenchKgArgs {
  /** RDF file to load */
  kg: string;
  /** format override (turtle, ntriples, …); default from the extension */
  format?: string;
  /** named graph to load into */
  graph?: string;
  /** label-derived search terms for the index search (default 200) */
  terms?: number;
  /** terms for the SPARQL "contains" search, which scans every label (default: same as terms) */
  containsTerms?: number;
  /** also load once without pre-growing the WASM heap, to show the difference (default true) */
  compare?: boolean;
  /** print progress and results (default true) */
  log?: (line: string) => void;
}

export interface LoadMeasure {
  preReserve: boolean;
  triples: number;
  labels: number;
  ms: number;
  parseMs: number;
  reserveMs: number;
  indexMs: number;
  triplesPerSecond: number;
}

export interface LatencyMeasure {
  n: number;
  p50: number;
  p95: number;
  max: number;
  /** share of terms whose first hit has the label the term came from (a sanity check, not a quality metric) */
  firstHitExact: number;
}

/** A load on a pre-started spare worker (see startSpareWorker), timed by the caller's clock. */
export interface SpareLoadMeasure {
  /** from starting the worker to the load being done: warm-up (when it ran to completion) + load + label index */
  wallMs: number;
  /** the warm-up as the worker measured it */
  warmUpMs: number;
  /** parsing and inserting, in the worker */
  parseMs: number;
  indexMs: number;
  /** triples over (parse + index): the whole cost the user waits for once the worker is there */
  triplesPerSecond: number;
}

export interface BenchKgResult {
  file: string;
  bytes: number;
  loads: LoadMeasure[];
  /** the user's load arrives as the spare worker starts: it waits for the warm-up */
  freshWithWarmUp?: SpareLoadMeasure;
  /** the user's load arrives after the spare finished its warm-up (the app keeps one spare ready for uploads) */
  warmWorker?: SpareLoadMeasure;
  labelSearch: { index: LatencyMeasure; contains: LatencyMeasure };
}

const RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label";

async function measureLoad(args: BenchKgArgs, preReserve: boolean): Promise<{ kg: EmbeddedKg; m: LoadMeasure }> {
  // a new KG is a new worker, hence a fresh WASM instance: this is the "first load in a fresh process" case
  const kg = await createEmbeddedKg({ name: "bench", preReserve, timeoutMs: 600_000 });
  const t0 = performance.now();
  const s = await kg.load([{ path: args.kg, ...(args.format ? { format: args.format } : {}), ...(args.graph ? { graph: args.graph } : {}) }]);
  const wall = performance.now() - t0;
  // the worker's parseMs runs from before the heap pre-grow to the end of parsing: the whole load cost
  const loadMs = s.parseMs;
  return {
    kg,
    m: {
      preReserve,
      triples: s.triples,
      labels: s.labels,
      ms: Math.round(wall),
      parseMs: Math.round(s.parseMs - s.reserveMs),
      reserveMs: Math.round(s.reserveMs),
      indexMs: Math.round(s.ms - s.parseMs),
      triplesPerSecond: Math.round(s.triples / (loadMs / 1000)),
    },
  };
}

async function measureSpareLoad(args: BenchKgArgs, waitForWarmUp: boolean): Promise<SpareLoadMeasure> {
  const t0 = performance.now();
  const spare = startSpareWorker();
  const warm = waitForWarmUp ? await spare.ready : undefined;
  const t1 = performance.now();
  const kg = await createEmbeddedKg({ name: "bench", timeoutMs: 600_000, worker: spare });
  try {
    const s = await kg.load([{ path: args.kg, ...(args.format ? { format: args.format } : {}), ...(args.graph ? { graph: args.graph } : {}) }]);
    const end = performance.now();
    const warmUpMs = warm?.warmUpMs ?? (await spare.ready.catch(() => ({ warmUpMs: -1 }))).warmUpMs;
    return {
      wallMs: Math.round(end - (waitForWarmUp ? t1 : t0)),
      warmUpMs: Math.round(warmUpMs),
      parseMs: Math.round(s.parseMs),
      indexMs: Math.round(s.ms - s.parseMs),
      triplesPerSecond: Math.round(s.triples / (s.ms / 1000)),
    };
  } finally {
    await kg.close();
  }
}

/** Deterministic label-derived terms: whole labels, first words, and two-word fragments, in turn. */
export async function searchTerms(kg: Pick<KnowledgeGraph, "select" | "profile">, n: number): Promise<{ term: string; label: string }[]> {
  const predicates = kg.profile.labelPredicates.map((p) => `<${p}>`).join(" ");
  const r = await kg.select(`SELECT ?label WHERE { VALUES ?p { ${predicates} <${RDFS_LABEL}> } ?s ?p ?label FILTER(isLiteral(?label)) } LIMIT 20000`);
  const labels = [...new Set(r.results.bindings.map((b) => b.label.value).filter((l) => tokenize(l).length > 0 && l.length < 80))];
  const out: { term: string; label: string }[] = [];
  if (labels.length === 0) return out;
  const step = Math.max(1, Math.floor(labels.length / n));
  for (let i = 0; out.length < n && i < labels.length * 2; i += step) {
    const label = labels[i % labels.length];
    const words = label.split(/\s+/).filter(Boolean);
    const k = out.length % 3;
    const term = k === 0 || words.length < 2 ? label : k === 1 ? words[0] : words.slice(0, 2).join(" ");
    out.push({ term, label });
  }
  return out;
}

export async function latency(
  terms: { term: string; label: string }[],
  run: (term: string) => Promise<{ label: string }[]>,
): Promise<LatencyMeasure> {
  const times: number[] = [];
  let exact = 0;
  let full = 0;
  for (const [i, t] of terms.entries()) {
    const t0 = performance.now();
    const hits = await run(t.term);
    times.push(performance.now() - t0);
    if (i % 3 === 0) {
      full++;
      if (hits[0] && tokenize(hits[0].label).join(" ") === tokenize(t.label).join(" ")) exact++;
    }
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => Math.round((times[Math.min(times.length - 1, Math.floor(times.length * p))] ?? 0) * 100) / 100;
  return { n: times.length, p50: q(0.5), p95: q(0.95), max: q(1), firstHitExact: full ? Math.round((exact / full) * 100) / 100 : 0 };
}

export async function benchKg(args: BenchKgArgs): Promise<BenchKgResult> {
  const log = args.log ?? ((l: string) => console.log(l));
  const bytes = statSync(args.kg).size;
  log(`KG bench: ${args.kg} (${(bytes / 1e6).toFixed(1)} MB)`);
  const loads: LoadMeasure[] = [];
  if (args.compare !== false) {
    const { kg, m } = await measureLoad(args, false);
    await kg.close();
    loads.push(m);
    log(`  load without heap pre-grow: ${m.triples} triples in ${m.parseMs} ms → ${m.triplesPerSecond.toLocaleString("en")} triples/s (label index ${m.indexMs} ms)`);
  }
  // the spare is taken before its warm-up ends: the load queues behind the warm-up, as a user's would
  const fresh = await measureSpareLoad(args, false);
  log(`  fresh spare worker (incl. warm-up ${fresh.warmUpMs} ms): load done ${fresh.wallMs} ms after the worker started (parse ${fresh.parseMs} ms, label index ${fresh.indexMs} ms)`);
  const warm = await measureSpareLoad(args, true);
  log(
    `  warm spare worker (warm-up ${warm.warmUpMs} ms before):  ${warm.wallMs} ms (parse ${warm.parseMs} ms, label index ${warm.indexMs} ms) → ${warm.triplesPerSecond.toLocaleString("en")} triples/s incl. index`,
  );
  const { kg, m } = await measureLoad(args, true);
  loads.push(m);
  log(
    `  load with heap pre-grow:    ${m.triples} triples in ${m.parseMs + m.reserveMs} ms (pre-grow ${m.reserveMs} ms) → ${m.triplesPerSecond.toLocaleString("en")} triples/s (label index ${m.indexMs} ms, ${m.labels} labels)`,
  );
  try {
    const terms = await searchTerms(kg, args.terms ?? 200);
    await kg.searchLabels("warm up", { limit: 10 });
    const index = await latency(terms, (t) => kg.searchLabels(t, { limit: 10 }));
    log(`  label search "index"    (${index.n} terms): p50 ${index.p50} ms, p95 ${index.p95} ms, max ${index.max} ms, exact first hit ${index.firstHitExact}`);
    const containsKg = { select: kg.select.bind(kg), profile: { ...kg.profile, labelSearch: "contains" as const } };
    const cTerms = terms.slice(0, args.containsTerms ?? terms.length);
    const contains = await latency(cTerms, (t) => sparqlLabelSearch(containsKg, t, { limit: 10, timeoutMs: 120_000 }));
    log(`  label search "contains" (${contains.n} terms): p50 ${contains.p50} ms, p95 ${contains.p95} ms, max ${contains.max} ms, exact first hit ${contains.firstHitExact}`);
    return { file: args.kg, bytes, loads, freshWithWarmUp: fresh, warmWorker: warm, labelSearch: { index, contains } };
  } finally {
    await kg.close();
  }
}

function parseArgs(argv: string[]): BenchKgArgs {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const kg = get("kg");
  if (!kg) {
    console.error("usage: npx tsx scripts/bench/kg.ts --kg <file> [--format turtle] [--graph IRI] [--terms 200] [--contains-terms N] [--no-compare] [--json]");
    process.exit(2);
  }
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  return { kg, format: get("format"), graph: get("graph"), terms: num(get("terms")), containsTerms: num(get("contains-terms")), compare: !argv.includes("--no-compare") };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = parseArgs(process.argv.slice(2));
  const result = await benchKg(args);
  if (process.argv.includes("--json")) console.log(JSON.stringify(result, null, 2));
}
