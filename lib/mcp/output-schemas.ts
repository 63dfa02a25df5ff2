// The outputSchema of every MCP tool: what its structuredContent holds when the call succeeds (MCP 2025-11-25: a tool
// that returns structured content declares its shape; clients check results against it). Objects pass extra fields
// through, so a field added later does not break a client that checked the old shape. A failed call (isError) carries
// no structured content: its text is `error [<code>]: <message>`.
import { z } from "zod";

export const LIST_KGS_OUTPUT = {
  kgs: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() }).passthrough()).describe("The KGs the caller may use."),
};

export const RUN_SPARQL_OUTPUT = {
  result: z
    .object({ kind: z.enum(["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]) })
    .passthrough()
    .describe("SELECT: head.vars and results.bindings (SPARQL JSON terms); ASK: boolean; CONSTRUCT/DESCRIBE: triples."),
  truncated: z.boolean().describe("True when there were more rows than rowCap."),
  rowCap: z.number().int(),
  labels: z.record(z.string(), z.string()).describe("Labels of IRIs in the result, by IRI."),
  query: z.string().optional().describe("The query as it ran, when well-known prefixes were declared for it."),
};

export const SEARCH_ENTITIES_OUTPUT = {
  hits: z.array(z.object({ iri: z.string(), label: z.string(), types: z.array(z.string()) }).passthrough()).describe("Best first."),
};

const anyObject = z.object({}).passthrough();

export const DESCRIBE_SCHEMA_OUTPUT = {
  source: z.enum(["profile", "summary"]).describe("profile: the prepared KG's profile; summary: frequent classes and predicates, built now."),
  profile: anyObject.optional().describe("source profile: the KG's onboarding profile."),
  notes: anyObject.nullable().optional().describe("source profile: the KG notes, or null."),
  classes: z.array(anyObject).optional().describe("source summary: classes with labels and counts."),
  predicates: z.array(anyObject).optional().describe("source summary: predicates with labels, counts and examples."),
  prefixes: z.record(z.string(), z.string()).optional(),
  sampled: z.boolean().optional().describe("source summary: true when the counts come from a sample of the graph."),
};

export const DESCRIBE_ENTITY_OUTPUT = {
  entity: z
    .object({ iri: z.string(), label: z.string(), types: z.array(z.unknown()), outgoing: z.array(z.unknown()), incoming: z.array(z.unknown()) })
    .passthrough(),
};

export const ASK_KG_OUTPUT = {
  answer: z.object({ kind: z.string() }).passthrough().nullable().describe("The answer: items, a count, yes/no, a table, or none."),
  source: z.string().describe("Where the answer came from (kg, none, llm, …)."),
  sparql: z.array(z.string()).describe("The queries the answer came from."),
  standaloneQuestion: z.string().nullable(),
  turnId: z.string(),
  derivation: z.string().describe("The derivation's MCP resource URI."),
  page: z.string().describe("The conversation in the app (for the same session)."),
};
