// The wider pass on a fixture KG whose pool has room after every first-pass shape ran (mills.ttl: a table of windmills
// and a few resources without a class): the pool asks the shapes only a wider pass makes — three columns with the id
// first, the top row's name and two columns, the average, highest and total at once, how many reach a bound, the total of each row by name,
// what two entities' relations share, two columns of each row beside its linked row's name (guilds.ttl) — each with a question in the KG's words, answering from the KG. A KG that fills
// the pool in the first pass gets none of them: its pool is the first pass's, example for example. On a KG of looms
// (looms.ttl: fourteen predicates) the wider pass reads the predicates past the first pass's twelve.
import { describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import { answersOf, exampleLike as exampleOf, usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { prepareInMemory } from "./prepare";

const FIXTURE = "test/fixtures/kg/onboarding/mills.ttl";
const P = "PREFIX ml: <http://example.org/mills/> ";
const fx = usePreparedFixture(FIXTURE);

const exampleLike = (query: string) => exampleOf(fx, P + query);
const answers = (sparql: string) => answersOf(fx, sparql);

const WIDER = {
  three: `SELECT ?i ?n ?c WHERE { ?m ml:mill_id ?i ; ml:mill_name ?n ; ml:county ?c }`,
  top: `SELECT ?n ?b ?c WHERE { ?m ml:mill_name ?n ; ml:builder ?b ; ml:county ?c ; ml:output ?o } ORDER BY DESC(?o) LIMIT 1`,
  aggregates: `SELECT (AVG(?o) AS ?avg) (MAX(?o) AS ?max) (SUM(?o) AS ?sum) WHERE { ?m ml:output ?o }`,
  perName: `SELECT ?n (SUM(?o) AS ?sum) WHERE { ?m ml:mill_name ?n ; ml:output ?o } GROUP BY ?n`,
  shared: `SELECT ?x WHERE { ml:Southmarsh_Guild ml:member ?x . ml:Spelt ml:miller ?x }`,
};

describe("the wider pass of a KG whose pool has room", () => {
  it("lists three columns of every row, the id first", async () => {
    const e = exampleLike(WIDER.three);
    expect(e?.question).toBe("List the mill id, mill name and county of every mill.");
    expect(await answers(e?.sparql ?? "")).toContain("5, Brindlecote, Fenmoor");
  });

  it("asks for the name and two columns of the top row", async () => {
    const e = exampleLike(WIDER.top);
    expect(e?.question).toBe("What are the mill name, builder and county of the mill with the highest output?");
    expect(await answers(e?.sparql ?? "")).toEqual(["Brindlecote, Wetherall Brothers, Fenmoor"]);
  });

  it("asks for the average, highest and total of a measure at once, and the total of each row by its name", async () => {
    expect(exampleLike(WIDER.aggregates)?.question).toBe("What are the average, highest and total output of all mills?");
    const e = exampleLike(WIDER.perName);
    expect(e?.question).toBe("What is the total output of the mills for each mill name?");
    expect(await answers(e?.sparql ?? "")).toContain("Brindlecote, 460");
  });

  it("counts the rows that reach a bound, the bound included", async () => {
    const e = exampleLike(`SELECT (COUNT(?m) AS ?n) WHERE { ?m ml:output ?o FILTER(?o >= 100) }`);
    expect(e?.question).toBe("How many mills have an output of at least 150?");
    expect(await answers(e?.sparql ?? "")).toEqual(["4"]);
  });

  it("asks what two entities' relations share", async () => {
    const e = exampleLike(WIDER.shared);
    expect(e?.question).toBe("What are the members of Southmarsh Guild that are also millers of Spelt?");
    expect(await answers(e?.sparql ?? "")).toEqual(["http://example.org/mills/Ysolde_Marr"]);
  });
});

describe("the wider pass of a KG with more predicates than the first pass reads", () => {
  const looms = usePreparedFixture("test/fixtures/kg/onboarding/looms.ttl");
  const L = "PREFIX lm: <http://example.org/looms/> ";

  it("reads the predicates past the first twelve and asks about them", async () => {
    const e = exampleOf(looms, L + `SELECT ?c WHERE { lm:Alder lm:weft_colour ?c }`);
    expect(e?.question).toBe("What is the weft colour of Alder Loom?");
    expect(await answersOf(looms, e?.sparql ?? "")).toEqual(["ochre"]);
    const g = exampleOf(looms, L + `SELECT ?w (COUNT(?l) AS ?n) WHERE { ?l lm:workshop ?w } GROUP BY ?w`);
    expect(g?.question).toBe("How many things are there for each workshop?");
    expect(await answersOf(looms, g?.sparql ?? "")).toEqual(["Mill Yard, 1", "North Shed, 2", "Quay Loft, 1"]);
  });
});

describe("the wider pass across a link", () => {
  // guilds.ttl (artisans linked to their guild) has room in its pool too
  const guilds = usePreparedFixture("test/fixtures/kg/onboarding/guilds.ttl");

  it("lists two columns of each row beside its linked row's name", async () => {
    const q = `PREFIX ga: <http://example.org/guilds/artisan#> PREFIX gg: <http://example.org/guilds/guild#> SELECT ?n ?c ?g WHERE { ?a ga:artisan_name ?n ; ga:craft ?c ; ga:ref_guild ?x . ?x gg:guild_name ?g }`;
    const e = exampleOf(guilds, q);
    expect(e?.question).toBe("List the artisan name and craft of each artisan and its guild name.");
    expect(await answersOf(guilds, e?.sparql ?? "")).toContain("Tamsin Rook, weaver, Amberwick Weavers");
  });
});

describe("the wider pass's budget", () => {
  it("stops at the job's candidate budget and says so, the first pass's examples kept as they were", async () => {
    const kg = await openKg({ kind: "files", paths: [FIXTURE] });
    try {
      const all = fx.prepared.job.candidates;
      const short = await prepareInMemory(kg, { limits: { maxCandidates: all - 20 } });
      expect(short.job.candidates).toBeLessThan(all);
      expect(short.job.skipped.some((s) => /^candidate budget of \d+ queries reached: \d+ not run$/.test(s))).toBe(true);
      expect(short.examples.length).toBeLessThan(fx.prepared.examples.length);
      expect(short.examples.map((e) => e.template)).toEqual(fx.prepared.examples.slice(0, short.examples.length).map((e) => e.template));
    } finally {
      await kg.close();
    }
  });
});

describe("a KG that fills the pool in the first pass", () => {
  it("gets no wider pass: its pool is the first pass's, example for example", async () => {
    const kg = await openKg({ kind: "files", paths: [FIXTURE] });
    try {
      // the first pass keeps more than this many on the fixture (the wider shapes all come after it)
      const capped = await prepareInMemory(kg, { limits: { maxExamples: 100 } });
      const firsts = fx.prepared.examples.slice(0, 100);
      expect(capped.examples.map((e) => [e.template, e.question])).toEqual(firsts.map((e) => [e.template, e.question]));
      const templates = new Set(capped.examples.map((e) => e.template));
      const wider = Object.values(WIDER).map((q) => exampleLike(q)?.template);
      expect(wider.every((t) => t !== undefined && !templates.has(t))).toBe(true);
    } finally {
      await kg.close();
    }
  });
});
