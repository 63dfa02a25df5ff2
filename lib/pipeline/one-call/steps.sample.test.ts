// The one-call steps one by one on the sample KG (kg/sample.ttl): example retrieval (BM25 and an embedding model),
// schema cards, card selection within the budget, and the validator on planted faults and on correct queries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Sparql from "sparqljs";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { Similarity } from "@/lib/embeddings/types";
import { openKg } from "@/lib/kg/open-kg";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG, type ExperienceExample } from "@/lib/pipeline/types";
import { selectCards } from "./card-selection";
import { rankExamples } from "./examples";
import { buildSchemaCards, type SchemaCards } from "@/lib/pipeline/common/schema-cards";
import { nameMentions } from "./retrieval";
import { validateQuery, type ValidationEnv } from "@/lib/pipeline/common/query-validator";

const ONT = "http://example.org/chatty-kg/ontology/";
const P = "PREFIX ont: <http://example.org/chatty-kg/ontology/> PREFIX res: <http://example.org/chatty-kg/resource/>";
let sample: KnowledgeGraph;
let cards: SchemaCards;

beforeAll(async () => {
  sample = await openKg({ kind: "sample" });
  const ctx = createAgentContext({ kg: sample, llm: {} as LlmGateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, emit: () => {} });
  cards = await buildSchemaCards(ctx, "retrieval");
}, 60_000);
afterAll(async () => {
  await sample?.close();
});

const POOL: ExperienceExample[] = [
  { id: "a", question: "Who directed the first film of the series?", sparql: `${P} SELECT ?d WHERE { res:Harry_Potter_and_the_Philosophers_Stone_film ont:director ?d }`, source: "import" },
  { id: "b", question: "How many pages does the second novel have?", sparql: `${P} SELECT ?n WHERE { res:Harry_Potter_and_the_Chamber_of_Secrets ont:numberOfPages ?n }`, source: "import" },
  { id: "c", question: "Which company published the novels?", sparql: `${P} SELECT DISTINCT ?p WHERE { ?b a ont:Novel ; ont:publisher ?p }`, source: "feedback" },
];

describe("example retrieval", () => {
  it("ranks by BM25 when only the lexical similarity is loaded", async () => {
    const ranked = await rankExamples("How many pages has the third novel?", POOL, createLexicalSimilarity(), 2);
    expect(ranked.map((e) => e.id)).toEqual(["b", "c"]);
    expect(ranked[0].score).toBeGreaterThan(ranked[1].score);
  });

  it("ranks by the embedding model when one is loaded (its scores, not BM25's)", async () => {
    // a stand-in model that finds the publisher question closest whatever the words say
    const embedding: Similarity = { kind: "transformers", name: "stand-in", scores: async (_q, cs) => cs.map((c) => (c.includes("published") ? 0.9 : 0.2)) };
    const ranked = await rankExamples("How many pages has the third novel?", POOL, embedding, 1);
    expect(ranked).toEqual([expect.objectContaining({ id: "c", score: 0.9 })]);
  });

  it("finds names in the question for the label search", () => {
    expect(nameMentions('Who directed "The Chamber" and Harry Potter and the Goblet of Fire?')).toEqual(["The Chamber", "Harry Potter and the Goblet of Fire"]);
    expect(nameMentions("Which films came out in 2001?")).toEqual([]);
  });
});

describe("schema cards", () => {
  it("gives a class its instance count and its predicates with ranges and an example value", () => {
    const novel = cards.cards.find((c) => c.class === `${ONT}Novel`)!;
    expect(novel.count).toBe(14);
    const author = novel.predicates.find((p) => p.iri === `${ONT}author`)!;
    expect(author.ranges.map((r) => [r.kind, r.iri])).toContainEqual(["class", `${ONT}Writer`]);
    const pages = novel.predicates.find((p) => p.iri === `${ONT}numberOfPages`)!;
    expect(pages.ranges[0]).toMatchObject({ kind: "datatype", iri: "http://www.w3.org/2001/XMLSchema#integer" });
    expect(pages.example).toMatchObject({ type: "literal" });
  });

  it("puts the classes the examples use first, then the class the question names, and keeps to the token budget", () => {
    const all = selectCards(cards, "Which company published the books?", [], { budget: 100_000, topPredicates: 20 });
    const small = selectCards(cards, "Which company published the books?", [POOL[2].sparql], { budget: 400, topPredicates: 20 });
    expect(small.tokens).toBeLessThanOrEqual(400 + 50);
    expect(small.cards.length).toBeLessThan(all.cards.length);
    expect(small.omitted).toBeGreaterThan(0);
    expect(small.cards[0].class).toBe(`${ONT}Novel`);
    // "books" names the book series: it comes right after the example's class when the budget has room
    const roomy = selectCards(cards, "Which company published the books?", [POOL[2].sparql, POOL[0].sparql], { budget: 100_000, topPredicates: 20 });
    expect(roomy.cards.map((c) => c.class).slice(0, 2)).toEqual([`${ONT}Novel`, `${ONT}BookSeries`]);
    expect(small.text).toMatch(/^PREFIX ont: </m);
    expect(small.text).toMatch(/ont:publisher → /);
  });
});

describe("validation", () => {
  const env = (): ValidationEnv => ({
    cards,
    // what the prompt showed: an entity found for the question
    known: new Set(["http://example.org/chatty-kg/resource/Harry_Potter_and_the_Philosophers_Stone_film"]),
    typePredicates: sample.profile.typePredicates,
    labelPredicates: sample.profile.labelPredicates,
    ask: async (q) => sample.ask(q, { timeoutMs: 10_000 }),
  });
  const check = async (q: string) => (await validateQuery(parseReadOnly(`${P} ${q}`).ast as Sparql.SelectQuery, env())).problems;

  it("passes correct queries", async () => {
    expect(await check("SELECT ?d WHERE { res:Harry_Potter_and_the_Philosophers_Stone_film ont:director ?d }")).toEqual([]);
    expect(await check("SELECT ?b WHERE { ?b a ont:Novel ; ont:author ?w . ?w a ont:Writer }")).toEqual([]);
    expect(await check("SELECT (COUNT(?b) AS ?n) WHERE { ?b a ont:Novel OPTIONAL { ?b ont:nonsense ?x } }")).toEqual([expect.stringMatching(/ont:nonsense is not used/)]);
  });

  it("catches an unknown class, a typo in an IRI, a wrong direction and a wrong predicate", async () => {
    expect(await check("SELECT ?b WHERE { ?b a ont:Novell }")).toEqual([expect.stringMatching(/^Class ont:Novell does not exist in the KG\. Similar classes: ont:Novel/)]);
    expect(await check("SELECT ?d WHERE { res:Harry_Potter_and_the_Philosophers_Stone_flim ont:director ?d }")).toEqual([expect.stringMatching(/^res:Harry_Potter_and_the_Philosophers_Stone_flim does not occur in the KG\. Did you mean res:Harry_Potter_and_the_Philosophers_Stone_film\?$/)]);
    expect(await check("SELECT ?d WHERE { ?d ont:director res:Harry_Potter_and_the_Philosophers_Stone_film }")).toEqual([expect.stringMatching(/holds the other way round/)]);
    expect(await check("SELECT ?b WHERE { ?b a ont:Novel ; ont:director ?d }")).toEqual([expect.stringMatching(/^\?b is a ont:Novel, but no ont:Novel has ont:director\./)]);
  });

  it("refuses SELECT * and a label column beside its entity", async () => {
    expect(await check("SELECT * WHERE { ?b a ont:Novel }")).toEqual([expect.stringMatching(/SELECT \*/)]);
    expect(await check("SELECT ?b ?name WHERE { ?b a ont:Novel ; <http://www.w3.org/2000/01/rdf-schema#label> ?name }")).toEqual([expect.stringMatching(/\?name is the label of \?b/)]);
  });
});
