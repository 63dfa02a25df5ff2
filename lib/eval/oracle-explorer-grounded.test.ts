// The question-grounded explorer oracle on a label-less KG (test/fixtures/kg/explorer/orchard.ttl): it names things by
// the KG's own name predicate and ids, writes a decimal the question gives, and among same-named options the tool
// output cannot tell apart it takes the first listed, not the gold's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createExplorerOracle, createGroundedExplorerOracleLlm } from "./oracle-explorer";
import { createOracleLog } from "./oracle-grounding";
import { firstLookAlikes } from "./oracle-look-alikes";
import { itemValues as values, runExplorerOracle } from "./testing/run-explorer-oracle";

const P = "PREFIX ob: <http://example.org/orchard/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
const uuid = (n: string) => `urn:uuid:${n}`;
const TREE = (i: number) => uuid(`a1000000-0000-4000-8000-00000000000${i}`);
let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/explorer/orchard.ttl"], profile: { prefixes: { ob: "http://example.org/orchard/" } } });
}, 60_000);
afterAll(async () => kg?.close());

const runOracle = (question: string, gold: string) => runExplorerOracle(createGroundedExplorerOracleLlm, kg, question, gold);

describe("question-grounded explorer oracle on a label-less KG", () => {
  it("searches a thing by the question's words for its name in a custom predicate and keeps it", async () => {
    const { result, tools, log } = await runOracle("In which orchard does Crooked Bramley grow?", `${P}SELECT ?o WHERE { <${TREE(3)}> ob:Tree.orchard ?o }`);
    expect(tools[0]).toMatchObject({ tool: "search_entities", input: { query: "Crooked Bramley" } });
    expect(log.dropped).toEqual([]);
    expect(values(result)).toEqual([uuid("c3000000-0000-4000-8000-000000000002")]);
  });

  it("finds a thing the question names by the first part of its id, and keeps a decimal the question writes", async () => {
    const hive = await runOracle("Which orchard is hive 77aa9c01 in?", `${P}SELECT ?o WHERE { <${uuid("77aa9c01-0000-4000-8000-00000000000b")}> ob:BeeHive.orchard ?o }`);
    expect(hive.tools[0]).toMatchObject({ tool: "search_entities", input: { query: "77aa9c01" } });
    expect(values(hive.result)).toEqual([uuid("c3000000-0000-4000-8000-000000000001")]);
    const tall = await runOracle("Which trees are 6.125 m tall?", `${P}SELECT ?t WHERE { ?t ob:Tree.heightM "6.125"^^xsd:float }`);
    expect(tall.log.dropped).toEqual([]);
    expect(values(tall.result)).toEqual([TREE(3)]);
  });

  it("takes the first listed of two same-named trees whichever the gold means, and says so", async () => {
    const ask = (i: number) => runOracle("In which orchard does the tree Old Pippin grow?", `${P}SELECT ?o WHERE { <${TREE(i)}> ob:Tree.orchard ?o }`);
    const [one, two] = [await ask(1), await ask(2)];
    // both runs finish with the same tree: the one the search listed first
    expect(values(one.result)).toEqual(values(two.result));
    const refusals = [...one.log.refused, ...two.log.refused];
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(/2 options of its types bear its name or the searched one; the first listed, <urn:uuid:a1000000-0000-4000-8000-00000000000[12]>, was taken/);
  });
});

describe("look-alike options", () => {
  const out = ['Entities for "x":', '1. <urn:a> "X" — a ex:T', '2. <urn:c> "X" — a ex:U', '3. <urn:b> "X" (matched "b-1" via ex:code) — a ex:T'].join("\n");
  const expand = (w: string) => /^<(.*)>$/.exec(w)?.[1];
  it("maps a gold option listed after one with the same name and types to the first; another type is no look-alike", () => {
    expect(firstLookAlikes(["urn:b", "urn:c", "urn:a"], [out], expand)).toEqual(new Map([["urn:b", { first: "urn:a", alike: 2 }]]));
  });
  it("prefers an earlier option of the gold's types named exactly what was searched when the gold's name differs", () => {
    const fuzzy = ['Entities for "Elm Row":', '1. <urn:e> "Elm Row" — a ex:T', '2. <urn:g> "Elm Row East" — a ex:T', '3. <urn:h> "Elm Row West" — a ex:U'].join("\n");
    expect(firstLookAlikes(["urn:g", "urn:h", "urn:e"], [fuzzy], expand)).toEqual(new Map([["urn:g", { first: "urn:e", alike: 2 }]]));
  });

  it("keeps the gold when some search listed it first among its look-alikes", () => {
    const other = ['Entities for "b-1":', '1. <urn:b> "X" — a ex:T', '2. <urn:a> "X" — a ex:T'].join("\n");
    expect(firstLookAlikes(["urn:b"], [out, other], expand).size).toBe(0);
  });
});

describe("exploring what the searches did not show", () => {
  const gold = "PREFIX ex: <http://ex.org/> SELECT ?h WHERE { ?h ex:keptIn ex:orchard1 . ex:orchard1 ex:ownedBy ex:farm9 }";
  const facts = { labels: new Map(), types: new Map(), prefixes: {} };
  const sys = { role: "system" as const, text: "PREFIX ex: <http://ex.org/>\nclass ex:Hive" };
  const user = { role: "user" as const, text: "Question: Which hives are kept in Hillside Acre, owned by Greenfarm?" };
  const found = { role: "tool" as const, text: 'Entities for "Hillside Acre":\n1. ex:orchard1 "Hillside Acre" — a ex:Orchard' };
  const farm = { role: "tool" as const, text: 'Entities for "Greenfarm":\n1. ex:farm1 "Greenfield" — a ex:Farm' };
  const oracle = () =>
    createExplorerOracle(gold, facts, { question: { text: user.text.slice(10), language: "en" }, log: createOracleLog("question-grounded"), kgNames: new Map([["http://ex.org/orchard1", ["Hillside Acre"]], ["http://ex.org/farm9", ["Greenfarm"]]]) });

  it("describes a found thing when a property of the gold was not surfaced, and takes only properties from it", () => {
    type Msg = { role: "system" | "user" | "tool" | "assistant"; text: string };
    const played = oracle();
    const next = (messages: Msg[]) => played({ role: "explorer", messages, tools: [], model: "oracle" });
    const messages: Msg[] = [sys, user, { role: "tool", text: "Plan noted." }, found, farm];
    // every schema search finds only unrelated properties
    let call = next(messages) as { toolCall: { name: string; input: Record<string, string> } };
    for (let i = 0; i < 10 && /^search_(schema|values)$/.test(call.toolCall.name); i++) {
      const q = call.toolCall.input.query;
      messages.push({ role: "tool", text: call.toolCall.name === "search_schema" ? `Schema terms for "${q}":\n1. property ex:other${i}` : `No literal value matches "${q}".` });
      call = next(messages) as typeof call;
    }
    expect(call).toEqual({ toolCall: { name: "describe_entity", input: { iri: "<http://ex.org/orchard1>" } } });
    const searched = [...messages];
    // the description shows both properties and the farm: the properties are taken, the farm (not found by a search) is not
    const described = { role: "tool" as const, text: 'ex:orchard1 "Hillside Acre": 1 outgoing triple, 1 incoming triple\nout (entity → value):\n  → ex:ownedBy: ex:farm9 "Greenfarm"\nin (subject → entity):\n  ← ex:keptIn: ex:h1' };
    const after = next([...searched, described]);
    expect(after).toMatchObject({ toolCall: { name: "execute_sparql" } });
    const sparql = (after as { toolCall: { input: { sparql: string } } }).toolCall.input.sparql;
    expect(sparql).toMatch(/\?h ex:keptIn ex:orchard1/);
    expect(sparql).toMatch(/ex:orchard1 ex:ownedBy \?\w+/);
  });
});
