// Link tables on a fixture KG (memberships link singers to choirs; auditions are rows of one singer with an outcome):
// the pool holds the queries people write across a link table — an attribute of the things linked to the thing with
// a value (and an average), two columns across the link — and across any row that refers to a thing: the things no row
// refers to (MINUS, by an attribute, by a value of the row, by key columns) and the things referred to by rows with two
// values at once (IN). Each in the form people write it (no type triples), with a question in the KG's own names,
// answering from the KG.
import { describe, expect, it } from "vitest";
import { answersOf, exampleLike as exampleOf, usePreparedFixture } from "@/test/helpers/prepared-fixture";

const P = "PREFIX ch: <http://example.org/choirs/> ";
const fx = usePreparedFixture("test/fixtures/kg/onboarding/choirs.ttl");

const exampleLike = (query: string) => exampleOf(fx, P + query);
const answers = (sparql: string) => answersOf(fx, sparql);

describe("examples through a link row", () => {
  it("asks for an attribute of the things linked to the thing whose attribute has a value, and an average", async () => {
    const e = exampleLike(`SELECT ?n WHERE { ?m ch:ref_singer ?s . ?m ch:ref_choir ?c . ?c ch:choir_name "Saltmarsh Singers" . ?s ch:singer_name ?n }`);
    expect(e?.question).toMatch(/^What is the singer name of the singers that have a membership with the choir whose choir name is [\w ]+\?$/);
    const choir = /whose choir name is ([\w ]+)\?$/.exec(e?.question ?? "")?.[1];
    const members: Record<string, string[]> = {
      "Larkspur Voices": ["Bram Kettering", "Maren Tollis", "Odile Marsh"],
      "Copperbell Chorale": ["Odile Marsh", "Ysolde Penhale"],
      "Saltmarsh Singers": ["Bram Kettering", "Cassius Wren"],
    };
    expect(await answers(e?.sparql ?? "")).toEqual(members[choir ?? ""]);

    const avg = exampleLike(`SELECT (AVG(?a) AS ?x) WHERE { ?m ch:ref_singer ?s . ?m ch:ref_choir ?c . ?c ch:choir_name "Saltmarsh Singers" . ?s ch:age ?a }`);
    expect(avg?.question).toMatch(/^What is the average age of the singers that have a membership with the choir whose choir name is [\w ]+\?$/);
  });

  it("lists one end's attribute beside the other end's for every link row", async () => {
    const e = exampleLike(`SELECT ?c ?s WHERE { ?m ch:ref_choir ?x . ?m ch:ref_singer ?y . ?x ch:choir_name ?c . ?y ch:singer_name ?s }`);
    expect(e?.question).toBe("List the choir name of the choirs and the singer name of the singers linked to them by a membership.");
    const rows = await answers(e?.sparql ?? "");
    expect(rows).toHaveLength(7);
    expect(rows).toContain("Copperbell Chorale, Odile Marsh");
  });
});

describe("negation over a link", () => {
  it("asks for the things no link row refers to, as a MINUS of two subqueries", async () => {
    const e = exampleLike(`SELECT ?n WHERE { { SELECT (?a AS ?n) WHERE { ?s ch:singer_name ?a } } MINUS { SELECT (?b AS ?n) WHERE { ?t ch:singer_name ?b . ?m ch:ref_singer ?t } } }`);
    expect(e?.question).toBe("What is the singer name of the singers that do not have any membership?");
    expect(await answers(e?.sparql ?? "")).toEqual(["Ilse Varrow", "Jory Ashdown"]);
  });

  it("asks for the things with no row of a value", async () => {
    const e = exampleLike(`SELECT ?n WHERE { { SELECT (?a AS ?n) WHERE { ?s ch:singer_name ?a } } MINUS { SELECT (?b AS ?n) WHERE { ?t ch:singer_name ?b . ?au ch:auditioned_singer ?t . ?au ch:outcome "passed" } } }`);
    expect(e?.question).toMatch(/^What is the singer name of the singers that do not have any audition with outcome (passed|failed)\?$/);
    const outcome = /with outcome (\w+)\?$/.exec(e?.question ?? "")?.[1];
    expect(await answers(e?.sparql ?? "")).toEqual(outcome === "passed" ? ["Cassius Wren", "Ilse Varrow", "Maren Tollis"] : ["Bram Kettering", "Ilse Varrow", "Jory Ashdown", "Maren Tollis"]);
  });

  it("asks by key columns alone: the keys no link row holds", async () => {
    // both classes have a singer_id column here: the types tell them apart
    const e = exampleLike(`SELECT ?k WHERE { { SELECT (?a AS ?k) WHERE { ?s a ch:singer ; ch:singer_id ?a } } MINUS { SELECT (?b AS ?k) WHERE { ?m a ch:membership ; ch:singer_id ?b } } }`);
    expect(e?.question).toBe("What is the singer id of the singers that do not have any membership?");
    expect(await answers(e?.sparql ?? "")).toEqual(["6", "7"]);
  });
});

describe("both values over a link", () => {
  it("asks for the things linked by one row with a value and by another with a second (IN)", async () => {
    const e = exampleLike(`SELECT ?n WHERE { ?a ch:outcome "passed" . ?a ch:auditioned_singer ?s . ?s ch:singer_name ?n . ?b ch:outcome "failed" . ?b ch:auditioned_singer ?s2 . ?s2 ch:singer_name ?n2 . FILTER(?n IN (?n2)) }`);
    expect(e?.question).toMatch(/^What is the singer name of the singers that have both an audition with outcome (passed|failed) and an audition with outcome (passed|failed)\?$/);
    expect(await answers(e?.sparql ?? "")).toEqual(["Odile Marsh", "Ysolde Penhale"]);
  });
});
