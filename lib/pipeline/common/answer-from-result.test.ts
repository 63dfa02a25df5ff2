// The shared QueryResult → Answer converter on the sample KG and the music KG (real oxigraph stores): ASK, counts,
// items, tables (projection order, labelled IRIs, typed literals, unbound cells), "none", and the row-limit warning.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { KgProfile, QueryResult, Term } from "@/lib/kg/types";
import { createFixtureKg, createTestContext, RES } from "@/test/fixtures/kg/harness";
import { fixturePath } from "@/test/fixtures/kg/lexicon/store";
import { answerFromResult, dedupeTerms, isNumericLiteral, labelItems } from "./answer-from-result";
import { getLexicon } from "./lexicon";

const lit = (value: string, extra: { datatype?: string; "xml:lang"?: string } = {}): Term => ({ type: "literal", value, ...extra });
const XSD = "http://www.w3.org/2001/XMLSchema#";
const SAMPLE = "http://example.org/chatty-kg/resource/";
const SAMPLE_PREFIXES = "PREFIX res: <http://example.org/chatty-kg/resource/> PREFIX ont: <http://example.org/chatty-kg/ontology/> ";
const MUSIC_PREFIXES = "PREFIX t: <http://example.org/tunes/id/> PREFIX tv: <http://example.org/tunes/vocab#> ";

const sample = createFixtureKg("kg/sample.ttl");
const musicProfile = JSON.parse(readFileSync("kg/music.profile.json", "utf8")) as Partial<KgProfile>;
const music = createFixtureKg("kg/music.ttl", musicProfile);

function context(kg = sample, config = {}) {
  return createTestContext({ kg, llm: createScriptedLlm({}).gateway, config });
}

async function convert(query: string, kg = sample, options: Parameters<typeof answerFromResult>[2] = {}) {
  const t = context(kg);
  const result: QueryResult = await kg.query(query);
  return { ...(await answerFromResult(result, t.ctx, options)), t };
}

describe("answer-from-result helpers", () => {
  it("recognises numeric literals only", () => {
    expect(isNumericLiteral(lit(" 223 "))).toBe(true);
    expect(isNumericLiteral(lit("-1.5e3"))).toBe(true);
    expect(isNumericLiteral(lit("223 pages"))).toBe(false);
    expect(isNumericLiteral({ type: "uri", value: "http://example.org/1" })).toBe(false);
  });

  it("drops repeated terms but keeps literals that differ in language or datatype", () => {
    const terms: Term[] = [lit("a"), lit("a"), lit("a", { "xml:lang": "en" }), lit("a", { datatype: "x:t" }), { type: "uri", value: "a" }];
    expect(dedupeTerms(terms)).toEqual([lit("a"), lit("a", { "xml:lang": "en" }), lit("a", { datatype: "x:t" }), { type: "uri", value: "a" }]);
  });

  it("labels IRIs through one execution-stage query and keeps literal details", async () => {
    const t = createTestContext({ kg: createFixtureKg(), llm: createScriptedLlm({}).gateway });
    const items = await labelItems([{ type: "uri", value: `${RES}JK_Rowling` }, lit("7", { datatype: `${XSD}integer` })], t.ctx);
    expect(items).toEqual([
      { type: "uri", value: `${RES}JK_Rowling`, label: "J. K. Rowling" },
      { type: "literal", value: "7", datatype: `${XSD}integer` },
    ]);
    expect(t.sparql().map((e) => e.stage)).toEqual(["execution"]);
  });

  it("runs no query when there is no IRI", async () => {
    const t = createTestContext({ kg: createFixtureKg(), llm: createScriptedLlm({}).gateway });
    expect(await labelItems([lit("x", { "xml:lang": "de" })], t.ctx)).toEqual([{ type: "literal", value: "x", lang: "de" }]);
    expect(t.sparql()).toHaveLength(0);
  });
});

describe("answerFromResult on the sample KG", () => {
  it("ASK → yes/no; one aggregate number → count; COUNT 0 → none", async () => {
    expect((await convert(`${SAMPLE_PREFIXES} ASK { res:Harry_Potter ont:author res:J_K_Rowling }`)).answer).toEqual({ kind: "boolean", value: true });
    const count = await convert(`${SAMPLE_PREFIXES} SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { res:Harry_Potter ont:publisher ?p }`, sample, { aggregate: true });
    expect(count.answer).toEqual({ kind: "count", count: 2 });
    const zero = await convert(`${SAMPLE_PREFIXES} SELECT (COUNT(?p) AS ?n) WHERE { res:Harry_Potter ont:noSuchPredicate ?p }`, sample, { aggregate: true });
    expect(zero).toMatchObject({ answer: { kind: "none" }, rows: 0 });
  });

  it("one projected variable → labelled items, repeats dropped", async () => {
    const { answer, rows } = await convert(`${SAMPLE_PREFIXES} SELECT ?d WHERE { ?f a ont:Film ; ont:director ?d }`);
    expect(answer.kind).toBe("items");
    if (answer.kind !== "items") return;
    expect(rows).toBe(answer.items.length);
    expect(new Set(answer.items.map((i) => i.value)).size).toBe(answer.items.length);
    expect(answer.items).toContainEqual({ type: "uri", value: `${SAMPLE}Chris_Columbus`, label: "Chris Columbus" });
  });

  it("several projected variables → a table in projection order, IRIs labelled, literals typed, one label query", async () => {
    const { answer, rows, t } = await convert(
      `${SAMPLE_PREFIXES} SELECT ?runtime ?film ?director WHERE { ?film a ont:Film ; ont:runtime ?runtime ; ont:director ?director } ORDER BY ?runtime`,
    );
    expect(answer.kind).toBe("table");
    if (answer.kind !== "table") return;
    expect(answer.columns).toEqual(["runtime", "film", "director"]);
    expect(rows).toBe(answer.rows.length);
    expect(answer.rows.length).toBeGreaterThan(3);
    const first = answer.rows[0];
    expect(first[0]).toMatchObject({ type: "literal", datatype: `${XSD}integer` });
    expect(first[1]).toMatchObject({ type: "uri", label: expect.any(String) });
    expect(answer.rows.every((r) => r.length === 3)).toBe(true);
    const stone = answer.rows.find((r) => r[1]?.value === `${SAMPLE}Harry_Potter_and_the_Philosophers_Stone_film`);
    expect(stone).toEqual([
      { type: "literal", value: "152", datatype: `${XSD}integer` },
      { type: "uri", value: `${SAMPLE}Harry_Potter_and_the_Philosophers_Stone_film`, label: "Harry Potter and the Philosopher's Stone" },
      { type: "uri", value: `${SAMPLE}Chris_Columbus`, label: "Chris Columbus" },
    ]);
    // runtimes ascend as the query ordered them
    const runtimes = answer.rows.map((r) => Number(r[0]?.value));
    expect(runtimes).toEqual([...runtimes].sort((a, b) => a - b));
    expect(t.sparql().filter((e) => e.purpose === "answer labels")).toHaveLength(1);
  });

  it("an unbound OPTIONAL cell is null, and a row per distinct combination", async () => {
    const { answer } = await convert(
      `${SAMPLE_PREFIXES} SELECT ?film ?death WHERE { ?film a ont:Film ; ont:director ?d . OPTIONAL { ?d ont:deathDate ?death } }`,
    );
    expect(answer.kind).toBe("table");
    if (answer.kind !== "table") return;
    expect(answer.rows.some((r) => r[1] === null)).toBe(true);
    const keys = answer.rows.map((r) => JSON.stringify(r));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("no rows → none, whatever the projection", async () => {
    const { answer, rows } = await convert(`${SAMPLE_PREFIXES} SELECT ?a ?b WHERE { ?a ont:noSuchPredicate ?b }`);
    expect(answer).toEqual({ kind: "none", reason: "The KG returned nothing for the query." });
    expect(rows).toBe(0);
  });

  it("warns (code row-limit) when the result reaches the row limit, not below it", async () => {
    const q = `${SAMPLE_PREFIXES} SELECT ?film ?d WHERE { ?film a ont:Film ; ont:director ?d } LIMIT 3`;
    const cut = await convert(q, sample, { rowLimit: 3 });
    expect(cut.t.events.filter((e) => e.type === "warning" && e.code === "row-limit")).toHaveLength(1);
    const fine = await convert(q, sample, { rowLimit: 4 });
    expect(fine.t.events.some((e) => e.type === "warning")).toBe(false);
  });

  it("warns (code row-limit) when the endpoint cut the rows at its own cap below the pipeline's row limit", async () => {
    const q = `${SAMPLE_PREFIXES} SELECT ?film ?d WHERE { ?film a ont:Film ; ont:director ?d } LIMIT 3`;
    const t = context(sample);
    const result = await sample.query(q);
    if (result.kind !== "SELECT") throw new Error("expected SELECT");
    await answerFromResult({ ...result, serverRowCap: 3 }, t.ctx, { rowLimit: 1_000_000 });
    const warnings = t.events.filter((e) => e.type === "warning" && e.code === "row-limit");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining("row limit (3)") });
  });
});

describe("answerFromResult on the music KG", () => {
  it("a three-column table through offer nodes: titles from the profile's dcterms:title, decimals typed", async () => {
    const { answer } = await convert(
      `${MUSIC_PREFIXES} SELECT ?album ?price ?currency WHERE { ?album tv:offer ?o . ?o tv:price ?price ; tv:currency ?currency } ORDER BY ?album ?price`,
      music,
    );
    expect(answer.kind).toBe("table");
    if (answer.kind !== "table") return;
    expect(answer.columns).toEqual(["album", "price", "currency"]);
    expect(answer.rows).toContainEqual([
      { type: "uri", value: "http://example.org/tunes/id/album-paper-skies", label: "Paper Skies" },
      // oxigraph stores decimals canonically ("24.00" → "24")
      { type: "literal", value: "24", datatype: `${XSD}decimal` },
      { type: "literal", value: "EUR" },
    ]);
    // two offers of one album are two rows
    expect(answer.rows.filter((r) => r[0]?.value === "http://example.org/tunes/id/album-paper-skies")).toHaveLength(2);
  });

  it("a per-group aggregate is a table (group, number), not a count", async () => {
    const { answer } = await convert(
      `${MUSIC_PREFIXES} SELECT ?currency (COUNT(?o) AS ?offers) WHERE { ?o a tv:Offer ; tv:currency ?currency } GROUP BY ?currency ORDER BY ?currency`,
      music,
      { aggregate: true },
    );
    expect(answer.kind).toBe("table");
    if (answer.kind !== "table") return;
    expect(answer.columns).toEqual(["currency", "offers"]);
    expect(answer.rows.map((r) => r[0]?.value)).toContain("EUR");
    expect(answer.rows.every((r) => r[1]?.type === "literal" && Number(r[1].value) > 0)).toBe(true);
  });
});

describe("answer labels on a KG without labels", () => {
  it("name an answer IRI with the KG lexicon's name once the lexicon exists, and never build it for that", async () => {
    const kg = createFixtureKg(fixturePath("custom-names.ttl"));
    const { ctx } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const anchorage = { type: "uri", value: "urn:uuid:5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d" } as const;
    // no lexicon yet: the profile's labels only (none), and no lexicon queries on the way
    expect(await labelItems([anchorage], ctx)).toEqual([{ type: "uri", value: anchorage.value }]);
    expect(kg.queries.some((q) => /LIMIT 300000/.test(q))).toBe(false);
    await getLexicon(ctx, "entity-linking");
    expect(await labelItems([anchorage], ctx)).toEqual([{ type: "uri", value: anchorage.value, label: "Outer Roads" }]);
  });
});
