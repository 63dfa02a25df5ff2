// Runs one W3C evaluation test two ways: through the app's own query path (the SPARQL panel's runner: read-only guard,
// well-known prefixes, row cap, our serialisation, the embedded store in its worker) and on a bare oxigraph store with
// the query text as written. A test that fails the first way but passes the second is ours to fix; one that fails both
// ways is the store's (see store-deviations.ts).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import oxigraph from "oxigraph";
import type { EmbeddedKg, RdfSource } from "@/lib/kg/embedded/embedded-kg";
import { parseSparql, type Sparql } from "@/lib/kg/sparql-syntax";
import { runConsoleQuery } from "@/lib/server/sparql-console";
import { compare, type Actual, type Verdict } from "./compare";
import { fromJsonTerm, readExpected, type Expected, type RdfTerm } from "./results";
import type { W3cTest } from "./manifest";

const url = (file: string) => pathToFileURL(file).href;

/** The query as the test means it: its base IRI is the file's location, stated as a BASE line in front. */
export function queryText(file: string): string {
  return `BASE <${url(file)}>\n${fs.readFileSync(file, "utf8")}`;
}

/** FROM / FROM NAMED graphs that are files beside the test: loaded as named graphs under their IRIs. */
function datasetOf(ast: Sparql.SparqlQuery): string[] {
  const from = (ast as Sparql.Query).from;
  return [...(from?.default ?? []), ...(from?.named ?? [])].map((t) => t.value).filter((v) => v.startsWith("file:"));
}

const FORMATS: Record<string, string> = { ttl: "text/turtle", rdf: "application/rdf+xml", nt: "application/n-triples", trig: "application/trig", nq: "application/n-quads" };
const formatOf = (file: string) => FORMATS[path.extname(file).slice(1).toLowerCase()] ?? "text/turtle";

interface Plan {
  text: string;
  ast: Sparql.SparqlQuery;
  defaultGraph: string[];
  named: { file: string; iri: string }[];
}

export function plan(test: W3cTest): Plan {
  const text = queryText(test.query!);
  const ast = parseSparql(text);
  const named = [...test.graphData.map((f) => ({ file: f, iri: url(f) }))];
  for (const iri of datasetOf(ast)) {
    const file = new URL(iri).pathname;
    if (fs.existsSync(file) && !named.some((n) => n.iri === iri)) named.push({ file, iri });
  }
  return { text, ast, defaultGraph: test.data, named };
}

/** Top-level ORDER BY: the solutions are compared as a sequence. */
export const isOrdered = (ast: Sparql.SparqlQuery) => Boolean((ast as Sparql.SelectQuery).order?.length);

export async function runThroughApp(kg: EmbeddedKg, test: W3cTest): Promise<Actual> {
  const p = plan(test);
  const sources: RdfSource[] = [
    ...p.defaultGraph.map((f) => ({ path: f })),
    ...p.named.map((n) => ({ path: n.file, graph: n.iri })),
  ];
  await kg.load(sources.length ? sources : [{ text: "", format: "turtle" }]);
  const response = await runConsoleQuery(kg, p.text, { timeoutMs: 20_000 });
  const r = response.result;
  if (r.kind === "ASK") return { kind: "boolean", value: r.boolean };
  if (r.kind === "SELECT") return { kind: "bindings", rows: r.results.bindings.map((b) => Object.fromEntries(Object.entries(b).map(([k, t]) => [k, fromJsonTerm(t as never)]))) };
  return { kind: "graph", triples: r.triples.map((t) => [fromJsonTerm(t.subject as never), fromJsonTerm(t.predicate as never), fromJsonTerm(t.object as never)]) };
}

/** The same test on a bare oxigraph store, the query text as written (its base given as the file's URL). */
export function runOnBareStore(test: W3cTest): Actual {
  const p = plan(test);
  const store = new oxigraph.Store();
  for (const f of p.defaultGraph) store.load(fs.readFileSync(f, "utf8"), { format: formatOf(f), base_iri: url(f) });
  for (const n of p.named) store.load(fs.readFileSync(n.file, "utf8"), { format: formatOf(n.file), base_iri: url(n.file), to_graph_name: oxigraph.namedNode(n.iri) });
  const raw = fs.readFileSync(test.query!, "utf8");
  const kind = (p.ast as Sparql.Query).queryType;
  if (kind === "SELECT" || kind === "ASK") {
    const json = JSON.parse(store.query(raw, { base_iri: url(test.query!), results_format: "application/sparql-results+json" }) as string) as {
      boolean?: boolean;
      results?: { bindings: Record<string, never>[] };
    };
    if (kind === "ASK") return { kind: "boolean", value: json.boolean === true };
    return { kind: "bindings", rows: (json.results?.bindings ?? []).map((b) => Object.fromEntries(Object.entries(b).map(([k, t]) => [k, fromJsonTerm(t)]))) };
  }
  const quads = store.query(raw, { base_iri: url(test.query!) }) as unknown as { subject: never; predicate: never; object: never }[];
  const term = (t: { termType: string; value: string; language?: string; datatype?: { value: string } }): RdfTerm =>
    t.termType === "NamedNode" ? { type: "uri", value: t.value } : t.termType === "BlankNode" ? { type: "bnode", value: t.value } : fromJsonTerm({ type: "literal", value: t.value, "xml:lang": t.language || undefined, datatype: t.datatype?.value });
  return { kind: "graph", triples: quads.map((q) => [term(q.subject), term(q.predicate), term(q.object)]) };
}

/** What `get` returned, or the error's first line. */
export async function attempt(get: () => Promise<Actual> | Actual): Promise<Actual | { kind: "error"; message: string }> {
  try {
    return await get();
  } catch (e) {
    return { kind: "error", message: (e as Error).message.split("\n")[0] };
  }
}

/** Compares a run's outcome with `expected` (the test's result file, or another run's outcome). */
export function judge(test: W3cTest, outcome: Actual | { kind: "error"; message: string }, expected: Expected | Actual = readExpected(test.result!)): Verdict {
  if (outcome.kind === "error") return { ok: false, why: `error: ${outcome.message}` };
  return compare(outcome, expected as Expected, { ordered: isOrdered(plan(test).ast), lax: test.laxCardinality });
}
