// Each strategy's question-grounded ceiling on CK25 (`npm run eval -- --llm oracle`), on the embedded store and on an
// endpoint holding CK25, side by side: macro F1, turns that ended on a KG timeout, turn p50/p95, and every question
// whose F1 differs between the two (with both queries' failure kinds), so an engine difference is reported, not
// averaged away. Each run is a child `npm run eval` (what a user would run), with a time limit and a kill on expiry.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runResultSchema, type QuestionRecord } from "@/lib/eval/result-schema";

export interface CeilingOptions {
  /** the CK25 SPARQL endpoint (e.g. Virtuoso's …/sparql?default-graph-uri=urn%3Achatty-kg%3Ack25) */
  endpoint: string;
  /** CK25's folder (graphs/prod-inst.ttl, questions.yml) */
  ck25Dir: string;
  strategies: string[];
  outDir: string;
  /** the endpoint's KG profile (JSON file or inline JSON), passed to eval as --profile */
  profile?: string;
  /** ms a single eval run may take before it is stopped */
  runTimeoutMs?: number;
  /** run the embedded reference too (default true) */
  embedded?: boolean;
  log?: (line: string) => void;
}

export interface CeilingRun {
  f1: number;
  /** turns that ended on a KG timeout (the turn failed) */
  timedOut: number;
  /** turns that went on after a KG call was cut by its timeout or the turn's KG budget (QuestionRecord.kgCuts) */
  cut: number;
  p50Ms: number;
  p95Ms: number;
  /** per stage, over the questions that ran it: [p50, p95] ms */
  stageMs: Record<string, [number, number]>;
  questions: QuestionRecord[];
}

export interface CeilingRow {
  strategy: string;
  embedded?: CeilingRun;
  endpoint: CeilingRun;
  /** questions whose F1 differs: id, F1 embedded → endpoint, failure kinds */
  differing: { id: string; embedded: number; endpoint: number; failure: string }[];
}

const DEFAULT_RUN_TIMEOUT_MS = 90 * 60_000;

function runEval(args: string[], logFile: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "eval", "--", ...args], { stdio: ["ignore", "pipe", "pipe"], detached: false });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => chunks.push(c));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const out = Buffer.concat(chunks).toString("utf8");
      writeFileSync(logFile, out);
      if (code === 0) resolve();
      else reject(new Error(`eval ${signal ? `was stopped (${signal}) after ${timeoutMs} ms` : `exited with ${code}`}; log: ${logFile}\n${out.split("\n").slice(-5).join("\n")}`));
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function readCeilingRun(dir: string): CeilingRun {
  const result = runResultSchema.parse(JSON.parse(readFileSync(path.join(dir, "result.json"), "utf8")));
  const mode = result.summary.modes[0];
  const ms = result.questions.map((q) => q.trace.ms).sort((a, b) => a - b);
  return {
    f1: mode ? mode.macro.all.f1 * 100 : NaN,
    timedOut: result.questions.filter((q) => q.trace.error?.code === "kg_timeout").length,
    cut: result.questions.filter((q) => (q.kgCuts?.length ?? 0) > 0 && q.trace.error?.code !== "kg_timeout").length,
    p50Ms: percentile(ms, 50),
    p95Ms: percentile(ms, 95),
    stageMs: stagePercentiles(result.questions),
    questions: result.questions,
  };
}

export function stagePercentiles(questions: QuestionRecord[]): Record<string, [number, number]> {
  const per = new Map<string, number[]>();
  for (const q of questions) for (const [stage, ms] of Object.entries(q.trace.stageMs ?? {})) if (typeof ms === "number") per.set(stage, [...(per.get(stage) ?? []), ms]);
  return Object.fromEntries([...per].map(([stage, list]) => {
    const sorted = list.sort((a, b) => a - b);
    return [stage, [percentile(sorted, 50), percentile(sorted, 95)]];
  }));
}

/** Questions whose F1 differs between two runs of the same questions. */
export function differingQuestions(a: QuestionRecord[], b: QuestionRecord[]): CeilingRow["differing"] {
  const byId = new Map(b.map((q) => [q.id, q]));
  return a.flatMap((q) => {
    const other = byId.get(q.id);
    const fa = q.metrics?.f1 ?? 0;
    const fb = other?.metrics?.f1 ?? 0;
    if (Math.abs(fa - fb) < 1e-9) return [];
    return [{ id: q.id, embedded: fa, endpoint: fb, failure: `${q.failure ?? "right"} / ${other ? (other.failure ?? "right") : "missing"}` }];
  });
}

export async function benchCeilings(o: CeilingOptions): Promise<CeilingRow[]> {
  const log = o.log ?? console.log;
  const graph = path.join(o.ck25Dir, "graphs/prod-inst.ttl");
  const questions = path.join(o.ck25Dir, "questions.yml");
  for (const f of [graph, questions]) if (!existsSync(f)) throw new Error(`CK25 file not found: ${f}`);
  const timeout = o.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  mkdirSync(o.outDir, { recursive: true });
  const rows: CeilingRow[] = [];
  for (const strategy of o.strategies) {
    const common = ["--llm", "oracle", "--strategy", strategy];
    let embedded: CeilingRun | undefined;
    if (o.embedded !== false) {
      const out = path.join(o.outDir, `${strategy}-embedded`);
      log(`${strategy}: embedded run → ${out}`);
      await runEval(["--dataset", "ck25", "--kg", graph, ...common, "--out", out], `${out}.log`, timeout);
      embedded = readCeilingRun(out);
    }
    const out = path.join(o.outDir, `${strategy}-endpoint`);
    log(`${strategy}: endpoint run → ${out}`);
    const profile = o.profile ? ["--profile", o.profile] : [];
    await runEval(["--dataset", "ck25", "--kg", o.endpoint, "--file", questions, "--gold-kg", graph, "--label-search", "virtuoso", ...profile, ...common, "--out", out], `${out}.log`, timeout);
    const endpoint = readCeilingRun(out);
    const row: CeilingRow = { strategy, ...(embedded ? { embedded } : {}), endpoint, differing: embedded ? differingQuestions(embedded.questions, endpoint.questions) : [] };
    rows.push(row);
    log(formatCeilingRow(row));
  }
  return rows;
}

export function formatCeilingRow(r: CeilingRow): string {
  const run = (c: CeilingRun) => `F1 ${c.f1.toFixed(1)}, ${c.timedOut} timed-out turns, ${c.cut} with KG calls cut, turn p50/p95 ${Math.round(c.p50Ms)}/${Math.round(c.p95Ms)} ms`;
  const lines = [`${r.strategy}: ${r.embedded ? `embedded ${run(r.embedded)} | ` : ""}endpoint ${run(r.endpoint)}${r.embedded ? ` | gap ${(r.embedded.f1 - r.endpoint.f1).toFixed(1)} points` : ""}`];
  const stages = Object.entries(r.endpoint.stageMs).map(([stage, [p50, p95]]) => `${stage} ${Math.round(p50)}/${Math.round(p95)}`);
  if (stages.length) lines.push(`  endpoint stage p50/p95 ms: ${stages.join(", ")}`);
  for (const d of r.differing) lines.push(`  ${d.id}: F1 ${d.embedded.toFixed(3)} → ${d.endpoint.toFixed(3)} (${d.failure})`);
  return lines.join("\n");
}
