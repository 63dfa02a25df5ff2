// MCP from the onboarding profile: describe_schema and the overview/examples resources read the prepared KG's
// profile (classes, predicates with value types, names, id shapes, own schema, notes); a KG not prepared yet falls back
// to the schema summary; another session's KG is not found.
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/errors";
import { createEmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import type { GeneratedExample, KgNotes, KgOnboardingProfile } from "@/lib/kg/onboarding/types";
import type { McpContext } from "./context";
import { examplesText, profileText } from "./profile-text";
import { createChattyMcpServer } from "./server";

const AP = "http://example.org/apiaries/";
const XSD = "http://www.w3.org/2001/XMLSchema#";

const PROFILE: KgOnboardingProfile = {
  version: 1,
  kgKey: "up1",
  kgName: "Apiaries",
  builtAt: "2026-01-01T00:00:00.000Z",
  triples: 86,
  prefixes: { ap: AP, xsd: XSD, foaf: "http://xmlns.com/foaf/0.1/" },
  classes: [
    {
      iri: `${AP}Hive`,
      name: "hive",
      count: 8,
      countSampled: false,
      superClasses: [],
      subClasses: [`${AP}TopBarHive`],
      predicates: [
        {
          iri: `${AP}kept_by`,
          name: "kept by",
          coverage: 1,
          perSubject: 1,
          valueTypes: [{ kind: "class", iri: `${AP}Beekeeper`, count: 8 }],
          examples: [{ type: "uri", value: `${AP}orla_fenwick` }],
          exampleNames: { [`${AP}orla_fenwick`]: "orla fenwick" },
          role: "object",
        },
        {
          iri: `${AP}honey_yield_kg`,
          name: "honey yield kg",
          coverage: 0.75,
          perSubject: 1,
          valueTypes: [{ kind: "literal", iri: `${XSD}decimal`, count: 6 }],
          examples: [{ type: "literal", value: "31.5", datatype: `${XSD}decimal` }],
          exampleNames: {},
          role: "number",
        },
      ],
      incoming: [],
      samples: [{ iri: `${AP}hive_n01`, name: "hive n01" }],
      idShape: `${AP}{snake_case}`,
    },
  ],
  otherPredicates: [],
  namingPredicates: [],
  idShapes: [{ pattern: `${AP}{snake_case}`, namespace: AP, opaque: false, example: `${AP}hive_n01`, count: 15 }],
  schema: { subClassOf: [[`${AP}TopBarHive`, `${AP}Hive`]], subPropertyOf: [], domain: [[`${AP}kept_by`, `${AP}Hive`]], range: [], inverseOf: [], enumerations: [] },
  literalForms: { datatypes: [[`${XSD}decimal`, 6]], languages: [], dateForms: [], units: ["kg"] },
  skipped: [],
};
const NOTES: KgNotes = { kgKey: "up1", text: "Hives are named by their ids.", derived: "x", edited: true, updatedAt: "t" };
const EXAMPLE: GeneratedExample = {
  id: "e1",
  kgKey: "up1",
  question: "How many hives are there?",
  sparql: `SELECT (COUNT(?h) AS ?n) WHERE { ?h a <${AP}Hive> }`,
  shape: "class-count",
  template: "t",
  answerSize: 1,
  preview: ["8"],
  status: "generated",
  verbalizer: "template",
  createdAt: "t",
};

describe("profile text", () => {
  it("declares the prefixes it uses and names classes, predicates with value types and examples, ids, schema and notes", () => {
    const text = profileText(PROFILE, NOTES);
    expect(text.split("\n").slice(0, 2)).toEqual([`PREFIX ap: <${AP}>`, `PREFIX xsd: <${XSD}>`]);
    expect(text).not.toContain("PREFIX foaf");
    expect(text).toContain('- ap:Hive "hive": 8 instances; subclasses ap:TopBarHive');
    expect(text).toContain('    ap:kept_by "kept by" → ap:Beekeeper (100%); e.g. ap:orla_fenwick "orla fenwick"');
    expect(text).toContain('    ap:honey_yield_kg "honey yield kg" → xsd:decimal (75%); e.g. "31.5"^^xsd:decimal');
    expect(text).toMatch(/Names: no predicate holds names/);
    expect(text).toContain("ap:TopBarHive rdfs:subClassOf ap:Hive");
    expect(text).toContain("KG notes:\nHives are named by their ids.");
  });

  it("lists examples as question and SPARQL", () => {
    expect(examplesText([EXAMPLE], 3)).toBe(`3 solved examples generated from this KG's own shapes (each query was run and its answer checked); the first 1:\n\n# How many hives are there?  [class-count]\n${EXAMPLE.sparql}`);
  });
});

describe("MCP server with onboarding results", () => {
  async function connect(prepared: Set<string>) {
    const kg = await createEmbeddedKg({ id: "up1", name: "Apiaries", sources: [{ path: "test/fixtures/e2e/apiaries.ttl" }] });
    const registry = {
      list: async () => [{ id: "up1", name: "Apiaries", kind: "upload" as const, status: "ready" as const }],
      access: async (_s: string, id: string) => {
        if (id !== "up1") throw new AppError("not_found", `No KG "${id}" for this session.`);
        return { id, name: "Apiaries", kind: "upload" as const };
      },
      getKg: async (_s: string, id: string) => {
        if (id !== "up1") throw new AppError("not_found", `No KG "${id}" for this session.`);
        return kg;
      },
    };
    const onboarding = {
      getProfile: async (id: string) => (prepared.has(id) ? PROFILE : undefined),
      getNotes: async (id: string) => (prepared.has(id) ? NOTES : undefined),
      listExamples: async (id: string) => (prepared.has(id) ? { items: [EXAMPLE], total: 1 } : { items: [], total: 0 }),
    };
    const server = createChattyMcpServer({ registry, onboarding, sessionId: "s1" } as unknown as McpContext);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(b);
    return { client, close: async () => (await client.close(), await kg.close()) };
  }
  const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

  it("describes a prepared KG from its profile, and an unprepared one from the schema summary", async () => {
    const prepared = new Set(["up1"]);
    const { client, close } = await connect(prepared);
    try {
      const r = await client.callTool({ name: "describe_schema", arguments: { kg: "up1" } });
      expect(text(r)).toContain('- ap:Hive "hive": 8 instances');
      expect((r.structuredContent as { source: string }).source).toBe("profile");
      prepared.clear();
      const summary = await client.callTool({ name: "describe_schema", arguments: { kg: "up1" } });
      expect((summary.structuredContent as { source: string }).source).toBe("summary");
      expect(text(summary)).toMatch(/Classes/);
    } finally {
      await close();
    }
  });

  it("serves the overview and examples resources, and refuses another session's KG", async () => {
    const { client, close } = await connect(new Set(["up1"]));
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["chatty-kg://kg/up1/overview", "chatty-kg://kg/up1/examples"]));
      const overview = await client.readResource({ uri: "chatty-kg://kg/up1/overview" });
      expect((overview.contents[0] as { text: string }).text).toContain("KG notes:");
      const examples = await client.readResource({ uri: "chatty-kg://kg/up1/examples" });
      expect((examples.contents[0] as { text: string }).text).toContain("# How many hives are there?");
      await expect(client.readResource({ uri: "chatty-kg://kg/other/overview" })).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/No KG "other"/) });
    } finally {
      await close();
    }
  });
});
