// What every explorer tool gets: the agent context, the KG's data shape and entity index, the turn's known-IRI set,
// and the values earlier queries returned; and the shape of a tool (zod input, a run that returns text for the model).
import type { z } from "zod";
import type { Bindings } from "@/lib/kg/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabelsWith } from "@/lib/pipeline/common/labels";
import type { Stage } from "@/lib/pipeline/types";
import type { EntityIndex } from "./entity-index";
import type { KgShape } from "./kg-shape";
import type { KnownIris } from "./known-iris";
import type { Render } from "./render";

/** The stage the tools' own queries are reported under. */
export const EXPLORE_STAGE: Stage = "explore";

export interface ToolEnv {
  ctx: AgentContext;
  shape: KgShape;
  entityIndex(): Promise<EntityIndex>;
  known: KnownIris;
  /** IRIs and literal values that execute_sparql results returned in this turn */
  seenInResults: Set<string>;
  /** the question as the explorer reads it and as the user wrote it */
  asked: readonly string[];
  /** IRIs a search for a name the question writes returned (question-constants.ts) */
  questionConstants: Set<string>;
  /** prefixes the model has been told (the summary's, then those a tool output introduced) */
  declaredPrefixes: Set<string>;
}

export interface ToolResult {
  /** what the model reads (compact, capped, says when something was cut) */
  text: string;
  /** structured output for the derivation */
  data?: unknown;
}

export interface ExplorerTool<I = unknown> {
  name: string;
  description: string;
  input: z.ZodType<I>;
  run(input: I, env: ToolEnv, render: Render): Promise<ToolResult>;
}

/** A SELECT through the agent context (shown in the derivation under the explore stage). */
export async function selectRows(env: ToolEnv, purpose: string, query: string): Promise<Bindings[]> {
  const r = await env.ctx.sparql(EXPLORE_STAGE, purpose, query);
  return r.kind === "SELECT" ? r.results.bindings : [];
}

/**
 * Labels for IRIs a tool shows, from the label-like predicates of the data shape (the profile's label predicates and
 * name-like ones such as an untagged `ex:fullName`), one batched query.
 */
export async function labelsOf(env: ToolEnv, iris: string[], purpose: string): Promise<Map<string, string>> {
  if (iris.length === 0) return new Map();
  const labels = await fetchLabelsWith(
    async (query) => selectRows(env, purpose, query),
    iris,
    { labelPredicates: env.shape.labelLike, language: env.ctx.kg.profile.language },
    { signal: env.ctx.signal },
  );
  // the rest get the KG lexicon's name literal (a name predicate the summary did not list, an id), if any
  const missing = iris.filter((i) => !labels.has(i));
  if (missing.length === 0) return labels;
  let index: EntityIndex | undefined;
  try {
    index = await env.entityIndex();
  } catch (e) {
    if (env.ctx.signal?.aborted) throw e;
    return labels;
  }
  for (const i of missing) {
    const name = index.nameOf(i);
    if (name) labels.set(i, name);
  }
  return labels;
}

/** "n things" with the right plural. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
