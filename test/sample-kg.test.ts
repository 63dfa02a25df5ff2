// Checks kg/sample.ttl: its size, every gold query in kg/README.md against its stated answer, and that the traps exist.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import oxigraph from "oxigraph";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { beforeAll, describe, expect, it } from "vitest";

const RES = "http://example.org/chatty-kg/resource/";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const PREFIXES = `
PREFIX res: <${RES}>
PREFIX ont: <http://example.org/chatty-kg/ontology/>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX schema: <https://schema.org/>
`;

const ttl = readFileSync(fileURLToPath(new URL("../kg/sample.ttl", import.meta.url)), "utf8");
const readme = readFileSync(fileURLToPath(new URL("../kg/README.md", import.meta.url)), "utf8");

type Row = Map<string, oxigraph.Term>;
let store: oxigraph.Store;

function select(query: string): Row[] {
  const result = store.query(PREFIXES + query);
  if (!Array.isArray(result)) throw new Error("expected SELECT rows");
  return result as Row[];
}

function ask(query: string): boolean {
  const result = store.query(PREFIXES + query);
  if (typeof result !== "boolean") throw new Error("expected ASK boolean");
  return result;
}

function count(query: string): number {
  const rows = select(query);
  return Number(rows[0]?.get("n")?.value ?? 0);
}

/** Writes a term the way the README's answer cells do: res:Local or "value"^^xsd:type. */
function compact(term: oxigraph.Term): string {
  if (term.termType === "NamedNode") {
    return term.value.startsWith(RES) ? `res:${term.value.slice(RES.length)}` : term.value;
  }
  if (term.termType === "Literal") {
    const dt = term.datatype.value;
    return dt.startsWith(XSD) ? `"${term.value}"^^xsd:${dt.slice(XSD.length)}` : JSON.stringify(term.value);
  }
  return term.value;
}

/** Gold rows: "| id | question | answer |" with ids like fig1-t1 or q-count-films. */
function goldRows(): { id: string; question: string; answers: string[] }[] {
  const rows = [...readme.matchAll(/^\| ((?:fig1|q)-[\w-]+) \| (.+?) \| (.+?) \|$/gm)];
  return rows.map(([, id, question, cell]) => ({
    id,
    question,
    answers: [...cell.matchAll(/res:[\w]+|"[^"]*"\^\^xsd:\w+|\btrue\b|\bfalse\b|\(none\)/g)]
      .map((m) => m[0])
      .filter((a) => a !== "(none)"),
  }));
}

/** Name of the first projected variable of a SELECT query, e.g. "count" for SELECT (COUNT(?x) AS ?count). */
function firstProjected(query: string): string {
  const parsed = parseSparql(query);
  if (parsed.type !== "query" || parsed.queryType !== "SELECT") throw new Error("expected a SELECT query");
  const first = parsed.variables[0];
  if (!first || !("termType" in first ? first.termType === "Variable" : first.variable)) throw new Error("SELECT * is not allowed in gold queries");
  return "termType" in first ? first.value : first.variable.value;
}

function goldQueries(): Map<string, string> {
  return new Map([...readme.matchAll(/```sparql ([\w-]+)\n([\s\S]*?)```/g)].map(([, id, q]) => [id, q]));
}

beforeAll(() => {
  store = new oxigraph.Store();
  store.load(ttl, { format: "text/turtle" });
});

describe("kg/sample.ttl", () => {
  it("holds between 1,000 and 3,000 triples, the number kg/README.md states", () => {
    expect(store.size).toBeGreaterThanOrEqual(1000);
    expect(store.size).toBeLessThanOrEqual(3000);
    const stated = /\*\*Size:\*\* ([\d,]+) triples/.exec(readme);
    expect(stated, "Size line in kg/README.md").not.toBeNull();
    expect(Number(stated![1].replace(/,/g, ""))).toBe(store.size);
  });

  it("gives every resource an rdf:type and an rdfs:label", () => {
    const untyped = select(`SELECT DISTINCT ?s WHERE { ?s ?p ?o FILTER(STRSTARTS(STR(?s), STR(res:))) FILTER NOT EXISTS { ?s a ?t } }`);
    const unlabelled = select(`SELECT DISTINCT ?o WHERE { ?s ?p ?o FILTER(isIRI(?o) && STRSTARTS(STR(?o), STR(res:))) FILTER NOT EXISTS { ?o rdfs:label ?l } }`);
    expect(untyped.map((r) => r.get("s")!.value)).toEqual([]);
    expect(unlabelled.map((r) => r.get("o")!.value)).toEqual([]);
  });

  it("gives every class used with rdf:type a label", () => {
    const rows = select(`SELECT DISTINCT ?c WHERE { ?s a ?c FILTER(STRSTARTS(STR(?c), STR(ont:))) FILTER NOT EXISTS { ?c rdfs:label ?l } }`);
    expect(rows).toEqual([]);
  });
});

describe("gold questions in kg/README.md", () => {
  const rows = goldRows();
  const queries = goldQueries();

  it("lists the five Figure 1 turns and at least six more questions, each with a query", () => {
    const ids = rows.map((r) => r.id);
    expect(ids.filter((id) => id.startsWith("fig1-"))).toEqual(["fig1-t1", "fig1-t2", "fig1-t3", "fig1-t4", "fig1-t5"]);
    expect(ids.filter((id) => id.startsWith("q-")).length).toBeGreaterThanOrEqual(6);
    for (const id of ids) expect(queries.has(id), `query block for ${id}`).toBe(true);
    expect([...queries.keys()].sort()).toEqual([...ids].sort());
  });

  for (const row of rows) {
    it(`${row.id}: ${row.question}`, () => {
      const query = queries.get(row.id);
      expect(query).toBeDefined();
      const result = store.query(query!);
      if (typeof result === "boolean") {
        expect(row.answers).toEqual([String(result)]);
        return;
      }
      const rowsOut = result as Row[];
      // The gold answer is the set of values of the first projected variable.
      const firstVar = firstProjected(query!);
      const got = rowsOut.map((r) => compact(r.get(firstVar)!));
      expect([...new Set(got)].sort()).toEqual([...row.answers].sort());
    });
  }

  it("fig1-t2 picks the Philosopher's Stone film, not the novel or another 2001 fantasy film", () => {
    const rows = store.query(queries.get("fig1-t2")!) as Row[];
    expect(compact(rows[0].get("film")!)).toBe("res:Harry_Potter_and_the_Philosophers_Stone_film");
  });

  it("fig1-t5 answers 21 films: 7 other Harry Potter films and 14 others", () => {
    const answers = rows.find((r) => r.id === "fig1-t5")!.answers;
    expect(answers).toHaveLength(21);
    expect(answers.filter((a) => a.startsWith("res:Harry_Potter_and_the_"))).toHaveLength(7);
  });
});

describe("traps", () => {
  const sameName = (name: string) =>
    select(`SELECT DISTINCT ?s ?type ?desc WHERE {
      ?s rdfs:label|skos:altLabel|schema:name ?l FILTER(STR(?l) = "${name}")
      ?s a ?type .
      OPTIONAL { ?s rdfs:comment|schema:description ?desc }
    }`);

  for (const name of ["Harry Potter", "Daniel Radcliffe", "Chris Columbus"]) {
    it(`"${name}" names at least two entities of different types, each described`, () => {
      const rows = sameName(name);
      const subjects = new Set(rows.map((r) => r.get("s")!.value));
      const types = new Set(rows.map((r) => r.get("type")!.value));
      expect(subjects.size).toBeGreaterThanOrEqual(2);
      expect(types.size).toBeGreaterThanOrEqual(2);
      for (const s of subjects) {
        expect(rows.some((r) => r.get("s")!.value === s && r.get("desc")), `description of ${s}`).toBe(true);
      }
    });
  }

  it('"Harry Potter" is the rdfs:label of three different entities', () => {
    const n = count(`SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s rdfs:label "Harry Potter"@en }`);
    expect(n).toBeGreaterThanOrEqual(3);
  });

  it("uses ont:founder, ont:founders and ont:foundedBy on different companies", () => {
    const rows = select(`SELECT ?p (COUNT(DISTINCT ?c) AS ?n) WHERE {
      VALUES ?p { ont:founder ont:founders ont:foundedBy } ?c ?p ?f . ?c a ont:Company
    } GROUP BY ?p`);
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(Number(r.get("n")!.value)).toBeGreaterThanOrEqual(2);
    expect(ask(`ASK { ?c ont:founder ?a ; ont:founders ?b }`)).toBe(false);
    expect(ask(`ASK { ?c ont:founder ?a ; ont:foundedBy ?b }`)).toBe(false);
  });

  it("stores some cast edges only as ont:starring and some only as ont:starredIn", () => {
    const onlyStarring = count(`SELECT (COUNT(*) AS ?n) WHERE { ?f ont:starring ?a FILTER NOT EXISTS { ?a ont:starredIn ?f } }`);
    const onlyStarredIn = count(`SELECT (COUNT(*) AS ?n) WHERE { ?a ont:starredIn ?f FILTER NOT EXISTS { ?f ont:starring ?a } }`);
    const both = count(`SELECT (COUNT(*) AS ?n) WHERE { ?a ont:starredIn ?f . ?f ont:starring ?a }`);
    expect(onlyStarring).toBeGreaterThan(0);
    expect(onlyStarredIn).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(0);
    expect(ask(`ASK { res:Now_You_See_Me_2 ont:starring res:Daniel_Radcliffe FILTER NOT EXISTS { res:Daniel_Radcliffe ont:starredIn res:Now_You_See_Me_2 } }`)).toBe(true);
    expect(ask(`ASK { res:Daniel_Radcliffe ont:starredIn res:Swiss_Army_Man FILTER NOT EXISTS { res:Swiss_Army_Man ont:starring res:Daniel_Radcliffe } }`)).toBe(true);
  });

  it("stores authorship sometimes only as ont:author and sometimes only as ont:wrote", () => {
    expect(ask(`ASK { res:J_K_Rowling ont:wrote res:Harry_Potter_and_the_Chamber_of_Secrets FILTER NOT EXISTS { res:Harry_Potter_and_the_Chamber_of_Secrets ont:author ?x } }`)).toBe(true);
    expect(ask(`ASK { res:Harry_Potter_and_the_Prisoner_of_Azkaban ont:author res:J_K_Rowling FILTER NOT EXISTS { ?x ont:wrote res:Harry_Potter_and_the_Prisoner_of_Azkaban } }`)).toBe(true);
  });

  it("has labels in at least three languages and some without a language tag", () => {
    const langs = select(`SELECT DISTINCT ?lang WHERE { ?s rdfs:label ?l BIND(LANG(?l) AS ?lang) FILTER(?lang != "") }`).map((r) => r.get("lang")!.value);
    expect(langs).toEqual(expect.arrayContaining(["en", "de", "fr", "es"]));
    expect(ask(`ASK { ?s rdfs:label ?l FILTER(LANG(?l) = "" && STRSTARTS(STR(?s), STR(res:))) }`)).toBe(true);
    expect(ask(`ASK { res:Harry_Potter_and_the_Philosophers_Stone rdfs:label "Harry Potter und der Stein der Weisen"@de }`)).toBe(true);
    expect(count(`SELECT (COUNT(*) AS ?n) WHERE { ?s skos:altLabel|schema:name ?l }`)).toBeGreaterThan(20);
  });

  it("leaves ont:releaseDate, ont:birthDate and ont:birthPlace without rdfs:label while most predicates have one", () => {
    for (const p of ["releaseDate", "birthDate", "birthPlace"]) {
      expect(ask(`ASK { ont:${p} rdfs:label ?l }`), p).toBe(false);
      expect(ask(`ASK { ?s ont:${p} ?o }`), p).toBe(true);
    }
    const labelled = count(`SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?s ?p ?o FILTER(STRSTARTS(STR(?p), STR(ont:))) ?p rdfs:label ?l }`);
    expect(labelled).toBeGreaterThanOrEqual(30);
  });

  it("types dates and numbers with xsd", () => {
    expect(ask(`ASK { res:Daniel_Radcliffe ont:birthDate ?d FILTER(DATATYPE(?d) = <${XSD}date>) }`)).toBe(true);
    expect(ask(`ASK { ?s ont:birthDate ?d FILTER(DATATYPE(?d) != <${XSD}date>) }`)).toBe(false);
    expect(ask(`ASK { ?s ont:releaseDate ?d FILTER(DATATYPE(?d) != <${XSD}date>) }`)).toBe(false);
    expect(ask(`ASK { ?s ont:runtime ?d FILTER(DATATYPE(?d) != <${XSD}integer>) }`)).toBe(false);
  });

  it("tells the two Daniel Radcliffes apart on the yes/no question", () => {
    expect(ask(`ASK { res:Daniel_Radcliffe_engineer ont:birthPlace res:London }`)).toBe(false);
    expect(ask(`ASK { res:Daniel_Radcliffe_engineer ont:isFictional true }`)).toBe(true);
  });
});
