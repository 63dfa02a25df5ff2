// Property paths in a gold query whose IRIs an oracle may not write: a path cannot hold a variable, so such a triple is
// rewritten before its IRIs become variables — a sequence into a chain of triples (`?s a/b ?o` → `?s a ?m . ?m b ?o`),
// an inverse into the swapped triple, any other path (alternative, repetition) into one triple over a variable. The
// IRIs that were found keep constraining the query; the generated SPARQL stays parseable.

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;

const pathIris = (p: unknown): string[] =>
  isObj(p) && p.termType === "NamedNode" ? [String(p.value)] : isObj(p) && Array.isArray(p.items) ? p.items.flatMap(pathIris) : [];

/** A triple pattern of sparqljs' AST (`predicate` an IRI, a variable or a path). */
interface Triple {
  subject: unknown;
  predicate: unknown;
  object: unknown;
}

/** The triple as plain triples when its path holds an IRI `hidden` says is to become a variable; else the triple itself. */
export function splitPathTriple(t: Triple, hidden: (iri: string) => boolean, freshVariable: () => Node): Triple[] {
  const p = t.predicate;
  if (!isObj(p) || p.type !== "path" || !pathIris(p).some(hidden)) return [t];
  const expand = (s: unknown, path: unknown, o: unknown): Triple[] => {
    if (!isObj(path) || path.type !== "path") return [{ subject: s, predicate: path, object: o }];
    const items = Array.isArray(path.items) ? path.items : [];
    if (path.pathType === "/") {
      const out: Triple[] = [];
      let from = s;
      items.forEach((item, i) => {
        const to = i === items.length - 1 ? o : freshVariable();
        out.push(...expand(from, item, to));
        from = to;
      });
      return out;
    }
    if (path.pathType === "^" && items.length === 1) return expand(o, items[0], s);
    // an alternative or a repetition: one edge of some property (the found IRIs cannot be kept apart)
    return [{ subject: s, predicate: freshVariable(), object: o }];
  };
  return expand(t.subject, p, t.object);
}

/** The query's AST with every triple whose path holds a hidden IRI split (see splitPathTriple); other nodes unchanged. */
export function splitHiddenPaths<T>(ast: T, hidden: (iri: string) => boolean, prefix = "oracle_path_"): T {
  let n = 0;
  const fresh = (): Node => ({ termType: "Variable", value: `${prefix}${++n}` });
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObj(v) || v.termType) return v;
    const out = Object.fromEntries(Object.entries(v).map(([k, c]) => [k, k === "prefixes" ? c : walk(c)]));
    if (v.type === "bgp" && Array.isArray(v.triples)) out.triples = (v.triples as Triple[]).flatMap((t) => splitPathTriple(t, hidden, fresh));
    return out;
  };
  return walk(ast) as T;
}
