// RDFS-style entailment for the embedded store (plain JS: the worker thread runs it): the consequences of the KG's own
// rdfs:subClassOf, rdfs:subPropertyOf and owl:inverseOf statements, materialised once on load into a named graph of
// their own, so a query over the union sees them and a derivation can tell an inferred triple from an asserted one.
//   R1  ?x rdf:type ?c . ?c rdfs:subClassOf ?d     =>  ?x rdf:type ?d
//   R2  ?x ?p ?o .       ?p rdfs:subPropertyOf ?q  =>  ?x ?q ?o
//   R3  ?x ?p ?o .       ?p owl:inverseOf ?q       =>  ?o ?q ?x   (either direction of the owl:inverseOf statement)
// Chains are followed (the closure, not one step). Nothing else is inferred (no domain/range typing, no transitivity).

/** The named graph inferred triples go into. */
export const ENTAILED_GRAPH = "urn:x-chatty-kg:entailed";

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
const SUBPROPERTY = "http://www.w3.org/2000/01/rdf-schema#subPropertyOf";
const INVERSE = "http://www.w3.org/2002/07/owl#inverseOf";

/**
 * @param {Map<string, Set<string>>} m
 * @param {string} k
 * @param {string} v
 */
function add(m, k, v) {
  const s = m.get(k);
  if (s) s.add(v);
  else m.set(k, new Set([v]));
}

/**
 * Pairs (a, b) of IRIs linked by `predicate` anywhere in the store.
 * @param {import("oxigraph").Store} store
 * @param {string} predicate
 * @returns {[string, string][]}
 */
function pairs(store, predicate) {
  /** @type {import("oxigraph").Quad[]} */
  const quads = /** @type {any} */ (store.query(`CONSTRUCT { ?a <${predicate}> ?b } WHERE { ?a <${predicate}> ?b FILTER(isIRI(?a) && isIRI(?b)) }`, { use_default_graph_as_union: true }));
  return quads.map((q) => [q.subject.value, q.object.value]);
}

/**
 * Everything reachable from `start` (excluded) along `edges`.
 * @param {Map<string, Set<string>>} edges
 * @param {string} start
 */
function reach(edges, start) {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    for (const next of edges.get(/** @type {string} */ (queue.shift())) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  seen.delete(start);
  return seen;
}

/**
 * For each property, the (property, flipped) forms a triple with it entails: up the sub-property chain keeping the
 * direction, across owl:inverseOf flipping it, in any order.
 * @param {Map<string, Set<string>>} supers
 * @param {Map<string, Set<string>>} inverses
 * @param {string} p
 * @returns {[string, boolean][]}
 */
function derivedForms(supers, inverses, p) {
  const key = (/** @type {string} */ q, /** @type {boolean} */ f) => `${f ? "^" : ""}${q}`;
  const seen = new Set([key(p, false)]);
  /** @type {[string, boolean][]} */
  const queue = [[p, false]];
  /** @type {[string, boolean][]} */
  const out = [];
  while (queue.length) {
    const [q, flipped] = /** @type {[string, boolean]} */ (queue.shift());
    const next = [...[...(supers.get(q) ?? [])].map((s) => /** @type {[string, boolean]} */ ([s, flipped])), ...[...(inverses.get(q) ?? [])].map((r) => /** @type {[string, boolean]} */ ([r, !flipped]))];
    for (const [r, f] of next) {
      const k = key(r, f);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push([r, f]);
      queue.push([r, f]);
    }
  }
  return out;
}

const XSD = "http://www.w3.org/2001/XMLSchema#";

/**
 * A SPARQL TSV cell as an N-Triples term: TSV writes numbers and booleans in Turtle's short form.
 * @param {string} cell
 */
function ntTerm(cell) {
  if (cell.startsWith("<") || cell.startsWith('"') || cell.startsWith("_:")) return cell;
  if (cell === "true" || cell === "false") return `"${cell}"^^<${XSD}boolean>`;
  if (/^[+-]?\d+$/.test(cell)) return `"${cell}"^^<${XSD}integer>`;
  if (/^[+-]?\d*\.\d+$/.test(cell)) return `"${cell}"^^<${XSD}decimal>`;
  return `"${cell}"^^<${XSD}double>`;
}

const UNESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/g;
/** @type {Record<string, string>} */
const SIMPLE = { t: "\t", n: "\n", r: "\r", b: "\b", f: "\f", '"': '"', "'": "'", "\\": "\\" };

/**
 * An N-Triples term as an oxigraph term (for the few triples with blank nodes, which a re-parse would rename).
 * @param {string} t
 * @param {typeof import("oxigraph")} ox
 */
function toTerm(t, ox) {
  if (t.startsWith("<")) return ox.namedNode(t.slice(1, -1));
  if (t.startsWith("_:")) return ox.blankNode(t.slice(2));
  const close = t.lastIndexOf('"');
  const value = t.slice(1, close).replace(UNESCAPE, (_, u4, u8, c) => (u4 || u8 ? String.fromCodePoint(parseInt(u4 || u8, 16)) : (SIMPLE[c] ?? c)));
  const rest = t.slice(close + 1);
  if (rest.startsWith("@")) return ox.literal(value, rest.slice(1));
  if (rest.startsWith("^^")) return ox.literal(value, ox.namedNode(rest.slice(3, -1)));
  return ox.literal(value);
}

/**
 * Rows of a SELECT over the union of all graphs, as N-Triples terms.
 * @param {import("oxigraph").Store} store
 * @param {string} sparql
 * @returns {string[][]}
 */
function rows(store, sparql) {
  const text = /** @type {string} */ (store.query(sparql, { use_default_graph_as_union: true, results_format: "text/tab-separated-values" }));
  const lines = text.split("\n");
  /** @type {string[][]} */
  const out = [];
  for (let i = 1; i < lines.length; i++) if (lines[i]) out.push(lines[i].split("\t").map(ntTerm));
  return out;
}

/**
 * Adds triples (N-Triples term triples) to the entailed graph: one bulk load for the plain ones, one by one for those
 * with blank nodes (a parser would give them new identities).
 * @param {import("oxigraph").Store} store
 * @param {typeof import("oxigraph")} ox
 * @param {string[][]} triples
 */
function addAll(store, ox, triples) {
  const graph = ox.namedNode(ENTAILED_GRAPH);
  const plain = [];
  for (const t of triples) {
    if (t[0].startsWith("_:") || t[2].startsWith("_:")) store.add(ox.quad(/** @type {any} */ (toTerm(t[0], ox)), ox.namedNode(t[1].slice(1, -1)), /** @type {any} */ (toTerm(t[2], ox)), graph));
    else plain.push(`${t[0]} ${t[1]} ${t[2]} .`);
  }
  if (plain.length) store.load(plain.join("\n"), { format: "application/n-triples", to_graph_name: graph, no_transaction: true });
}

/** @param {[string, string][]} list */
const valuePairs = (list) => list.map(([a, b]) => `(<${a}> <${b}>)`).join(" ");

/**
 * Materialises the closure into ENTAILED_GRAPH; triples some graph already asserts are not repeated. Three queries do
 * the work (the engine checks what is already there): R2/R3 in each direction, then R1 over asserted and new types.
 * @param {import("oxigraph").Store} store
 * @param {typeof import("oxigraph")} ox
 */
export function materializeRdfs(store, ox) {
  const sc = pairs(store, SUBCLASS).filter(([a, b]) => a !== b);
  const sp = pairs(store, SUBPROPERTY).filter(([a, b]) => a !== b);
  const inv = pairs(store, INVERSE);
  const byRule = { subClassOf: 0, subPropertyOf: 0, inverseOf: 0 };
  const result = { added: 0, byRule, schema: { subClassOf: sc.length, subPropertyOf: sp.length, inverseOf: inv.length } };
  if (!sc.length && !sp.length && !inv.length) return result;
  const classUp = new Map();
  for (const [a, b] of sc) add(classUp, a, b);
  const propUp = new Map();
  for (const [a, b] of sp) add(propUp, a, b);
  const inverses = new Map();
  for (const [a, b] of inv) {
    add(inverses, a, b);
    add(inverses, b, a);
  }
  /** @type {[string, string][]} */
  const forward = [];
  /** @type {[string, string][]} */
  const flipped = [];
  for (const p of new Set([...propUp.keys(), ...inverses.keys()])) {
    for (const [r, f] of derivedForms(propUp, inverses, p)) (f ? flipped : forward).push([p, r]);
  }
  /** @type {Map<string, string[]>} */
  const fresh = new Map();
  /** @param {string[]} t @param {keyof typeof byRule} rule */
  const keep = (t, rule) => {
    const k = t.join(" ");
    if (fresh.has(k) || t[0].startsWith('"')) return;
    fresh.set(k, t);
    byRule[rule]++;
  };
  if (forward.length) {
    for (const [s, r, o] of rows(store, `SELECT ?s ?r ?o WHERE { VALUES (?p ?r) { ${valuePairs(forward)} } ?s ?p ?o . FILTER NOT EXISTS { ?s ?r ?o } }`)) keep([s, r, o], "subPropertyOf");
  }
  if (flipped.length) {
    for (const [o, r, s] of rows(store, `SELECT ?o ?r ?s WHERE { VALUES (?p ?r) { ${valuePairs(flipped)} } ?s ?p ?o . FILTER(!isLiteral(?o)) FILTER NOT EXISTS { ?o ?r ?s } }`)) keep([o, r, s], "inverseOf");
  }
  addAll(store, ox, [...fresh.values()]);
  const before = fresh.size;
  /** @type {[string, string][]} */
  const up = [];
  for (const c of classUp.keys()) for (const d of reach(classUp, c)) up.push([c, d]);
  if (up.length) {
    const types = rows(store, `SELECT ?x ?d WHERE { VALUES (?c ?d) { ${valuePairs(up)} } ?x <${RDF_TYPE}> ?c . FILTER NOT EXISTS { ?x <${RDF_TYPE}> ?d } }`);
    for (const [x, d] of types) keep([x, `<${RDF_TYPE}>`, d], "subClassOf");
    addAll(store, ox, [...fresh.values()].slice(before));
  }
  result.added = fresh.size;
  return result;
}
