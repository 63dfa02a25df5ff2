// A KnowledgeGraph over a remote SPARQL 1.1 Protocol endpoint: guarded, GET/POST, timeouts, validated replies.
import type { Quad as RdfQuad, Term as RdfTerm } from "oxigraph";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { sparqlLabelSearch, type LabelSearchDeps } from "./label-search";
import { presetForUrl, resolveProfile, type KgProfilePartial } from "./profile";
import { DEFAULT_MAX_RESPONSE_BYTES, bodySnippet, httpCall } from "./remote-http";
import { limitedToSortedTop, sortedTopCapOf } from "./remote-sorted-top";
import { parseReadOnly, type ParsedQuery } from "./sparql-guard";
import type {
  AskResult,
  Bindings,
  GraphResult,
  KgInfo,
  KnowledgeGraph,
  QueryKind,
  QueryOptions,
  QueryResult,
  SelectResult,
  Term,
  TripleJson,
} from "./types";

export const DEFAULT_REMOTE_TIMEOUT_MS = 30_000;
/** Above this URL length the query goes in a POST body (many servers and proxies cap URLs near 8 KB; 2 KB is safe). */
export const DEFAULT_MAX_GET_URL = 2048;

export const remoteKgOptionsSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  profile: z.unknown().optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  method: z.enum(["GET", "POST", "auto"]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  maxResponseBytes: z.number().int().positive().optional(),
  maxGetUrlLength: z.number().int().positive().optional(),
  name: z.string().optional(),
});

export interface RemoteKgOptions {
  url: string;
  /** merged over the preset for a known endpoint (dbpedia, wikidata, …) and the defaults */
  profile?: KgProfilePartial;
  /** default per-query timeout (ms); a query's own timeoutMs wins */
  timeoutMs?: number;
  method?: "GET" | "POST" | "auto";
  /** extra headers, e.g. Authorization; never logged or put in messages */
  headers?: Record<string, string>;
  /** replies larger than this fail with kg_bad_response (default 50 MB) */
  maxResponseBytes?: number;
  maxGetUrlLength?: number;
  /** display name; defaults to the host */
  name?: string;
  /** injected for tests */
  fetch?: typeof fetch;
}

const USER_AGENT = "Chatty-KG/0.1 (knowledge-graph chat)";
const ACCEPT_RESULTS = "application/sparql-results+json, application/json;q=0.8";
const ACCEPT_GRAPH = "application/n-triples, text/turtle;q=0.9, application/n-quads;q=0.8, application/ld+json;q=0.6, application/rdf+xml;q=0.5, text/plain;q=0.4";

export function createRemoteKg(options: RemoteKgOptions): KnowledgeGraph {
  const checked = remoteKgOptionsSchema.safeParse(options);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AppError("bad_request", `Invalid remote KG options: ${issue?.path.join(".") || "options"} ${issue?.message ?? "is invalid"}.`);
  }
  const endpoint = new URL(options.url);
  const host = endpoint.host;
  const preset = presetForUrl(options.url);
  let profile = resolveProfile(options.profile, resolveProfile(preset?.profile));
  // The "index" adapter belongs to the embedded store; a remote endpoint falls back to CONTAINS.
  if (profile.labelSearch === "index") profile = { ...profile, labelSearch: "contains" };
  const defaultTimeout = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  const method = options.method ?? "auto";
  const maxGet = options.maxGetUrlLength ?? DEFAULT_MAX_GET_URL;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const idUrl = new URL(endpoint);
  idUrl.username = "";
  idUrl.password = "";
  const info: KgInfo = { id: `remote:${idUrl.toString()}`, kind: "remote", name: options.name ?? host };
  let closed = false;

  async function send(sparql: string, kind: QueryKind, opts: QueryOptions = {}) {
    if (closed) throw new AppError("kg_unavailable", `The connection to ${host} was closed.`);
    const accept = kind === "SELECT" || kind === "ASK" ? ACCEPT_RESULTS : ACCEPT_GRAPH;
    const getUrl = new URL(endpoint);
    getUrl.searchParams.append("query", sparql);
    const usePost = method === "POST" || (method === "auto" && getUrl.toString().length > maxGet);
    // Public endpoints (Wikidata, DBpedia) ask clients to identify themselves; a caller's user-agent wins.
    const headers = { "user-agent": USER_AGENT, ...options.headers, accept };
    return httpCall({
      url: usePost ? endpoint.toString() : getUrl.toString(),
      method: usePost ? "POST" : "GET",
      headers: usePost ? { ...headers, "content-type": "application/x-www-form-urlencoded;charset=UTF-8" } : headers,
      body: usePost ? new URLSearchParams({ query: sparql }).toString() : undefined,
      timeoutMs: opts.timeoutMs ?? defaultTimeout,
      signal: opts.signal,
      maxBytes,
      fetch: options.fetch,
      what: "SPARQL endpoint",
    });
  }

  async function query(sparql: string, opts?: QueryOptions): Promise<QueryResult> {
    // refuses updates before any request is made; sends the query with its undeclared well-known prefixes declared
    const { kind, ast, query: declared } = parseReadOnly(sparql);
    if (kind === "SELECT") return { kind, ...(await selectWithinSortedTop(ast, declared, opts)) };
    const reply = await send(declared, kind, opts);
    if (kind === "ASK") return { kind, ...parseAsk(reply.text, reply.contentType, host) };
    return { kind, ...(await parseGraph(reply.text, reply.contentType, host, endpoint.toString())) };
  }

  // learned from the endpoint's first SR353 refusal (Virtuoso), so later sorted queries are capped before they are sent
  let sortedTopCap: number | undefined;

  async function selectWithinSortedTop(ast: ParsedQuery["ast"], declared: string, opts?: QueryOptions): Promise<SelectResult> {
    const run = async (text: string) => {
      const reply = await send(text, "SELECT", opts);
      return withServerRowCap(parseSelect(reply.text, reply.contentType, host), reply.headers);
    };
    // the LIMIT lowered to the cap: a full result may be cut, which serverRowCap tells the caller
    const capped = async (lowered: { query: string; limit: number }) => {
      const r = await run(lowered.query);
      return r.results.bindings.length >= lowered.limit ? { ...r, serverRowCap: Math.min(r.serverRowCap ?? lowered.limit, lowered.limit) } : r;
    };
    const known = sortedTopCap !== undefined ? limitedToSortedTop(ast, sortedTopCap) : undefined;
    if (known) return capped(known);
    try {
      return await run(declared);
    } catch (e) {
      const cap = sortedTopCapOf(e);
      const lowered = cap !== undefined ? limitedToSortedTop(ast, cap) : undefined;
      if (!lowered) throw e;
      sortedTopCap = cap;
      return capped(lowered);
    }
  }

  const kg: KnowledgeGraph = {
    info,
    profile,
    query,
    async select(sparql, opts) {
      const r = await query(sparql, opts);
      if (r.kind !== "SELECT") throw new AppError("bad_request", `Expected a SELECT query, got ${r.kind}.`);
      return { head: r.head, results: r.results, ...(r.serverRowCap !== undefined ? { serverRowCap: r.serverRowCap } : {}) };
    },
    async ask(sparql, opts) {
      const r = await query(sparql, opts);
      if (r.kind !== "ASK") throw new AppError("bad_request", `Expected an ASK query, got ${r.kind}.`);
      return r.boolean;
    },
    async construct(sparql, opts) {
      const r = await query(sparql, opts);
      if (r.kind !== "CONSTRUCT" && r.kind !== "DESCRIBE") throw new AppError("bad_request", `Expected a CONSTRUCT or DESCRIBE query, got ${r.kind}.`);
      return { triples: r.triples };
    },
    searchLabels(text, opts) {
      const deps: LabelSearchDeps = { fetch: options.fetch };
      return sparqlLabelSearch(kg, text, opts, deps);
    },
    async close() {
      closed = true;
    },
  };
  return kg;
}

// ---- reply parsing -------------------------------------------------------------------------------------------

const termSchema = z.union([
  z.object({ type: z.literal("uri"), value: z.string() }),
  z.object({ type: z.literal("bnode"), value: z.string() }),
  // "typed-literal" is the SPARQL 1.0 JSON spelling Virtuoso still sends.
  z.object({ type: z.enum(["literal", "typed-literal"]), value: z.string(), "xml:lang": z.string().optional(), datatype: z.string().optional() }),
]);

const selectSchema = z.object({
  head: z.object({ vars: z.array(z.string()).optional() }).optional(),
  results: z.object({ bindings: z.array(z.record(z.string(), termSchema)) }),
});

const askSchema = z.object({ head: z.object({}).optional(), boolean: z.boolean() });

function parseJsonReply(text: string, contentType: string, host: string): unknown {
  if (contentType.includes("html") || /^\s*<(!doctype|html|head|body)/i.test(text)) {
    throw new AppError(
      "kg_bad_response",
      `The endpoint at ${host} answered with an HTML page, not SPARQL results; is the URL the SPARQL endpoint itself?${snippetSuffix(text, contentType)}`,
      { details: { host, contentType, snippet: bodySnippet(text, contentType, 200) } },
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("kg_bad_response", `The endpoint at ${host} did not return JSON results (content type ${contentType || "none"}).${snippetSuffix(text, contentType)}`, {
      cause: e,
      details: { host, contentType, snippet: bodySnippet(text, contentType, 200) },
    });
  }
}

function snippetSuffix(text: string, contentType: string): string {
  const s = bodySnippet(text, contentType, 160);
  return s ? ` It began: "${s}"` : "";
}

function shapeError(host: string, what: string, error: z.ZodError): AppError {
  const issue = error.issues[0];
  return new AppError("kg_bad_response", `The endpoint at ${host} returned ${what} of an unexpected shape (${issue?.path.join(".") || "root"}: ${issue?.message}).`, {
    details: { host },
  });
}

function normalizeTerm(t: z.infer<typeof termSchema>): Term {
  if (t.type === "uri" || t.type === "bnode") return { type: t.type, value: t.value };
  const out: Term = { type: "literal", value: t.value };
  if (t["xml:lang"]) out["xml:lang"] = t["xml:lang"];
  else if (t.datatype) out.datatype = t.datatype;
  return out;
}

export function parseSelect(text: string, contentType: string, host: string): SelectResult {
  const parsed = selectSchema.safeParse(parseJsonReply(text, contentType, host));
  if (!parsed.success) throw shapeError(host, "SELECT results", parsed.error);
  const bindings: Bindings[] = parsed.data.results.bindings.map((row) => {
    const out: Bindings = {};
    for (const [k, v] of Object.entries(row)) out[k] = normalizeTerm(v);
    return out;
  });
  const vars = parsed.data.head?.vars ?? [...new Set(bindings.flatMap((b) => Object.keys(b)))];
  return { head: { vars }, results: { bindings } };
}

/**
 * Virtuoso returns at most ResultSetMaxRows rows (10,000 by default) without an error and says so only in the
 * X-SPARQL-MaxRows header (sent when the result reached that cap): recorded so callers can show "there may be more".
 */
export function withServerRowCap(result: SelectResult, headers: Headers): SelectResult {
  const cap = Number(headers.get("x-sparql-maxrows") ?? NaN);
  if (!Number.isInteger(cap) || cap <= 0 || result.results.bindings.length < cap) return result;
  return { ...result, serverRowCap: cap };
}

export function parseAsk(text: string, contentType: string, host: string): AskResult {
  const trimmed = text.trim().toLowerCase();
  // Some servers answer ASK as text/boolean.
  if (contentType.startsWith("text/boolean") && (trimmed === "true" || trimmed === "false")) return { head: {}, boolean: trimmed === "true" };
  const parsed = askSchema.safeParse(parseJsonReply(text, contentType, host));
  if (!parsed.success) throw shapeError(host, "an ASK result", parsed.error);
  return { head: {}, boolean: parsed.data.boolean };
}

const GRAPH_FORMATS: Record<string, string> = {
  "application/n-triples": "application/n-triples",
  "text/plain": "application/n-triples",
  "text/turtle": "text/turtle",
  "application/x-turtle": "text/turtle",
  "application/n-quads": "application/n-quads",
  "application/ld+json": "application/ld+json",
  "application/rdf+xml": "application/rdf+xml",
  "application/xml": "application/rdf+xml",
};

export async function parseGraph(text: string, contentType: string, host: string, baseIri: string): Promise<GraphResult> {
  const mime = contentType.split(";")[0].trim();
  if (mime.includes("html") || /^\s*<(!doctype|html)/i.test(text)) parseJsonReply(text, "text/html", host); // throws the HTML error
  const format = GRAPH_FORMATS[mime] ?? (mime === "" ? "application/n-triples" : undefined);
  if (!format) {
    throw new AppError("kg_bad_response", `The endpoint at ${host} returned a graph as ${mime}, which cannot be read.`, { details: { host, contentType } });
  }
  // Loaded lazily: the WASM module is only needed for CONSTRUCT/DESCRIBE.
  const { default: oxigraph } = await import("oxigraph");
  let quads: RdfQuad[];
  try {
    quads = oxigraph.parse(text, { format, base_iri: baseIri });
  } catch (e) {
    throw new AppError("kg_bad_response", `The endpoint at ${host} returned an unreadable ${format} graph: ${(e as Error).message}`, {
      cause: e,
      details: { host, contentType },
    });
  }
  return { triples: quads.map(quadToTriple) };
}

const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";

function rdfTermToJson(t: RdfTerm): Term {
  if (t.termType === "NamedNode") return { type: "uri", value: t.value };
  if (t.termType === "BlankNode") return { type: "bnode", value: t.value };
  if (t.termType === "Literal") {
    const out: Term = { type: "literal", value: t.value };
    if (t.language) out["xml:lang"] = t.language;
    else if (t.datatype.value !== XSD_STRING) out.datatype = t.datatype.value;
    return out;
  }
  return { type: "literal", value: t.value };
}

function quadToTriple(q: RdfQuad): TripleJson {
  return { subject: rdfTermToJson(q.subject), predicate: rdfTermToJson(q.predicate), object: rdfTermToJson(q.object) };
}
