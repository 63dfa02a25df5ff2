// Worker thread that owns the oxigraph (WASM) store: loads RDF sources, runs already-vetted read queries, answers label searches.
import { parentPort, workerData } from "node:worker_threads";
import { readFileSync, statSync } from "node:fs";
import { performance } from "node:perf_hooks";
import oxigraph from "oxigraph";
import { LabelIndex } from "./label-index-core.mjs";
import { materializeRdfs } from "./entailment-core.mjs";

/**
 * @typedef {{ name: string, path?: string, text?: string, format: string, graph?: string, baseIri?: string }} WireSource
 * @typedef {{ id: number, op: "load", sources: WireSource[], labelPredicates: string[], preReserve: boolean, entailment?: "none" | "rdfs" }} LoadMsg
 * @typedef {{ id: number, op: "query", sparql: string, kind: string, unionDefaultGraph: boolean }} QueryMsg
 * @typedef {{ id: number, op: "search", text: string, limit: number, language?: string, preferLanguage?: string }} SearchMsg
 */

/** @type {import("oxigraph").Store | null} */
let store = null;
let index = new LabelIndex();

/** Approximate WASM heap bytes a store needs per input byte, by syntax (measured on N-Triples ≈ 6x; terser syntaxes more). */
const HEAP_FACTOR = {
  "application/n-triples": 6,
  "application/n-quads": 5,
  "text/turtle": 10,
  "application/trig": 10,
  "application/rdf+xml": 4,
};
const MIN_RESERVE = 16 * 1024 * 1024;
const MAX_RESERVE = 2 * 1024 * 1024 * 1024;

/**
 * Why: oxigraph's allocator grows WASM memory 64 KiB at a time and each memory.grow costs ~0.5 ms once the heap is
 * large, so a first load of 1M triples spends most of its time growing. One big allocation that is freed right away
 * grows the heap in a single step and leaves a free block the store then fills. There is no public malloc, so we hand
 * load() a buffer of zero bytes: wasm-bindgen copies it into the heap, the parser rejects byte 0 at once, it is freed.
 * @param {number} bytes
 */
function reserveWasmHeap(bytes) {
  const want = Math.min(MAX_RESERVE, Math.ceil(bytes));
  if (want < MIN_RESERVE) return 0;
  const t0 = performance.now();
  const scratch = new oxigraph.Store();
  try {
    scratch.load(new Uint8Array(want), { format: "application/n-triples" });
  } catch {
    // expected: byte 0 is not N-Triples
  } finally {
    scratch.free();
  }
  return performance.now() - t0;
}

/**
 * Maps oxigraph parse errors ("at line 4 column 19", "between line 3 column 11 and …", "at line 1 between columns 1 and 5")
 * to a 1-based line/column.
 * @param {string} message
 */
function parsePosition(message) {
  const m = /line (\d+)(?: column (\d+)| between columns (\d+))?/.exec(message);
  if (!m) return {};
  return { line: Number(m[1]), column: m[2] ? Number(m[2]) : m[3] ? Number(m[3]) : undefined };
}

/**
 * @param {WireSource} src
 * @returns {string | Uint8Array}
 */
function readSource(src) {
  if (typeof src.text === "string") return src.text;
  if (!src.path) throw Object.assign(new Error("source has neither path nor text"), { source: src.name });
  return readFileSync(src.path);
}

/** @param {WireSource} src */
function sourceSize(src) {
  if (typeof src.text === "string") return src.text.length;
  try {
    return src.path ? statSync(src.path).size : 0;
  } catch {
    return 0;
  }
}

/** @param {LoadMsg} msg */
function load(msg) {
  const t0 = performance.now();
  let reserveMs = 0;
  if (msg.preReserve) {
    let estimate = 0;
    for (const s of msg.sources) estimate += sourceSize(s) * (HEAP_FACTOR[/** @type {keyof HEAP_FACTOR} */ (s.format)] ?? 6);
    reserveMs = reserveWasmHeap(estimate);
  }
  // Everything goes into a fresh store that is swapped in only when every source parsed: no half-loaded state.
  const next = new oxigraph.Store();
  for (const src of msg.sources) {
    let data;
    try {
      data = readSource(src);
    } catch (e) {
      next.free();
      return { error: { code: "kg_load", message: `Cannot read ${src.name}: ${e instanceof Error ? e.message : String(e)}`, source: src.name } };
    }
    try {
      next.load(data, {
        format: src.format,
        ...(src.baseIri ? { base_iri: src.baseIri } : {}),
        ...(src.graph ? { to_graph_name: oxigraph.namedNode(src.graph) } : {}),
        // safe: the store is private until the swap below, and a failed load discards it whole
        no_transaction: true,
      });
    } catch (e) {
      next.free();
      const message = e instanceof Error ? e.message : String(e);
      return { error: { code: "kg_load", message, source: src.name, ...parsePosition(message) } };
    }
  }
  const parseMs = performance.now() - t0;
  /** @type {{ added: number, ms: number, byRule: { subClassOf: number, subPropertyOf: number, inverseOf: number } } | undefined} */
  let entailed;
  if (msg.entailment === "rdfs") {
    const e0 = performance.now();
    try {
      const r = materializeRdfs(next, oxigraph);
      entailed = { added: r.added, ms: performance.now() - e0, byRule: r.byRule };
    } catch (e) {
      next.free();
      return { error: { code: "kg_load", message: `RDFS entailment failed: ${e instanceof Error ? e.message : String(e)}`, source: "entailment" } };
    }
  }
  const nextIndex = buildIndex(next, msg.labelPredicates);
  const old = store;
  store = next;
  index = nextIndex;
  if (old) old.free();
  return { value: { triples: next.size, labels: nextIndex.size, ms: performance.now() - t0, parseMs, reserveMs, ...(entailed ? { entailed } : {}) } };
}

const ESCAPES = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/g;
/** @type {Record<string, string>} */
const SIMPLE = { t: "\t", n: "\n", r: "\r", b: "\b", f: "\f", '"': '"', "'": "'", "\\": "\\" };

/**
 * Undoes N-Triples string escapes.
 * @param {string} s
 */
function unescapeLiteral(s) {
  if (!s.includes("\\")) return s;
  return s.replace(ESCAPES, (_, u4, u8, c) => (u4 || u8 ? String.fromCodePoint(parseInt(u4 || u8, 16)) : (SIMPLE[c] ?? c)));
}

/**
 * Labels via one TSV query: far cheaper than store.match(), which creates a wasm-bindgen object per term.
 * TSV cells are Turtle terms (tabs inside literals are escaped), e.g. <iri> and "text"@en.
 * @param {import("oxigraph").Store} s
 * @param {string[]} predicates
 */
function buildIndex(s, predicates) {
  const idx = new LabelIndex();
  if (predicates.length === 0) return idx;
  const values = predicates.map((p) => `<${p.replace(/[<>"{}|^`\\\s]/g, "")}>`).join(" ");
  const named = /** @type {string} */ (
    s.query(`SELECT ?s ?l WHERE { GRAPH ?g { VALUES ?p { ${values} } ?s ?p ?l } FILTER(isIRI(?s) && isLiteral(?l)) }`, {
      results_format: "text/tab-separated-values",
    })
  );
  const defaultGraph = /** @type {string} */ (
    s.query(`SELECT ?s ?l WHERE { VALUES ?p { ${values} } ?s ?p ?l FILTER(isIRI(?s) && isLiteral(?l)) }`, {
      results_format: "text/tab-separated-values",
    })
  );
  for (const text of [defaultGraph, named]) {
    let pos = text.indexOf("\n") + 1; // skip the header line
    while (pos > 0 && pos < text.length) {
      let end = text.indexOf("\n", pos);
      if (end < 0) end = text.length;
      const tab = text.indexOf("\t", pos);
      if (tab > pos && tab < end) {
        const iri = text.slice(pos + 1, tab - 1);
        const cell = text.slice(tab + 1, end);
        if (cell.startsWith('"')) {
          const close = cell.lastIndexOf('"');
          const rest = cell.slice(close + 1);
          idx.add(iri, unescapeLiteral(cell.slice(1, close)), rest.startsWith("@") ? rest.slice(1) : undefined);
        } else {
          idx.add(iri, cell);
        }
      }
      pos = end + 1;
    }
  }
  return idx;
}

/** @param {import("oxigraph").Term} t */
function termJson(t) {
  switch (t.termType) {
    case "NamedNode":
      return { type: "uri", value: t.value };
    case "BlankNode":
      return { type: "bnode", value: t.value };
    case "Literal": {
      if (t.language) return { type: "literal", value: t.value, "xml:lang": t.language };
      const dt = t.datatype.value;
      return dt === "http://www.w3.org/2001/XMLSchema#string" ? { type: "literal", value: t.value } : { type: "literal", value: t.value, datatype: dt };
    }
    default:
      return { type: "literal", value: String(t.value) };
  }
}

/** @param {QueryMsg} msg */
function query(msg) {
  const s = store ?? (store = new oxigraph.Store());
  const opts = { use_default_graph_as_union: msg.unionDefaultGraph };
  try {
    if (msg.kind === "SELECT" || msg.kind === "ASK") {
      return { value: s.query(msg.sparql, { ...opts, results_format: "application/sparql-results+json" }) };
    }
    const quads = /** @type {import("oxigraph").Quad[]} */ (s.query(msg.sparql, opts));
    return { value: quads.map((q) => ({ subject: termJson(q.subject), predicate: termJson(q.predicate), object: termJson(q.object) })) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { error: { code: "kg_query", message, ...parsePosition(message) } };
  }
}

const XSD = "http://www.w3.org/2001/XMLSchema#";
const RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label";

/**
 * A small synthetic document in Turtle and N-Triples: prefixes, typed and language-tagged literals, escapes, blank nodes.
 * @param {number} n entities
 */
function warmUpDocs(n) {
  const ttl = ["@prefix ex: <http://example.org/> .", `@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .`, `@prefix xsd: <${XSD}> .`];
  const nt = [];
  for (let i = 0; i < n; i++) {
    ttl.push(
      `ex:s${i} a ex:C${i % 7} ; rdfs:label "thing ${i}"@en , "Ding ${i}"@de ; ex:n "${i}"^^xsd:integer ; ` +
        `ex:d "2020-01-0${(i % 9) + 1}"^^xsd:date ; ex:b [ ex:p ex:o${i} ; ex:q "say \\"hi\\" ${i}" ] .`,
    );
    nt.push(`<http://example.org/t${i}> <${RDFS_LABEL}> "t ${i}"@en .`, `_:b${i} <http://example.org/v> "${i}.5"^^<${XSD}decimal> .`);
  }
  return { ttl: ttl.join("\n"), nt: nt.join("\n") };
}

/**
 * Why: V8 compiles oxigraph's WASM lazily and tiers it up on use, which made a fresh worker's first small load
 * ~4x slower than the second. A spare worker pays that once, before anyone waits on it, on a throwaway store.
 */
function warmUp() {
  const t0 = performance.now();
  const { ttl, nt } = warmUpDocs(500);
  const scratch = new oxigraph.Store();
  try {
    scratch.load(ttl, { format: "text/turtle", base_iri: "http://example.org/", no_transaction: true });
    scratch.load(nt, { format: "application/n-triples", no_transaction: true });
    buildIndex(scratch, [RDFS_LABEL]).search("thing 42", { limit: 10 });
    scratch.query("SELECT ?s ?o WHERE { ?s ?p ?o } LIMIT 10", { results_format: "application/sparql-results+json" });
  } finally {
    scratch.free();
  }
  return performance.now() - t0;
}

parentPort?.on("message", (/** @type {LoadMsg | QueryMsg | SearchMsg} */ msg) => {
  let reply;
  try {
    if (msg.op === "load") reply = load(msg);
    else if (msg.op === "query") reply = query(msg);
    else if (msg.op === "search") reply = { value: index.search(msg.text, { limit: msg.limit, language: msg.language, preferLanguage: msg.preferLanguage }) };
    else reply = { error: { code: "internal", message: `unknown op ${/** @type {{op: string}} */ (msg).op}` } };
  } catch (e) {
    reply = { error: { code: "internal", message: e instanceof Error ? e.message : String(e) } };
  }
  parentPort?.postMessage({ id: msg.id, ...reply });
});

// A pre-started spare worker warms up and says so (id 0 is never a job id); messages sent meanwhile wait in the port.
if (workerData?.warmUp) {
  let warmUpMs = -1;
  try {
    warmUpMs = warmUp();
  } catch {
    // a failed warm-up only costs speed
  }
  parentPort?.postMessage({ id: 0, warmUpMs });
}
