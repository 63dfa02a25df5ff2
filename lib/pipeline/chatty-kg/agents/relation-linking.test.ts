import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { Similarity } from "@/lib/embeddings/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createFixtureKg, createTestContext, ONT, RES } from "@/test/fixtures/kg/harness";
import type { LinkedVertex, Qir, QirTriple } from "../state";
import { AppError } from "@/lib/errors";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { linkRelations } from "./relation-linking";

const kg = createFixtureKg();
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

const v = (mention: string, local: string): LinkedVertex => ({ mention, iri: `${RES}${local}`, label: mention, candidates: 1, how: "single" });
function qir(triples: QirTriple[], extra: Partial<Qir> = {}): Qir {
  const terms = triples.flatMap((t) => [t.subject, t.object]);
  return {
    entities: terms.filter((x) => !x.startsWith("?")),
    unknowns: terms.filter((x) => x.startsWith("?")),
    relations: triples.map((t) => t.relation),
    triples,
    questionType: "factoid",
    ...extra,
  };
}
function make(opts: { topPredicates?: number; similarity?: Similarity } = {}) {
  return createTestContext({ kg, llm: createScriptedLlm().gateway, config: { topPredicates: opts.topPredicates ?? 5 }, similarity: opts.similarity });
}

describe("linkRelations", () => {
  it("keeps synonymous predicates (founder, founders, foundedBy) and drops bookkeeping ones", async () => {
    const { ctx, sparql } = make();
    const r = await linkRelations(qir([{ subject: "?who", relation: "founded", object: "Bloomsbury" }]), { Bloomsbury: v("Bloomsbury", "Bloomsbury") }, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const preds = r.relationPredicates.founded;
    const iris = preds.map((p) => p.iri);
    expect(iris).toEqual(expect.arrayContaining([`${ONT}founder`, `${ONT}founders`, `${ONT}foundedBy`]));
    expect(iris.slice(0, 3).sort()).toEqual([`${ONT}foundedBy`, `${ONT}founder`, `${ONT}founders`]);
    expect(iris).not.toContain("http://www.w3.org/2002/07/owl#sameAs");
    expect(iris).not.toContain("http://www.w3.org/2000/01/rdf-schema#label");
    expect(iris).not.toContain(RDF_TYPE);
    expect(preds.find((p) => p.iri === `${ONT}foundedBy`)).toMatchObject({ label: "founded by", direction: "out", vertex: `${RES}Bloomsbury` });
    expect(preds.length).toBeLessThanOrEqual(5);
    // predicate queries are bounded, labels come from one batched VALUES query
    const queries = sparql();
    expect(queries.filter((q) => q.stage === "relation-linking" && q.purpose.startsWith("predicates")).every((q) => /LIMIT 500/.test(q.query))).toBe(true);
    expect(queries.filter((q) => q.purpose === "predicate labels")).toHaveLength(1);
  });

  it("goes on with the predicates it found when a query times out, and the derivation says which step was cut", async () => {
    // a KG whose incoming-edge queries (?s ?p <vertex>) never answer in time
    const slowIn: KnowledgeGraph = {
      ...kg,
      query: async (q, o) => {
        if (/\?s \?p </.test(q)) throw new AppError("kg_timeout", `did not answer within ${o?.timeoutMs} ms`);
        return kg.query(q, o);
      },
    };
    const t = createTestContext({ kg: slowIn, llm: createScriptedLlm().gateway, config: { topPredicates: 5 } });
    const r = await linkRelations(qir([{ subject: "?who", relation: "founded", object: "Bloomsbury" }]), { Bloomsbury: v("Bloomsbury", "Bloomsbury") }, t.ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.relationPredicates.founded.map((p) => p.iri)).toContain(`${ONT}foundedBy`);
    expect(r.relationPredicates.founded.every((p) => p.direction === "out")).toBe(true);
    const warnings = t.events.filter((e) => e.type === "warning");
    expect(warnings).toEqual([expect.objectContaining({ stage: "relation-linking", code: "budget", message: expect.stringMatching(/^Predicates into a linked vertex was stopped at its time limit/) })]);
  });

  it("finds an edge stored only in the other direction (direction in)", async () => {
    const { ctx } = make();
    const film = v("Harry Potter and the Philosopher's Stone", "Philosophers_Stone_film");
    const r = await linkRelations(qir([{ subject: "?actor", relation: "starred in", object: film.mention }]), { [film.mention]: film }, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const preds = r.relationPredicates["starred in"];
    expect(preds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ iri: `${ONT}starring`, direction: "out" }),
        expect.objectContaining({ iri: `${ONT}starredIn`, direction: "in", label: "starred in" }),
      ]),
    );
  });

  it("labels unlabelled predicates from their local name", async () => {
    const { ctx } = make();
    const r = await linkRelations(qir([{ subject: "J. K. Rowling", relation: "born", object: "?place" }]), { "J. K. Rowling": v("J. K. Rowling", "JK_Rowling") }, ctx);
    expect(r.ok && r.relationPredicates.born[0]).toMatchObject({ iri: `${ONT}birthPlace`, label: "birth place", direction: "out" });
  });

  it("keeps rdf:type only when the relation asks for a type", async () => {
    const { ctx } = make({ topPredicates: 10 });
    const vertices = { "Emma Watson": v("Emma Watson", "Emma_Watson") };
    const asType = await linkRelations(qir([{ subject: "Emma Watson", relation: "type", object: "?t" }]), vertices, ctx);
    expect(asType.ok && asType.relationPredicates.type[0].iri).toBe(RDF_TYPE);
    const other = await linkRelations(qir([{ subject: "Emma Watson", relation: "acted in", object: "?t" }]), vertices, ctx);
    expect(other.ok && other.relationPredicates["acted in"].map((p) => p.iri)).not.toContain(RDF_TYPE);
  });

  it("links two entities by the predicates directly between them", async () => {
    const { ctx } = make();
    const r = await linkRelations(
      qir([{ subject: "Daniel Radcliffe", relation: "star in", object: "the film" }], { questionType: "boolean" }),
      { "Daniel Radcliffe": v("Daniel Radcliffe", "Daniel_Radcliffe"), "the film": v("the film", "Philosophers_Stone_film") },
      ctx,
    );
    expect(r.ok && r.relationPredicates["star in"]).toEqual([
      expect.objectContaining({ iri: `${ONT}starring`, direction: "in", vertex: `${RES}Daniel_Radcliffe` }),
    ]);
  });

  it("links a relation between two unknowns through the neighbour's bindings (two hops)", async () => {
    const { ctx, sparql } = make();
    const film = v("the film", "Philosophers_Stone_film");
    const r = await linkRelations(
      qir([
        { subject: "the film", relation: "director", object: "?director" },
        { subject: "?director", relation: "birth place", object: "?place" },
      ]),
      { "the film": film },
      ctx,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.relationPredicates.director[0]).toMatchObject({ iri: `${ONT}director`, vertex: film.iri, direction: "out" });
    expect(r.relationPredicates["birth place"][0]).toMatchObject({ iri: `${ONT}birthPlace`, vertex: "?director", direction: "out" });
    expect(sparql().some((q) => q.purpose.includes("candidate bindings") && /LIMIT 200/.test(q.query))).toBe(true);
  });

  it("fails when a relation has no linked end nearby, or no predicate at all", async () => {
    const { ctx } = make();
    // beside a named entity, a triple connected to nothing is a QIR mistake
    const lonely = await linkRelations(qir([{ subject: "Yate", relation: "population", object: "?n" }, { subject: "?a", relation: "likes", object: "?b" }]), { Yate: v("Yate", "Yate") }, ctx);
    expect(lonely).toMatchObject({ ok: false, failure: { stage: "relation-linking", code: "pipeline_failed", message: expect.stringContaining('"likes"') } });
    // Yate's only non-bookkeeping edge is an incoming birthPlace: that is all there is to rank
    const r = await linkRelations(qir([{ subject: "Yate", relation: "population", object: "?n" }]), { Yate: v("Yate", "Yate") }, ctx);
    expect(r.ok && r.relationPredicates.population.map((p) => p.iri)).toEqual([`${ONT}birthPlace`]);
    // the class "film" has only a label and incoming rdf:type edges: nothing to link
    const film: LinkedVertex = { mention: "film", iri: `${ONT}Film`, label: "film", candidates: 1, how: "single" };
    const none = await linkRelations(qir([{ subject: "film", relation: "population", object: "?n" }]), { film }, ctx);
    expect(none).toEqual({
      ok: false,
      failure: { stage: "relation-linking", code: "pipeline_failed", message: 'Found no KG predicate for "population" around "film".' },
    });
  });

  it("makes the similarity fallback visible in the derivation", async () => {
    const lexical = createLexicalSimilarity();
    const similarity: Similarity = { kind: "lexical", name: lexical.name, warning: "embedding model did not load: offline", scores: lexical.scores };
    const { ctx, events } = make({ similarity });
    await linkRelations(qir([{ subject: "?who", relation: "founded", object: "Bloomsbury" }]), { Bloomsbury: v("Bloomsbury", "Bloomsbury") }, ctx);
    expect(events).toContainEqual({ type: "warning", stage: "relation-linking", code: "setup", message: "embedding model did not load: offline" });
    expect(events.find((e) => e.type === "tool-call" && e.tool === "rank-predicates")).toBeDefined();
  });
});

describe("linkRelations beyond a linked vertex", () => {
  it("links a relation-level question (nothing named) among the KG's predicates on a small KG, and not on a large one", async () => {
    const { ctx } = make();
    const founded = qir([{ subject: "?company", relation: "founded by", object: "?person" }]);
    const r = await linkRelations(founded, {}, ctx);
    expect(r.ok && r.relationPredicates["founded by"][0]).toMatchObject({ iri: `${ONT}foundedBy`, vertex: "?company", direction: "out" });
    // a large KG is not scanned for its predicates
    const fixture = createFixtureKg();
    const large = { ...fixture, info: { ...fixture.info, triples: 3_000_000 } };
    const t = createTestContext({ kg: large, llm: createScriptedLlm().gateway });
    expect(await linkRelations(founded, {}, t.ctx)).toMatchObject({ ok: false, failure: { message: expect.stringContaining('"founded by"') } });
  });

  it("explores a chain of unknowns from a vertex hop by hop, following only the strongest predicates", async () => {
    const { ctx, sparql } = make();
    const film = v("the film", "Philosophers_Stone_film");
    const r = await linkRelations(
      qir([
        { subject: "the film", relation: "based on", object: "?novel" },
        { subject: "?novel", relation: "author", object: "?writer" },
        { subject: "?writer", relation: "birth place", object: "?city" },
      ]),
      { "the film": film },
      ctx,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.relationPredicates.author[0]).toMatchObject({ iri: `${ONT}author`, vertex: "?novel", direction: "out" });
    expect(r.relationPredicates["birth place"][0]).toMatchObject({ iri: `${ONT}birthPlace`, vertex: "?writer", direction: "out" });
    // the third hop's sample is reached through the second hop's strongest predicate (author), not its weaker ones
    const third = sparql().filter((q) => q.purpose.startsWith("a sample of")).at(-1)?.query ?? "";
    expect(third).toContain(`${ONT}basedOn`);
    expect(third).toContain(`${ONT}author`);
    expect(third).not.toContain(`${ONT}publisher`);
    // the predicates around a sample are asked of its bindings, listed (VALUES), not of a subquery the engine may join
    // after scanning the whole store
    const around = sparql().filter((q) => q.purpose.startsWith("predicates out of a variable")).at(-1)?.query ?? "";
    expect(around).toMatch(/VALUES \?x/);
    expect(around).not.toMatch(/SELECT[^]*SELECT/);
  });

  it("takes the predicates that reach the unknown's class when the relation phrase names none of them", async () => {
    const harbour = createFixtureKg("test/fixtures/kg/chatty/class-fit.ttl");
    const H = "http://example.org/harbour/";
    // a similarity that ranks nothing: only the KG's structure can tell which of the depot's predicates is meant
    const flat: Similarity = { kind: "lexical", name: "flat", scores: async (_q, c) => c.map(() => 0) };
    const depot: LinkedVertex = { mention: "North Quay", iri: `${H}Depot7`, label: "North Quay", candidates: 1, how: "single" };
    const crane = { variable: "?c", mention: "cranes", iri: `${H}Crane`, label: "Crane", how: "exact" as const, subclasses: false };
    const q = qir([{ subject: "?c", relation: "in", object: "North Quay" }], { target: "?c", classes: [{ variable: "?c", mention: "cranes" }] } as Partial<Qir>);
    const { ctx, sparql } = createTestContext({ kg: harbour, llm: createScriptedLlm().gateway, config: { topPredicates: 2 }, similarity: flat });
    const r = await linkRelations(q, { "North Quay": depot }, ctx, { classes: { "?c": crane } });
    expect(r.ok && r.relationPredicates.in.map((p) => [p.iri, p.direction])).toEqual([[`${H}yardOf`, "in"]]);
    expect(sparql().some((x) => x.purpose === "predicates into a linked vertex from the other end's class" && x.query.includes(`${H}Crane`))).toBe(true);
    // without the class, the depot's predicates are all there is: the two kept are not the crane's
    const { ctx: plain } = createTestContext({ kg: harbour, llm: createScriptedLlm().gateway, config: { topPredicates: 2 }, similarity: flat });
    const without = await linkRelations(q, { "North Quay": depot }, plain);
    expect(without.ok && without.relationPredicates.in.map((p) => p.iri)).not.toContain(`${H}yardOf`);
  });

  it("links a two-hop chain from the unknown's class to a vertex by the paths the KG has between them", async () => {
    const harbour = createFixtureKg("test/fixtures/kg/chatty/class-fit.ttl");
    const H = "http://example.org/harbour/";
    const flat: Similarity = { kind: "lexical", name: "flat", scores: async (_q, c) => c.map(() => 0) };
    const depot: LinkedVertex = { mention: "North Quay", iri: `${H}Depot7`, label: "North Quay", candidates: 1, how: "single" };
    const crane = { variable: "?c", mention: "cranes", iri: `${H}Crane`, label: "Crane", how: "exact" as const, subclasses: false };
    const q = qir(
      [
        { subject: "?c", relation: "tied", object: "?m" },
        { subject: "?m", relation: "near", object: "North Quay" },
      ],
      { target: "?c", classes: [{ variable: "?c", mention: "cranes" }] } as Partial<Qir>,
    );
    const { ctx, sparql } = createTestContext({ kg: harbour, llm: createScriptedLlm().gateway, config: { topPredicates: 1 }, similarity: flat });
    const r = await linkRelations(q, { "North Quay": depot }, ctx, { classes: { "?c": crane } });
    expect(r.ok && r.relationPredicates.near.map((p) => p.iri)).toEqual([`${H}laidAt`]);
    expect(r.ok && r.relationPredicates.tied.map((p) => p.iri)).toEqual([`${H}runsOn`]);
    expect(sparql().filter((x) => x.purpose.startsWith("two-hop paths")).every((x) => /LIMIT 200/.test(x.query))).toBe(true);
    // without the class there is no chain to fit: the depot's first predicate by name is all the top 1 keeps
    const { ctx: plain } = createTestContext({ kg: harbour, llm: createScriptedLlm().gateway, config: { topPredicates: 1 }, similarity: flat });
    const without = await linkRelations(q, { "North Quay": depot }, plain);
    expect(without.ok && without.relationPredicates.near.map((p) => p.iri)).not.toEqual([`${H}laidAt`]);
  });

  it("finds the predicates of a class whose instances are blank nodes (rows of a table without a key)", async () => {
    const town = createFixtureKg(path.join(process.cwd(), "test/fixtures/kg/chatty/town-shops.ttl"));
    const t = createTestContext({ kg: town, llm: createScriptedLlm().gateway, config: { topPredicates: 5 } });
    const inspection = { variable: "?i", mention: "inspections", iri: "http://example.org/town/Inspection", label: "inspection", how: "exact" as const, subclasses: false };
    const q = qir([{ subject: "?i", relation: "score", object: "?s" }], { target: "?s", classes: [{ variable: "?i", mention: "inspections" }] } as Partial<Qir>);
    const r = await linkRelations(q, {}, t.ctx, { classes: { "?i": inspection } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.relationPredicates.score[0]).toMatchObject({ iri: "http://example.org/town/score", direction: "out", vertex: "?i" });
  });
});
