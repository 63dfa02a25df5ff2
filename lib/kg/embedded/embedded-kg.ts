// The embedded knowledge graph: an oxigraph store in a worker thread (one job at a time, a timeout restarts the worker
// and reloads the committed sources), queried through the read-only guard.
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseReadOnly, type ParsedQuery } from "../sparql-guard";
import { needsExplicitGrouping, stringifySparql } from "../sparql-syntax";
import { sparqlLabelSearch } from "../label-search";
import { kgProfilePartialSchema, resolveProfile } from "../profile";
import type {
  Bindings,
  GraphResult,
  KgInfo,
  KgProfile,
  KnowledgeGraph,
  LabelHit,
  LabelSearchOptions,
  QueryOptions,
  QueryResult,
  SelectResult,
  TripleJson,
} from "../types";
import { newKgWorker, type SpareWorker } from "./spare-worker";
import { ENTAILMENT_REGIMES, sourceSchema, toWireSource, wireError, type Entailment, type LoadStats, type Op, type RdfSource, type WireError, type WireSource } from "./wire";

export { startSpareWorker, type SpareWorker, type WarmUpStats } from "./spare-worker";
export type { Entailment, LoadStats, RdfSource } from "./wire";
export { ENTAILMENT_REGIMES } from "./wire";
export { ENTAILED_GRAPH } from "./entailment-core.mjs";

export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

const optionsSchema = z.object({
  id: z.string().min(1).default("embedded"),
  name: z.string().min(1).default("Embedded KG"),
  sources: z.array(sourceSchema).default([]),
  profile: kgProfilePartialSchema.optional(),
  /** per-query default; QueryOptions.timeoutMs overrides it */
  timeoutMs: z.number().int().positive().default(DEFAULT_QUERY_TIMEOUT_MS),
  /** queries see the union of all graphs as the default graph (LLM-written queries rarely say GRAPH) */
  unionDefaultGraph: z.boolean().default(true),
  /** pre-grow the WASM heap before big loads (see worker.mjs); off only to measure the difference */
  preReserve: z.boolean().default(true),
  /** "rdfs": materialise what the KG's own sub-class/sub-property/inverse statements imply, in a graph of its own */
  entailment: z.enum(ENTAILMENT_REGIMES).default("none"),
});
export type EmbeddedKgOptions = z.input<typeof optionsSchema> & {
  /** a pre-started (warmed-up) worker to use instead of starting one; the KG owns it from then on */
  worker?: SpareWorker;
};

export interface EmbeddedKg extends KnowledgeGraph {
  /** Replaces the store's contents with these sources, all or nothing: on failure the previous data stays. */
  load(sources: RdfSource[], options?: { signal?: AbortSignal }): Promise<LoadStats>;
  /** Convenience for one inline document. */
  loadString(text: string, format: string, options?: { graph?: string; name?: string; baseIri?: string }): Promise<LoadStats>;
  /** Last error of a background reload after a worker restart, if any (the store is then empty). */
  readonly reloadError: AppError | undefined;
}

/** A message for the worker waiting its turn, and who to tell when it settles. */
interface Job {
  msg: Op;
  timeoutMs?: number;
  signal?: AbortSignal;
  resolve(value: unknown): void;
  reject(error: AppError): void;
  onAbort?: () => void;
}

/** Builds an embedded KG and loads the given sources (if any) before resolving. */
export async function createEmbeddedKg(options: EmbeddedKgOptions = {}): Promise<EmbeddedKg> {
  const { worker: spare, ...rest } = options;
  const parsed = optionsSchema.safeParse(rest);
  if (!parsed.success) {
    await spare?.close();
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", `Invalid embedded KG options: ${issue?.path.join(".") || "options"} ${issue?.message ?? ""}`.trim());
  }
  const o = parsed.data;
  // Embedded stores answer label search from their own index unless the caller's profile says otherwise.
  const profile = resolveProfile({ labelSearch: "index", ...(o.profile ?? {}) });
  const kg = new EmbeddedKnowledgeGraph(o.id, o.name, profile, o.timeoutMs, o.unionDefaultGraph, o.preReserve, spare?.take(), o.entailment);
  if (o.sources.length > 0) {
    try {
      await kg.load(o.sources);
    } catch (e) {
      await kg.close();
      throw e;
    }
  }
  return kg;
}

class EmbeddedKnowledgeGraph implements EmbeddedKg {
  readonly profile: KgProfile;
  private triples: number | undefined;
  private worker: Worker | undefined;
  private queue: Job[] = [];
  private inFlight: { job: Job; id: number; timer?: NodeJS.Timeout } | undefined;
  private nextId = 1;
  /** sources of the last successful load: a restarted worker reloads them */
  private committed: WireSource[] = [];
  private closed = false;
  private lastReloadError: AppError | undefined;
  /** replies received from the current worker; a worker that dies before any reply is not respawned */
  private repliesFromWorker = 0;

  constructor(
    private readonly id: string,
    private readonly name: string,
    profile: KgProfile,
    private readonly defaultTimeoutMs: number,
    private readonly unionDefaultGraph: boolean,
    private readonly preReserve: boolean,
    /** a pre-started worker the first job runs on (restarts start plain workers) */
    private spareWorker: Worker | undefined,
    private readonly entailment: Entailment = "none",
  ) {
    this.profile = profile;
  }

  get info(): KgInfo {
    const entailment = this.entailment === "none" ? {} : { entailment: this.entailment };
    return { id: this.id, kind: "embedded", name: this.name, ...(this.triples === undefined ? {} : { triples: this.triples }), ...entailment };
  }

  get reloadError(): AppError | undefined {
    return this.lastReloadError;
  }

  async load(sources: RdfSource[], options: { signal?: AbortSignal } = {}): Promise<LoadStats> {
    const parsed = z.array(sourceSchema).min(1).safeParse(sources);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError("bad_request", `Invalid RDF sources: ${issue?.path.join(".") || "sources"} ${issue?.message ?? ""}`.trim());
    }
    const wire = parsed.data.map(toWireSource);
    const stats = (await this.submit({ op: "load", sources: wire, labelPredicates: this.profile.labelPredicates, preReserve: this.preReserve, entailment: this.entailment }, {
      signal: options.signal,
    })) as LoadStats;
    this.committed = wire;
    this.triples = stats.triples;
    this.lastReloadError = undefined;
    return stats;
  }

  loadString(text: string, format: string, options: { graph?: string; name?: string; baseIri?: string } = {}): Promise<LoadStats> {
    return this.load([{ text, format, ...options }]);
  }

  async query(sparql: string, options: QueryOptions = {}): Promise<QueryResult> {
    return this.run(parseReadOnly(sparql), options);
  }

  /** Runs a query the guard has already parsed (so each public method parses once), as the guard declared it. */
  private async run(parsed: ParsedQuery, options: QueryOptions = {}): Promise<QueryResult> {
    // oxigraph groups `a - b - c` from the right: such a query runs in its written-out form, every operand bracketed
    const sparql = needsExplicitGrouping(parsed.ast) ? stringifySparql(parsed.ast) : parsed.query;
    const raw = await this.submit({ op: "query", sparql, kind: parsed.kind, unionDefaultGraph: this.unionDefaultGraph }, this.timing(options));
    if (parsed.kind === "CONSTRUCT" || parsed.kind === "DESCRIBE") return { kind: parsed.kind, triples: raw as TripleJson[] };
    const json = JSON.parse(raw as string) as { head?: { vars?: string[] }; results?: { bindings: Bindings[] }; boolean?: boolean };
    if (parsed.kind === "ASK") return { kind: "ASK", head: {}, boolean: json.boolean === true };
    return { kind: "SELECT", head: { vars: projectionOrder(parsed.ast, json.head?.vars ?? []) }, results: { bindings: json.results?.bindings ?? [] } };
  }

  async select(sparql: string, options?: QueryOptions): Promise<SelectResult> {
    const r = await this.queryOfKind(sparql, "SELECT", options);
    if (r.kind !== "SELECT") throw new AppError("internal", "unexpected result kind");
    return { head: r.head, results: r.results };
  }

  async ask(sparql: string, options?: QueryOptions): Promise<boolean> {
    const r = await this.queryOfKind(sparql, "ASK", options);
    if (r.kind !== "ASK") throw new AppError("internal", "unexpected result kind");
    return r.boolean;
  }

  async construct(sparql: string, options?: QueryOptions): Promise<GraphResult> {
    const r = await this.queryOfKind(sparql, "CONSTRUCT", options);
    if (r.kind !== "CONSTRUCT" && r.kind !== "DESCRIBE") throw new AppError("internal", "unexpected result kind");
    return { triples: r.triples };
  }

  async searchLabels(text: string, options: LabelSearchOptions): Promise<LabelHit[]> {
    if (this.profile.labelSearch !== "index") return sparqlLabelSearch(this, text, options);
    const limit = Math.max(0, Math.floor(options.limit));
    if (limit === 0 || typeof text !== "string") return [];
    return (await this.submit(
      // every language is searched; ties go to the question's language, else the profile's
      { op: "search", text: text.slice(0, 1000), limit, preferLanguage: options.questionLanguage ?? this.profile.language },
      this.timing(options),
    )) as LabelHit[];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new AppError("kg_unavailable", "The knowledge graph was closed.");
    if (this.inFlight) {
      clearTimeout(this.inFlight.timer);
      this.settle(this.inFlight.job);
      this.inFlight.job.reject(err);
      this.inFlight = undefined;
    }
    for (const job of this.queue.splice(0)) {
      this.settle(job);
      job.reject(err);
    }
    const w = this.worker;
    this.worker = undefined;
    const spare = this.spareWorker;
    this.spareWorker = undefined;
    await Promise.all([w?.terminate(), spare?.terminate()]);
  }

  /** Checks the kind before running, so select() on an ASK fails clearly instead of returning the wrong shape. */
  private async queryOfKind(sparql: string, kind: "SELECT" | "ASK" | "CONSTRUCT", options?: QueryOptions): Promise<QueryResult> {
    const parsed = parseReadOnly(sparql);
    const ok = kind === "CONSTRUCT" ? parsed.kind === "CONSTRUCT" || parsed.kind === "DESCRIBE" : parsed.kind === kind;
    if (!ok) throw new AppError("bad_request", `Expected a ${kind === "CONSTRUCT" ? "CONSTRUCT or DESCRIBE" : kind} query, got ${parsed.kind}.`);
    return this.run(parsed, options);
  }

  private timing(options: QueryOptions): { timeoutMs: number; signal?: AbortSignal } {
    return { timeoutMs: options.timeoutMs ?? this.defaultTimeoutMs, signal: options.signal };
  }

  /** Queues a job for the worker; jobs run one at a time so a timeout clock starts only when its job starts. */
  private submit(msg: Op, opts: { timeoutMs?: number; signal?: AbortSignal }): Promise<unknown> {
    if (this.closed) return Promise.reject(new AppError("kg_unavailable", "The knowledge graph was closed."));
    if (opts.signal?.aborted) return Promise.reject(new AppError("aborted", "The query was cancelled."));
    return new Promise((resolve, reject) => {
      const job: Job = { msg, timeoutMs: opts.timeoutMs, signal: opts.signal, resolve, reject };
      if (opts.signal) {
        job.onAbort = () => this.abort(job);
        opts.signal.addEventListener("abort", job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  private settle(job: Job): void {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
  }

  private abort(job: Job): void {
    const i = this.queue.indexOf(job);
    if (i >= 0) {
      this.queue.splice(i, 1);
      this.settle(job);
      job.reject(new AppError("aborted", "The query was cancelled."));
    } else if (this.inFlight?.job === job) {
      this.restart(new AppError("aborted", "The query was cancelled."));
    }
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = this.spareWorker ?? newKgWorker();
    this.spareWorker = undefined;
    this.repliesFromWorker = 0;
    w.unref();
    w.on("message", (m: { id: number; value?: unknown; error?: WireError }) => this.onReply(w, m));
    w.on("error", (e) => this.onWorkerDeath(w, e));
    w.on("exit", (code) => this.onWorkerDeath(w, new Error(`worker exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  private pump(): void {
    if (this.closed || this.inFlight || this.queue.length === 0) return;
    const job = this.queue.shift() as Job;
    const w = this.ensureWorker();
    const id = this.nextId++;
    const timer =
      job.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => this.restart(new AppError("kg_timeout", `The query took longer than ${job.timeoutMs} ms and was stopped.`, { details: { timeoutMs: job.timeoutMs } })),
            job.timeoutMs,
          );
    this.inFlight = { job, id, timer };
    // keep the process alive only while the worker has work (an idle KG must not hold a script open)
    w.ref();
    w.postMessage({ id, ...job.msg });
  }

  private onReply(w: Worker, m: { id: number; value?: unknown; error?: WireError }): void {
    if (w !== this.worker || !this.inFlight || this.inFlight.id !== m.id) return;
    this.repliesFromWorker++;
    const { job, timer } = this.inFlight;
    clearTimeout(timer);
    this.inFlight = undefined;
    w.unref();
    this.settle(job);
    if (m.error) job.reject(wireError(m.error));
    else job.resolve(m.value);
    this.pump();
  }

  /**
   * A query in WASM cannot be interrupted: kill the worker, fail the running job, start a fresh worker that reloads
   * the committed sources first; queued jobs then run on it in order.
   */
  private restart(error: AppError): void {
    const current = this.inFlight;
    this.inFlight = undefined;
    if (current) {
      clearTimeout(current.timer);
      this.settle(current.job);
      current.job.reject(error);
    }
    const old = this.worker;
    this.worker = undefined;
    if (old) void old.terminate();
    if (this.closed) return;
    if (this.committed.length > 0) this.queue.unshift(this.reloadJob());
    this.pump();
  }

  private reloadJob(): Job {
    const sources = this.committed;
    return {
      msg: { op: "load", sources, labelPredicates: this.profile.labelPredicates, preReserve: this.preReserve, entailment: this.entailment },
      resolve: (v) => {
        this.triples = (v as LoadStats).triples;
        this.lastReloadError = undefined;
      },
      reject: (e) => {
        // the files changed or vanished since they were loaded: the store is empty until the next load
        this.lastReloadError = e;
        this.triples = 0;
      },
    };
  }

  private onWorkerDeath(w: Worker, e: Error): void {
    if (w !== this.worker) return;
    const err = new AppError("kg_unavailable", `The embedded KG worker stopped: ${e.message}`, { cause: e });
    if (this.repliesFromWorker === 0) {
      // died before answering anything (e.g. cannot start): fail everything instead of respawning in a loop
      this.worker = undefined;
      const jobs = [...(this.inFlight ? [this.inFlight.job] : []), ...this.queue.splice(0)];
      if (this.inFlight) clearTimeout(this.inFlight.timer);
      this.inFlight = undefined;
      for (const job of jobs) {
        this.settle(job);
        job.reject(err);
      }
      return;
    }
    this.restart(err);
  }
}

/** SPARQL JSON from oxigraph lists variables alphabetically; restore the query's projection order. */
function projectionOrder(ast: unknown, vars: string[]): string[] {
  const v = (ast as { variables?: unknown[] }).variables;
  if (!Array.isArray(v)) return vars;
  const names: string[] = [];
  for (const item of v) {
    const term = item as { termType?: string; value?: string; variable?: { value?: string } };
    if (term.termType === "Wildcard") return vars;
    const name = term.termType === "Variable" ? term.value : term.variable?.value;
    if (name) names.push(name);
  }
  return names.length > 0 ? names : vars;
}
