// The MCP tools that read a KG without an LLM: list the KGs, run a read-only query, search labels, summarise the
// schema, describe one entity. Each works on the KGs the caller's session may use (the sample and its own).
import { defaultStrategiesFor } from "@/lib/server/default-strategy";
import { getEvalRunStore } from "@/lib/server/eval-runs";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { iri } from "@/lib/kg/escape";
import type { KnowledgeGraph, QueryResult, Term } from "@/lib/kg/types";
import { describeEntity } from "@/lib/server/entity";
import { searchEntities } from "@/lib/server/entity-search";
import { runConsoleQuery, serviceAllowed } from "@/lib/server/sparql-console";
import type { McpContext } from "./context";
import { DESCRIBE_ENTITY_OUTPUT, DESCRIBE_SCHEMA_OUTPUT, LIST_KGS_OUTPUT, RUN_SPARQL_OUTPUT, SEARCH_ENTITIES_OUTPUT } from "./output-schemas";
import { guarded, toolResult } from "./results";
import { profileText } from "./profile-text";
import { schemaSummary } from "./schema";

/** Rows run_sparql returns: enough to check a query, small enough for an agent's context. */
export const MCP_ROW_CAP = 100;
export const MCP_QUERY_TIMEOUT_MS = 20_000;

const kgArg = z.string().min(1).max(200).describe('A KG id from list_kgs ("sample" is the installation\'s default KG).');

function cell(t: Term | undefined, labels: Record<string, string>): string {
  if (!t) return "";
  if (t.type === "uri") return labels[t.value] ? `<${t.value}> (${labels[t.value]})` : `<${t.value}>`;
  if (t.type === "bnode") return `_:${t.value}`;
  return t["xml:lang"] ? `"${t.value}"@${t["xml:lang"]}` : t.datatype && !t.datatype.endsWith("#string") ? `"${t.value}"^^<${t.datatype}>` : `"${t.value}"`;
}

/** A result as a small text table (SELECT), a boolean (ASK) or triples (CONSTRUCT/DESCRIBE). */
export function resultText(result: QueryResult, labels: Record<string, string>): string {
  if (result.kind === "ASK") return `ASK → ${result.boolean}`;
  if (result.kind !== "SELECT") return result.triples.map((t) => `${cell(t.subject, labels)} ${cell(t.predicate, labels)} ${cell(t.object, labels)} .`).join("\n");
  const vars = result.head.vars;
  const rows = result.results.bindings.map((b) => vars.map((v) => cell(b[v], labels)).join(" | "));
  return [vars.map((v) => `?${v}`).join(" | "), ...rows].join("\n");
}

/** Keeps search hits whose class is `cls`: an IRI (checked in the KG) or a class label (matched without case). */
async function ofClass(kg: KnowledgeGraph, hits: { iri: string; types: string[] }[], cls: string, signal?: AbortSignal): Promise<Set<string>> {
  if (!/^https?:\/\//i.test(cls)) return new Set(hits.filter((h) => h.types.some((t) => t.toLowerCase() === cls.trim().toLowerCase())).map((h) => h.iri));
  if (hits.length === 0 || kg.profile.typePredicates.length === 0) return new Set();
  const r = await kg.select(
    `SELECT DISTINCT ?s WHERE { VALUES ?s { ${hits.map((h) => iri(h.iri)).join(" ")} } VALUES ?t { ${kg.profile.typePredicates.map(iri).join(" ")} } ?s ?t ${iri(cls)} }`,
    { signal, timeoutMs: MCP_QUERY_TIMEOUT_MS },
  );
  return new Set(r.results.bindings.map((b) => b.s?.value).filter((v): v is string => Boolean(v)));
}

export function registerKgTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "list_kgs",
    {
      title: "List knowledge graphs",
      description: "List the knowledge graphs you can ask: their ids (pass one as `kg` to the other tools), names, kinds (sample, upload, endpoint), sizes, and the strategy ask_kg uses on each by default, with why.",
      outputSchema: LIST_KGS_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        // each with the strategy ask_kg uses on it by default, and why (lib/server/default-strategy.ts)
        const kgs = defaultStrategiesFor(await ctx.registry.list(ctx.sessionId), ctx.registry.defaultKgId, getEvalRunStore());
        const text = kgs.map((k) => `- ${k.id}: ${k.name} (${k.kind}${k.triples !== undefined ? `, ${k.triples} triples` : ""}${k.status === "error" ? `, failed to load: ${k.error}` : ""}; default strategy ${k.defaultStrategy.strategy}, because ${k.defaultStrategy.reason})`).join("\n");
        return toolResult(text || "No knowledge graphs.", { kgs });
      }),
  );

  server.registerTool(
    "run_sparql",
    {
      title: "Run a SPARQL query",
      description:
        `Run one read-only SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE) on a KG and get its rows. Updates are refused (error code sparql_forbidden); ` +
        `at most ${MCP_ROW_CAP} rows come back (the result says when it was cut), and a query is stopped after ${MCP_QUERY_TIMEOUT_MS / 1000} s. ` +
        "Well-known prefixes (rdf, rdfs, xsd, owl, skos, foaf, schema, …) may be used without declaring them.",
      inputSchema: { kg: kgArg, query: z.string().min(1).max(20_000).describe("The SPARQL query text.") },
      outputSchema: RUN_SPARQL_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    ({ kg, query }, extra) =>
      guarded(async () => {
        const store = await ctx.registry.getKg(ctx.sessionId, kg);
        const r = await runConsoleQuery(store, query, { rowCap: MCP_ROW_CAP, timeoutMs: MCP_QUERY_TIMEOUT_MS, allowService: serviceAllowed(), signal: extra.signal });
        const rows = r.result.kind === "SELECT" ? r.result.results.bindings.length : undefined;
        const head = `${rows !== undefined ? `${rows} row${rows === 1 ? "" : "s"}` : r.result.kind}${r.truncated ? ` (cut at ${r.rowCap}: there are more)` : ""}, ${Math.round(r.ms)} ms`;
        return toolResult(`${head}\n${resultText(r.result, r.labels)}`, { result: r.result, truncated: r.truncated, rowCap: r.rowCap, labels: r.labels, ...(r.declared ? { query: r.declared.query } : {}) });
      }),
  );

  server.registerTool(
    "search_entities",
    {
      title: "Find entities by name",
      description:
        "Find the IRIs of entities whose label matches a name (best first), with their classes and a short description to tell same-named ones apart. " +
        "Use it before writing a query: never guess an IRI.",
      inputSchema: {
        kg: kgArg,
        text: z.string().trim().min(1).max(300).describe("The name to look for, as a person would write it."),
        class: z.string().trim().min(1).max(500).optional().describe("Only entities of this class: its IRI, or its label as search results show it."),
      },
      outputSchema: SEARCH_ENTITIES_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    ({ kg, text, class: cls }, extra) =>
      guarded(async () => {
        const store = await ctx.registry.getKg(ctx.sessionId, kg);
        let { hits } = await searchEntities(store, text, { signal: extra.signal, timeoutMs: MCP_QUERY_TIMEOUT_MS });
        if (cls) {
          const keep = await ofClass(store, hits, cls, extra.signal);
          hits = hits.filter((h) => keep.has(h.iri));
        }
        const lines = hits.map((h) => `- <${h.iri}> "${h.label}"${h.types.length ? ` (${h.types.join(", ")})` : ""}${h.description ? `: ${h.description}` : ""}`);
        return toolResult(lines.length ? lines.join("\n") : `No entity named like "${text}"${cls ? ` of class ${cls}` : ""}.`, { hits });
      }),
  );

  server.registerTool(
    "describe_schema",
    {
      title: "Describe a KG's schema",
      description:
        "What the KG holds: its classes with instance counts, their predicates with value types, how many instances have them and example values, " +
        "where names are (or that IRIs' local names are the names), id shapes, the KG's own schema (sub-classes, domains, ranges) and the KG notes, " +
        "with the prefixes used. Read it before writing SPARQL. Until the KG is prepared it is a shorter summary of frequent classes and predicates.",
      inputSchema: { kg: kgArg },
      outputSchema: DESCRIBE_SCHEMA_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    ({ kg }, extra) =>
      guarded(async () => {
        const store = await ctx.registry.getKg(ctx.sessionId, kg);
        // the onboarding profile once the KG is prepared (access was checked by getKg), else the summary built now
        const profile = await ctx.onboarding?.getProfile(kg);
        if (profile) {
          const notes = await ctx.onboarding?.getNotes(kg);
          return toolResult(profileText(profile, notes), { source: "profile", profile, notes: notes ?? null });
        }
        const schema = await schemaSummary(store, extra.signal);
        return toolResult(schema.text, { source: "summary", classes: schema.classes, predicates: schema.predicates, prefixes: schema.prefixes, sampled: schema.sampled });
      }),
  );

  server.registerTool(
    "describe_entity",
    {
      title: "Describe an entity",
      description: "An entity's label, classes, description and up to 50 outgoing and 50 incoming edges (predicates and neighbours, labelled).",
      inputSchema: { kg: kgArg, iri: z.string().trim().min(1).max(2000).describe("The entity's full IRI (from search_entities or a query result).") },
      outputSchema: DESCRIBE_ENTITY_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    ({ kg, iri: entity }) =>
      guarded(async () => {
        if (!/^[a-z][a-z0-9+.-]*:/i.test(entity)) throw new AppError("bad_request", `Not an absolute IRI: ${JSON.stringify(entity.slice(0, 200))}.`);
        const e = await describeEntity(await ctx.registry.getKg(ctx.sessionId, kg), entity, { timeoutMs: MCP_QUERY_TIMEOUT_MS });
        const edge = (p: { label: string; iri: string }, o: Term & { label?: string }) => `${p.label} <${p.iri}> → ${o.type === "uri" ? `<${o.value}>${o.label ? ` (${o.label})` : ""}` : JSON.stringify(o.value)}`;
        const text = [
          `${e.label} <${e.iri}>`,
          e.types.length ? `classes: ${e.types.map((t) => `${t.label} <${t.iri}>`).join(", ")}` : "classes: none stated",
          ...(e.description ? [`description: ${e.description}`] : []),
          "outgoing:",
          ...e.outgoing.map((x) => `  ${edge(x.predicate, x.object)}`),
          "incoming:",
          ...e.incoming.map((x) => `  ${edge(x.predicate, x.object)}`),
          ...(e.capped ? ["(edges capped at 50 each way)"] : []),
        ].join("\n");
        return toolResult(text, { entity: e });
      }),
  );
}
