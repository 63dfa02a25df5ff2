// What an overview item puts into the SPARQL editor: a small read-only query that shows the item in the KG (a class's
// instances, a predicate's pairs, an entity's edges), written with the KG's prefixes and declaring the ones it uses.
import { compactIri } from "@/lib/kg/profile";

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

/** A term writer that remembers which prefixes it used. */
function writer(prefixes: Record<string, string>) {
  const used = new Map<string, string>();
  const term = (iri: string) => {
    const c = compactIri(iri, prefixes);
    if (!c.startsWith("<")) {
      const p = c.slice(0, c.indexOf(":"));
      used.set(p, prefixes[p]);
    }
    return c;
  };
  const head = () => [...used.entries()].map(([p, ns]) => `PREFIX ${p}: <${ns}>`).join("\n");
  return { term, done: (body: string) => (used.size ? `${head()}\n${body}` : body) };
}

export function classQuery(classIri: string, prefixes: Record<string, string>, limit = 50): string {
  const w = writer(prefixes);
  const type = RDF_TYPE === classIri ? "rdf:type" : "a";
  return w.done(`SELECT ?instance WHERE {\n  ?instance ${type} ${w.term(classIri)} .\n}\nLIMIT ${limit}`);
}

/** The predicate's subjects and values, of the class's instances when a class is given. */
export function predicateQuery(predicateIri: string, prefixes: Record<string, string>, classIri?: string, limit = 50): string {
  const w = writer(prefixes);
  const typed = classIri ? `  ?subject a ${w.term(classIri)} .\n` : "";
  return w.done(`SELECT ?subject ?value WHERE {\n${typed}  ?subject ${w.term(predicateIri)} ?value .\n}\nLIMIT ${limit}`);
}

export function entityQuery(entityIri: string, prefixes: Record<string, string>, limit = 100): string {
  const w = writer(prefixes);
  return w.done(`SELECT ?predicate ?value WHERE {\n  ${w.term(entityIri)} ?predicate ?value .\n}\nLIMIT ${limit}`);
}

/** The entities whose IRIs have one id shape (a namespace), to look at a few. */
export function namespaceQuery(namespace: string, limit = 50): string {
  const ns = namespace.replace(/[\\"]/g, (c) => `\\${c}`);
  return `SELECT DISTINCT ?entity WHERE {\n  ?entity ?p ?o .\n  FILTER(STRSTARTS(STR(?entity), "${ns}"))\n}\nLIMIT ${limit}`;
}
