// Diagnostics for the workbench, placed where they belong in the query: a syntax error at its position with what
// the parser expected; a query the read-only guard would refuse, at the keyword that makes it so; then the KG checks
// of the shared query validator (unknown classes and predicates, patterns nothing matches, with its suggestions),
// each at the term it is about. The KG checks run within a deadline: past it they stop and say so.
import "server-only";
import type * as Sparql from "sparqljs";
import type { CheckResponse, Diagnostic } from "@/lib/api/contract";
import { toAppError, type AppError } from "@/lib/errors";
import { parseReadOnly, type ParsedQuery } from "@/lib/kg/sparql-guard";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { projectionProblems, validateQuery } from "@/lib/pipeline/common/query-validator";
import { queryTerms } from "@/lib/pipeline/common/query-terms";
import type { SchemaCards } from "@/lib/pipeline/common/schema-cards";
import { currentClassPredicates, currentVocabulary, type ProfileSource } from "./vocabulary";
import { expectedText, locate, locateTerm, position, problemTarget, wordAt } from "./positions";

export interface CheckOptions {
  allowService: boolean;
  /** the KG checks stop after this long (the syntax check never waits for the KG) */
  deadlineMs?: number;
  /** ASK queries per check at most */
  maxChecks?: number;
  signal?: AbortSignal;
  /** the KG's onboarding profile, when it has one (the vocabulary then comes from it) */
  profile?: ProfileSource;
}

const DEADLINE_MS = 6_000;
const ASK_TIMEOUT_MS = 3_000;
/** per KG, the answers of recent ASKs: re-checking while someone types asks the KG only about what changed */
const askCaches = new WeakMap<KnowledgeGraph, Map<string, boolean>>();
const ASK_CACHE_SIZE = 2_000;

function cachedAsk(kg: KnowledgeGraph, deadline: AbortSignal, signal?: AbortSignal) {
  let cache = askCaches.get(kg);
  if (!cache) askCaches.set(kg, (cache = new Map()));
  return async (query: string): Promise<boolean | undefined> => {
    const hit = cache.get(query);
    if (hit !== undefined) return hit;
    if (deadline.aborted) return undefined;
    try {
      const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
      // raced with the deadline too: a KG that does not heed the signal cannot hold the check past it
      const cut = new Promise<never>((_, reject) => stop.addEventListener("abort", () => reject(new Error("deadline")), { once: true }));
      cut.catch(() => {}); // settles after the race is over when the ASK answered first: not an unhandled rejection
      const r = await Promise.race([kg.ask(query, { timeoutMs: ASK_TIMEOUT_MS, signal: stop }), cut]);
      cache.set(query, r);
      if (cache.size > ASK_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return r;
    } catch (e) {
      if (signal?.aborted) throw e;
      return undefined; // a timeout is not a fault of the query
    }
  };
}

/** Syntax and read-only problems: no KG involved, answered at once. */
export function syntaxDiagnostics(query: string, allowService: boolean): { parsed?: ParsedQuery; diagnostics: Diagnostic[] } {
  let parsed: ParsedQuery;
  try {
    parsed = parseReadOnly(query);
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "sparql_syntax") {
      const prefix = /Unknown prefix: ([\w.-]*)/.exec(err.message)?.[1];
      const unknown = prefix !== undefined ? locate(query, new RegExp(`(?<![\\w.-])${prefix.replace(/[.-]/g, "\\$&")}:`)) : undefined;
      if (unknown) return { diagnostics: [{ ...unknown, severity: "error", source: "syntax", message: `The prefix ${prefix}: is not declared: add PREFIX ${prefix}: <…> at the top (Format adds the KG's prefixes).` }] };
      const at = offendingToken(query, err);
      // the parser's whole list (the error's details keep only its first few)
      const all = (err.cause as { hash?: { expected?: string[] } } | undefined)?.hash?.expected;
      const expected = expectedText(all ?? (err.details?.expected as string[] | undefined));
      const found = at.word ? `unexpected “${at.word.length > 40 ? `${at.word.slice(0, 39)}…` : at.word}”` : "the query ends too early";
      const message = at.located ? `SPARQL syntax error at line ${at.line}, column ${at.column}: ${found}.` : err.message;
      // a query that stops short is most often one being typed: said quietly (Run still refuses it with the error)
      const unfinished = at.located && !at.word;
      return {
        diagnostics: [
          {
            line: at.line,
            column: at.column,
            endLine: at.endLine,
            endColumn: at.endColumn,
            severity: unfinished ? "info" : "error",
            source: "syntax",
            message: unfinished ? `The query is not finished${expected ? `: ${expected} should follow` : ""}.` : `${message}${expected ? ` Expected ${expected}.` : ""}`,
          },
        ],
      };
    }
    if (err.code === "sparql_forbidden") {
      const at = locate(query, /\b(INSERT|DELETE|LOAD|CLEAR|DROP|CREATE|ADD|MOVE|COPY|WITH)\b/i) ?? { line: 1, column: 1 };
      return { diagnostics: [{ ...at, severity: "error", source: "read-only", message: `${err.message} The workbench runs read-only queries only; this one would be refused.` }] };
    }
    throw e;
  }
  if (parsed.serviceIris.length > 0 && !allowService) {
    const at = locate(query, /\bSERVICE\b/i) ?? { line: 1, column: 1 };
    const message = `Federated SERVICE queries are turned off on this server (${parsed.serviceIris.slice(0, 3).join(", ")}); this query would be refused. Set SPARQL_ALLOW_SERVICE=true to allow them.`;
    return { parsed, diagnostics: [{ ...at, severity: "error", source: "read-only", message }] };
  }
  return { parsed, diagnostics: [] };
}

/** The validator's environment from the workbench's vocabulary (no prompt: nothing counts as already known). */
async function validationCards(kg: KnowledgeGraph, classes: string[], declared: Record<string, string>, deadline: AbortSignal, profile?: ProfileSource): Promise<SchemaCards | undefined> {
  const until = new Promise<undefined>((resolve) => {
    if (deadline.aborted) resolve(undefined);
    deadline.addEventListener("abort", () => resolve(undefined), { once: true });
  });
  const vocabulary = await Promise.race([currentVocabulary(kg, profile).catch(() => undefined), until]);
  if (!vocabulary) return undefined;
  const known = new Set(vocabulary.classes.map((c) => c.iri));
  const perClass = await Promise.race([
    Promise.all(classes.filter((c) => known.has(c)).map((c) => currentClassPredicates(kg, c, profile).catch(() => undefined))),
    until.then(() => []),
  ]);
  const predicatesOf = new Map((perClass ?? []).flatMap((r) => (r ? [[r.class, r.predicates] as const] : [])));
  return {
    kgId: kg.info.id,
    cards: vocabulary.classes.map((c) => ({
      class: c.iri,
      count: c.count,
      ...(c.label ? { label: c.label } : {}),
      predicates: (predicatesOf.get(c.iri) ?? []).map((p) => ({ iri: p.iri, count: p.count, ranges: [] })),
    })),
    // the query's own prefixes first: messages then name terms as the query writes them
    prefixes: { ...vocabulary.prefixes, ...declared },
    predicates: new Map(vocabulary.predicates.map((p) => [p.iri, p.count])),
    sampled: vocabulary.sampled,
  };
}

export async function checkQuery(kg: KnowledgeGraph, query: string, options: CheckOptions): Promise<CheckResponse> {
  const { parsed, diagnostics } = syntaxDiagnostics(query, options.allowService);
  if (!parsed || diagnostics.length) return { diagnostics, complete: true };
  const ast = parsed.ast as Sparql.SelectQuery | Sparql.AskQuery;
  // CONSTRUCT and DESCRIBE: the validator reads SELECT and ASK patterns only
  if (parsed.kind !== "SELECT" && parsed.kind !== "ASK") return { diagnostics, complete: true };
  const deadline = AbortSignal.timeout(options.deadlineMs ?? DEADLINE_MS);
  const { typePredicates, labelPredicates } = kg.profile;
  const terms = queryTerms(ast, typePredicates);
  const cards = await validationCards(kg, terms.classes, ast.prefixes ?? {}, deadline, options.profile);
  if (!cards) return { diagnostics, complete: false };
  const ask = cachedAsk(kg, deadline, options.signal);
  const outcome = await validateQuery(ast, { cards, known: new Set(), typePredicates, labelPredicates, ask, maxChecks: options.maxChecks ?? 40 });
  // the projection rules are for model-written answers; a person at the workbench may well want SELECT * or labels
  const skip = new Set(ast.queryType === "SELECT" ? projectionProblems(ast, terms.required, labelPredicates) : []);
  for (const message of outcome.problems) {
    if (skip.has(message)) continue;
    const target = problemTarget(message, [...terms.predicates, ...terms.classes, ...terms.constants], cards.prefixes);
    const at = target ? locateTerm(query, target, { ...cards.prefixes, ...(ast.prefixes ?? {}) }) : undefined;
    diagnostics.push({ ...(at ?? { line: 1, column: 1 }), severity: "warning", source: "kg", message });
  }
  return { diagnostics, complete: !deadline.aborted && outcome.checks < (options.maxChecks ?? 40) };
}

/**
 * Where the parser stopped: jison's location is the last token it accepted, so the offending token is the next one
 * after it (skipping spaces and comments). Lines count in the text given (PREFIX lines the guard added are taken off).
 */
function offendingToken(query: string, err: AppError): { line: number; column: number; endLine: number; endColumn: number; word: string; located: boolean } {
  const loc = (err.cause as { hash?: { loc?: { first_line?: number; last_line?: number; last_column?: number } } } | undefined)?.hash?.loc;
  const line = err.where?.line ?? 1;
  if (!loc || loc.last_line === undefined || loc.last_column === undefined || loc.first_line === undefined) {
    return { line, column: err.where?.column ?? 1, ...wordAt(query, line, err.where?.column ?? 1), word: "", located: false };
  }
  const shift = loc.first_line - line;
  const lines = query.split("\n");
  let offset = lines.slice(0, Math.max(0, loc.last_line - shift - 1)).reduce((n, l) => n + l.length + 1, 0) + loc.last_column;
  for (;;) {
    if (/\s/.test(query[offset] ?? "")) offset++;
    else if (query[offset] === "#") while (offset < query.length && query[offset] !== "\n") offset++;
    else break;
  }
  const start = position(query, Math.min(offset, query.length));
  const word = /^[^\s{}().,;]+|^./.exec(query.slice(offset))?.[0] ?? "";
  const end = position(query, Math.min(query.length, offset + Math.max(1, word.length)));
  return { line: start.line, column: start.column, endLine: end.line, endColumn: Math.max(end.column, start.column + 1), word, located: true };
}
