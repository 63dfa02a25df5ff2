// The TEXT2SPARQL challenge API as the official client calls it: a question and a dataset IRI in, the final SPARQL
// query out (exactly {dataset, question, query}), from a headless run within a time budget.
import { QUESTION_MAX_CHARS } from "@/lib/api/turn-stream";
import type sparqljs from "sparqljs";
import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { Similarity } from "@/lib/embeddings/types";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { parseDeclaring } from "@/lib/kg/well-known-prefixes";
import { completePrefixes } from "@/lib/pipeline/common/prefixes";
import { pipelineConfigSchema, type DerivationEvent, type Strategy, type StrategyId } from "@/lib/pipeline/types";
import { askHeadless, type HeadlessOutcome } from "./headless-ask";
import { findDataset, type DatasetTarget, type StrategyChoice } from "./text2sparql-config";

/** The response: exactly these three keys (a different key fails the whole answer with the official scorer). */
export const text2SparqlResponseSchema = z.strictObject({ dataset: z.string(), question: z.string(), query: z.string() });
export type Text2SparqlResponse = z.infer<typeof text2SparqlResponseSchema>;

/** Rows a generated query may return while it is checked; a LIMIT of exactly this is ours and is not returned. */
export const TEXT2SPARQL_ROW_LIMIT = 1_000_000;

/** FastAPI's validation error body (422), which the official client and its server template use. */
export interface FastApiValidationError {
  detail: { type: string; loc: (string | number)[]; msg: string; input: unknown; ctx?: Record<string, unknown> }[];
}

/**
 * The query parameters, checked as FastAPI would: a missing one is "missing", an empty one is too short, a question
 * over the app's limit (QUESTION_MAX_CHARS, after trimming, as in the chat) too long — echoed cut to 200 characters.
 */
export function validateParams(params: URLSearchParams): { ok: true; question: string; dataset: string } | { ok: false; body: FastApiValidationError } {
  const detail: FastApiValidationError["detail"] = [];
  const read = (name: "question" | "dataset") => {
    const value = params.get(name);
    if (value === null) detail.push({ type: "missing", loc: ["query", name], msg: "Field required", input: null });
    else if (!value.trim()) detail.push({ type: "string_too_short", loc: ["query", name], msg: "String should have at least 1 character", input: value });
    else if (name === "question" && value.trim().length > QUESTION_MAX_CHARS) {
      detail.push({
        type: "string_too_long",
        loc: ["query", name],
        msg: `String should have at most ${QUESTION_MAX_CHARS} characters`,
        input: `${value.slice(0, 200)}…`,
        ctx: { max_length: QUESTION_MAX_CHARS },
      });
    }
    return value ?? "";
  };
  const question = read("question");
  const dataset = read("dataset");
  return detail.length ? { ok: false, body: { detail } } : { ok: true, question, dataset };
}

export interface Text2SparqlDeps {
  datasets: DatasetTarget[];
  /** the installation's default KG (registry "sample", i.e. KG_DEFAULT) */
  defaultKg: () => Promise<KnowledgeGraph>;
  /** opens a dataset's files or endpoint (default: openKg) */
  openKg?: typeof openKg;
  llm: () => LlmGateway;
  similarity: (signal?: AbortSignal) => Promise<Similarity>;
  getStrategy: (id: StrategyId) => Strategy;
  /** the strategy for a dataset's questions (TEXT2SPARQL_STRATEGY, else the default-strategy rule for its KG) */
  chooseStrategy: (dataset: DatasetTarget) => StrategyChoice;
  budgetMs: number;
  queryTimeoutMs?: number;
}

export interface Text2SparqlAnswer {
  response: Text2SparqlResponse;
  outcome: HeadlessOutcome;
  strategy: StrategyChoice;
}

/**
 * Declares the prefixes the query uses (the well-known ones, lib/kg/well-known-prefixes.ts, and the KG profile's), and
 * drops the row cap the checks added (a LIMIT of exactly ours): the organisers run the text on their own endpoint.
 */
export function finalQueryText(query: string, prefixes: Record<string, string>, rowLimit = TEXT2SPARQL_ROW_LIMIT): string {
  const declared = parseDeclaring(completePrefixes(query.trim(), prefixes), (text) => parseSparql(text));
  // not ours to fix: the client gets what the strategy wrote
  if (!declared.ok) return completePrefixes(query.trim(), prefixes);
  const ast = declared.parsed;
  if (ast.type !== "query" || ast.queryType !== "SELECT" || ast.limit !== rowLimit) return declared.query;
  const { limit: _limit, ...unlimited } = ast;
  return stringifySparql(unlimited as sparqljs.SparqlQuery);
}

/** When no query was found in time: one that parses and answers nothing, saying why in a comment. */
export function noQuery(reason: string): string {
  return `# no query found: ${reason.replace(/\s+/g, " ").slice(0, 200)}\nSELECT ?answer WHERE { FILTER(false) }`;
}

export function createText2Sparql(deps: Text2SparqlDeps) {
  const open = deps.openKg ?? openKg;
  // one open KG per dataset for the process (opening a file store is seconds; a failed open is retried next time)
  const kgs = new Map<string, Promise<KnowledgeGraph>>();
  function kgFor(d: DatasetTarget): Promise<KnowledgeGraph> {
    if (d.spec.kind === "sample" && !d.spec.profile) return deps.defaultKg();
    let p = kgs.get(d.iri);
    if (!p) {
      p = open(d.spec, { timeoutMs: deps.queryTimeoutMs }).catch((e: unknown) => {
        kgs.delete(d.iri);
        throw e;
      });
      kgs.set(d.iri, p);
    }
    return p;
  }

  /** The configured dataset an IRI names; not_found (404) listing the known ones otherwise. */
  function datasetOf(datasetIri: string): DatasetTarget {
    const dataset = findDataset(deps.datasets, datasetIri);
    if (dataset) return dataset;
    const known = deps.datasets.map((d) => d.iri);
    throw new AppError("not_found", `Unknown dataset ${JSON.stringify(datasetIri.slice(0, 200))}.${known.length ? ` Known: ${known.join(", ")}.` : " No dataset is configured (TEXT2SPARQL_DATASETS)."}`);
  }

  async function answer(question: string, datasetIri: string, signal?: AbortSignal, onEvent?: (e: DerivationEvent) => void): Promise<Text2SparqlAnswer> {
    const dataset = datasetOf(datasetIri);
    const choice = deps.chooseStrategy(dataset);
    const strategy = deps.getStrategy(choice.strategy);
    const llm = deps.llm(); // llm_not_configured before anything is opened
    const kg = await kgFor(dataset);
    const similarity = await deps.similarity(signal);
    const config = pipelineConfigSchema.parse({
      strategy: choice.strategy,
      mode: "single",
      rowLimit: TEXT2SPARQL_ROW_LIMIT,
      ...(deps.queryTimeoutMs ? { queryTimeoutMs: deps.queryTimeoutMs } : {}),
    });
    const outcome = await askHeadless({ strategy, input: { question, dialogue: [], config }, deps: { kg, llm, similarity }, budgetMs: deps.budgetMs, signal, onEvent });
    if (outcome.ended === "aborted") throw new AppError("aborted", "The client closed the request.");
    const reason =
      outcome.ended === "budget" ? `the time budget of ${Math.round(deps.budgetMs / 1000)} s ended before any query ran`
      : (outcome.result?.error?.message ?? "the strategy found no query");
    const query = outcome.query ? finalQueryText(outcome.query, kg.profile.prefixes) : noQuery(reason);
    // the echo is the client's own text, as it sent it (its scorer matches answers by it)
    return { response: text2SparqlResponseSchema.parse({ dataset: datasetIri, question, query }), outcome, strategy: choice };
  }

  async function close(): Promise<void> {
    const all = [...kgs.values()];
    kgs.clear();
    await Promise.all(all.map((p) => p.then((kg) => kg.close()).catch(() => {})));
  }

  return { datasetOf, answer, close };
}

export type Text2Sparql = ReturnType<typeof createText2Sparql>;
