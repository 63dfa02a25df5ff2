import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createEmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import { induceDatabase, type InducedDatabase } from "./induction";
import { checkFidelity } from "./fidelity";

const dir = mkdtempSync(path.join(tmpdir(), "ragonite-induction-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SMALL = `
@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:acme a ex:Supplier ; rdfs:label "Acme" ; ex:country "Japan" ; ex:founded "1990-05-01"^^xsd:date ; ex:rating "4.5"^^xsd:decimal .
ex:bolt a ex:Part , ex:Product ; rdfs:label "Bolt"@en , "Schraube"@de ; ex:supplier ex:acme ; ex:weight "12"^^xsd:integer ;
  ex:compatibleWith ex:nut , ex:washer ; ex:code "0042" ; ex:select "keyword-named predicate" .
ex:nut a ex:Part ; rdfs:label "Nut" ; ex:supplier ex:acme ; ex:weight 3 ; ex:compatibleWith ex:bolt .
ex:washer rdfs:label "Washer" ; ex:weight 1 .
`;

describe("database induction on a small KG", () => {
  let kg: KnowledgeGraph;
  let induced: InducedDatabase;
  beforeAll(async () => {
    kg = await createEmbeddedKg({ sources: [{ text: SMALL, format: "turtle" }] });
    induced = await induceDatabase(kg, { dir });
  }, 60_000);
  afterAll(async () => {
    induced?.db.close();
    await kg?.close();
  });

  it("makes a table per class, a row per subject (multi-typed subjects in each), typed columns, FKs and link tables", async () => {
    const names = induced.schema.tables.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["part", "product", "supplier", "untyped_resource"]));
    const part = induced.schema.tables.find((t) => t.name === "part")!;
    expect(part.subjects.sort()).toEqual(["http://ex.org/bolt", "http://ex.org/nut"]);
    const col = (name: string) => part.columns.find((c) => c.name === name);
    expect(col("weight")?.type).toBe("BIGINT");
    expect(col("supplier")).toMatchObject({ kind: "ref", type: "VARCHAR", refTables: ["supplier"] });
    // "0042" is an identifier: leading zeros keep it text; a keyword-named predicate gets a safe name
    expect(col("code")?.type).toBe("VARCHAR");
    expect(col("select_")?.predicate).toBe("http://ex.org/select");
    // bolt has two labels and two compatible parts: link tables, not columns
    expect(part.links.map((l) => l.name).sort()).toEqual(["part_compatible_with", "part_label_2"]);
    const supplier = induced.schema.tables.find((t) => t.name === "supplier")!;
    expect(supplier.columns.find((c) => c.name === "founded")?.type).toBe("DATE");
    expect(supplier.columns.find((c) => c.name === "rating")?.type).toBe("DOUBLE");
    expect(induced.ddl).toContain("CREATE TABLE part (");
    expect(induced.ddl).toMatch(/supplier VARCHAR, -- <http:\/\/ex.org\/supplier> "supplier": IRI of the related entity; join supplier.iri/);
  });

  it("answers SQL over the typed values, with comments stored in the database", async () => {
    const r = await induced.db.query("SELECT p.label, s.label AS supplier, p.weight + 1 AS w FROM part p JOIN supplier s ON p.supplier = s.iri ORDER BY p.weight DESC");
    expect(r.rows).toEqual([["Bolt", "Acme", "13"], ["Nut", "Acme", "4"]]);
    const c = await induced.db.query("SELECT comment FROM duckdb_columns() WHERE table_name = 'supplier' AND column_name = 'founded'");
    expect(c.rows[0][0]).toContain("<http://ex.org/founded>");
    const y = await induced.db.query("SELECT count(*) FROM supplier WHERE founded < DATE '2000-01-01'");
    expect(y).toMatchObject({ rows: [["1"]], aggregate: true });
  });

  it("runs one SELECT only, read-only, with a row cap and a timeout", async () => {
    await expect(induced.db.query("DROP TABLE part")).rejects.toMatchObject({ code: "sql_forbidden" });
    await expect(induced.db.query("SELECT 1; SELECT 2")).rejects.toMatchObject({ code: "sql_forbidden" });
    await expect(induced.db.query("SELECT * FROM part; DELETE FROM part")).rejects.toMatchObject({ code: "sql_forbidden" });
    await expect(induced.db.query("SELECT * FROM read_csv('/etc/passwd')")).rejects.toMatchObject({ code: "sql_forbidden" });
    await expect(induced.db.query("SELEC label FROM part")).rejects.toMatchObject({ code: "sql_syntax" });
    await expect(induced.db.query("SELECT nope FROM part")).rejects.toMatchObject({ code: "sql_syntax", message: expect.stringContaining("nope") });
    const capped = await induced.db.query("SELECT * FROM range(5000)", { maxRows: 10 });
    expect(capped.rows).toHaveLength(10);
    expect(capped.truncated).toBe(true);
    await expect(induced.db.query("SELECT count(*) FROM range(100000000000) a", { timeoutMs: 200 })).rejects.toMatchObject({ code: "sql_timeout" });
    // the database still answers afterwards, and it was not changed
    expect((await induced.db.query("SELECT count(*) FROM part")).rows).toEqual([["2"]]);
  });

  it("represents every triple of a typed subject", async () => {
    const report = await checkFidelity(induced.facts, induced.schema, induced.db);
    console.log(`small KG: ${report.represented}/${report.total} triples represented`);
    expect(report.missing).toEqual([]);
    expect(report.represented).toBe(report.total);
  });

  it("reuses the database file for the same content", async () => {
    const again = await induceDatabase(kg, { dir });
    try {
      expect(again.stats.reused).toBe(true);
      expect(again.db.path).toBe(induced.db.path);
    } finally {
      again.db.close();
    }
  });
});

describe("induction fidelity on the sample KG", () => {
  it("finds every triple whose subject has a type again in the database", async () => {
    const kg = await openKg({ kind: "sample" });
    const induced = await induceDatabase(kg, { dir });
    try {
      const report = await checkFidelity(induced.facts, induced.schema, induced.db);
      console.log(`sample KG: ${report.represented}/${report.total} triples represented (${induced.stats.tables} tables, ${induced.stats.linkTables} link tables)`);
      expect(report.missing).toEqual([]);
      expect(report.represented).toBe(report.total);
      expect(report.total).toBeGreaterThan(2000);
    } finally {
      induced.db.close();
      await kg.close();
    }
  }, 60_000);
});

describe("induction on the music KG (names in several predicates, offer nodes, literal countries, encoded IRIs)", () => {
  let kg: KnowledgeGraph;
  let induced: InducedDatabase;
  beforeAll(async () => {
    const profile = JSON.parse(readFileSync(path.resolve("kg/music.profile.json"), "utf8")) as Record<string, unknown>;
    kg = await openKg({ kind: "files", paths: [path.resolve("kg/music.ttl")], profile });
    induced = await induceDatabase(kg, { dir });
  }, 60_000);
  afterAll(async () => {
    induced?.db.close();
    await kg?.close();
  });

  it("finds every triple whose subject has a type again in the database", async () => {
    const report = await checkFidelity(induced.facts, induced.schema, induced.db);
    console.log(`music KG: ${report.represented}/${report.total} triples represented (${induced.stats.tables} tables, ${induced.stats.linkTables} link tables)`);
    expect(report.missing).toEqual([]);
    expect(report.represented).toBe(report.total);
  });

  it("labels rows from the profile's label predicates and types dates and decimals", async () => {
    const names = (await induced.db.query("SELECT label FROM band WHERE country_of_origin = 'Iceland' ORDER BY label")).rows.flat();
    expect(names.length).toBeGreaterThan(0);
    const album = induced.schema.tables.find((t) => t.name === "album")!;
    expect(album.columns.find((c) => c.predicate.endsWith("#releaseDate"))?.type).toBe("DATE");
    expect(album.columns.find((c) => c.predicate.endsWith("#rating"))?.type).toBe("DOUBLE");
    // the percent-encoded IRI of a solo artist is stored as it is
    const solo = await induced.db.query("SELECT iri FROM solo_artist WHERE label = 'Mira Solberg'");
    expect(solo.rows).toEqual([["http://example.org/tunes/id/artist/Mira%20Solberg"]]);
  });
});
