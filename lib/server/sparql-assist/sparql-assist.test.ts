// The workbench's server side on the sample KG: vocabulary and a class's predicates, hover facts, diagnostics at
// their place (syntax, read-only, unknown names, impossible patterns), formatting with prefixes, column order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedKg, type EmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { checkQuery, syntaxDiagnostics } from "./check";
import { formatQuery } from "./format";
import { hoverFacts } from "./hover";
import { expectedText, locateTerm } from "./positions";
import { projectionOrder } from "./projection";
import { getClassPredicates, getVocabulary } from "./vocabulary";

const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";
const P = `PREFIX ont: <${ONT}> PREFIX res: <${RES}>\n`;
let kg: EmbeddedKg;

beforeAll(async () => {
  kg = await createEmbeddedKg({ id: "sample", sources: [{ path: "kg/sample.ttl" }] });
});
afterAll(() => kg.close());

describe("vocabulary", () => {
  it("lists the KG's classes and predicates with counts and a prefix for each namespace", async () => {
    const v = await getVocabulary(kg);
    const film = v.classes.find((c) => c.iri === `${ONT}Film`);
    expect(film?.count).toBeGreaterThan(5);
    expect(film?.label).toBe("film");
    expect(v.predicates.some((p) => p.iri === `${ONT}director`)).toBe(true);
    expect(Object.values(v.prefixes)).toContain(ONT);
    // entities' namespace too, from a sample of subjects (the sample KG's profile knows neither)
    expect(Object.values(v.prefixes)).toContain(RES);
    expect(await getVocabulary(kg)).toBe(v); // cached per KG
  });

  it("gives the predicates a class's instances use, most used first, without the type predicate", async () => {
    const r = await getClassPredicates(kg, `${ONT}Film`);
    const iris = r.predicates.map((p) => p.iri);
    expect(iris).toContain(`${ONT}director`);
    expect(iris).toContain(`${ONT}releaseDate`);
    expect(iris).not.toContain(`${ONT}birthPlace`); // a person's, not a film's
    expect(iris).not.toContain("http://www.w3.org/1999/02/22-rdf-syntax-ns#type");
    expect(r.instances).toBeGreaterThan(5);
  });
});

describe("hover", () => {
  it("names an entity, its types and how often it occurs", async () => {
    const h = await hoverFacts(kg, `${RES}J_K_Rowling`);
    expect(h.names[0]).toMatch(/Rowling/);
    expect(h.types.length).toBeGreaterThan(0);
    expect(h.counts.subject.n).toBeGreaterThan(3);
    expect(h.counts.object.n).toBeGreaterThan(0);
    expect(h.counts.predicate.n).toBe(0);
  });

  it("counts a class's instances", async () => {
    const h = await hoverFacts(kg, `${ONT}Film`);
    expect(h.counts.instances.n).toBeGreaterThan(5);
  });
});

describe("diagnostics", () => {
  it("places a syntax error at the offending word and says what was expected", () => {
    const { diagnostics } = syntaxDiagnostics("SELECT ?x WHERE {\n  ?x ?p ?o\n} LIMT 3", false);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ line: 3, column: 3, endLine: 3, endColumn: 7, severity: "error", source: "syntax" });
    expect(diagnostics[0].message).toMatch(/Expected .*LIMIT/);
  });

  it("says quietly that a query stopping short is not finished (it is most often being typed)", () => {
    const d = syntaxDiagnostics("SELECT ?x WHERE { ?x ?p ", false).diagnostics[0];
    expect(d).toMatchObject({ severity: "info", source: "syntax" });
    expect(d.message).toMatch(/^The query is not finished: .*a variable.* should follow\.$/);
  });

  it("points at an undeclared prefix", () => {
    const { diagnostics } = syntaxDiagnostics("SELECT ?x WHERE {\n  ?x a foo:Bar }", false);
    expect(diagnostics[0]).toMatchObject({ line: 2, column: 8, source: "syntax" });
    expect(diagnostics[0].message).toMatch(/prefix foo: is not declared/);
  });

  it("explains a refused update and a SERVICE before anything runs", () => {
    const update = syntaxDiagnostics("PREFIX ex: <http://e/>\nDELETE WHERE { ?s ?p ?o }", false).diagnostics[0];
    expect(update).toMatchObject({ line: 2, column: 1, source: "read-only" });
    expect(update.message).toMatch(/read-only/);
    const service = syntaxDiagnostics("SELECT * WHERE { SERVICE <http://other.example/sparql> { ?s ?p ?o } }", false).diagnostics[0];
    expect(service).toMatchObject({ line: 1, column: 18, source: "read-only" });
    expect(syntaxDiagnostics("SELECT * WHERE { SERVICE <http://other.example/sparql> { ?s ?p ?o } }", true).diagnostics).toEqual([]);
  });

  it("flags an unknown predicate where it is written, with the validator's suggestion", async () => {
    const q = `${P}SELECT ?f WHERE {\n  ?f a ont:Film ;\n     ont:directer ?d .\n}`;
    const r = await checkQuery(kg, q, { allowService: false });
    const d = r.diagnostics.find((x) => x.message.includes("ont:directer"));
    expect(d).toMatchObject({ line: 4, column: 6, endColumn: 18, severity: "warning", source: "kg" });
    expect(d?.message).toMatch(/Similar predicates: .*ont:director/);
  });

  it("flags an impossible pattern at the predicate", async () => {
    const q = `${P}SELECT ?f WHERE {\n  ?f a ont:Novel .\n  ?f ont:director ?d .\n}`;
    const r = await checkQuery(kg, q, { allowService: false });
    const d = r.diagnostics.find((x) => x.source === "kg");
    expect(d?.message).toMatch(/no ont:Novel has ont:director/);
    expect(d).toMatchObject({ line: 4, column: 6 });
  });

  it("has nothing to say about a good query, SELECT * included", async () => {
    const r = await checkQuery(kg, `${P}SELECT * WHERE { ?f a ont:Film ; ont:director ?d }`, { allowService: false });
    expect(r.diagnostics).toEqual([]);
    expect(r.complete).toBe(true);
  });
});

describe("a slow KG", () => {
  it("cuts the KG checks at the deadline and says the check is incomplete (syntax still answers at once)", async () => {
    // every ASK hangs (as on an overloaded endpoint); the vocabulary's SELECTs answer
    const slow = Object.assign(Object.create(kg) as EmbeddedKg, { ask: () => new Promise<boolean>(() => {}) });
    await getVocabulary(slow); // built already: the deadline falls on the ASKs
    const t0 = performance.now();
    const r = await checkQuery(slow, `${P}SELECT ?f WHERE { ?f a ont:Film ; ont:directer ?d }`, { allowService: false, deadlineMs: 500 });
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(r.complete).toBe(false);
    expect(r.diagnostics).toEqual([]); // nothing known to be wrong: the predicate could not be checked
    const syntax = await checkQuery(slow, "SELECT ?f WHERE { ?f ?p }", { allowService: false, deadlineMs: 500 });
    expect(syntax.diagnostics[0].source).toBe("syntax");
  });
});

describe("positions", () => {
  it("finds a term as <iri> or prefixed, not inside a string", () => {
    const q = `SELECT ?x WHERE { ?x ?p "ont:director" . ?x ont:director ?y }`;
    expect(locateTerm(q, `${ONT}director`, { ont: ONT })).toMatchObject({ line: 1, column: q.lastIndexOf("ont:director") + 1 });
    expect(locateTerm(`SELECT * { ?x <${ONT}director> ?y }`, `${ONT}director`, {})).toMatchObject({ column: 15 });
  });

  it("says the parser's tokens in words", () => {
    expect(expectedText(["'VAR'", "'IRIREF'", "'PNAME_LN'", "'}'", "'EOF'"])).toBe("a variable, an IRI or prefixed name, “}” or the end of the query");
  });
});

describe("format", () => {
  it("writes IRIs with the KG's prefixes and declares those used", () => {
    const f = formatQuery(`SELECT ?d WHERE { <${RES}Harry_Potter_and_the_Philosophers_Stone_film> <${ONT}director> ?d }`, { res: RES, ont: ONT, unused: "http://unused.example/" });
    expect(f.query).toMatch(/^PREFIX res: <.*>\nPREFIX ont: <.*>\nSELECT \?d WHERE \{\n {2}res:Harry_Potter_and_the_Philosophers_Stone_film ont:director \?d\.\n\}$/);
    expect(f.query).not.toMatch(/unused/);
    expect(f.droppedComments).toBe(false);
  });

  it("keeps the query's own prefix names and notes dropped comments", () => {
    const f = formatQuery(`PREFIX o: <${ONT}>\n# films\nSELECT * WHERE { ?f a o:Film }`, { ont: ONT });
    expect(f.query).toMatch(/PREFIX o: /);
    expect(f.query).not.toMatch(/PREFIX ont:/);
    expect(f.droppedComments).toBe(true);
  });
});

describe("projection order", () => {
  it("orders SELECT * columns as the variables first appear, and explicit projections as written", () => {
    const star = "SELECT * WHERE { ?s ?p ?o }";
    expect(projectionOrder(star, parseReadOnly(star).ast, ["o", "p", "s"])).toEqual(["s", "p", "o"]);
    const named = "SELECT ?o (COUNT(?s) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?o";
    expect(projectionOrder(named, parseReadOnly(named).ast, ["n", "o"])).toEqual(["o", "n"]);
  });
});
