// The KG's own schema as the strategies use it: read once per KG object (its queries show in the derivation of the
// turn that read it) and cached while the KG lives.
import { readKgSchema, type KgSchema } from "@/lib/kg/schema";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "./agent-context";
import { cachedPerKg, type PerKgCache } from "./per-kg-cache";

const cache: PerKgCache<KgSchema> = new WeakMap();

/** The KG's schema facts, read on first use under `stage` (a failed or cancelled read is not kept). */
export async function getKgSchema(ctx: Pick<AgentContext, "kg" | "sparql" | "signal" | "emit">, stage: Stage): Promise<KgSchema> {
  const { value, cached } = await cachedPerKg(cache, ctx.kg, ctx.signal, () =>
    readKgSchema(async (purpose, query) => {
      const r = await ctx.sparql(stage, purpose, query, { perKgBuild: true });
      return r.kind === "SELECT" ? r.results.bindings : [];
    }, ctx.kg.profile),
  );
  if (!cached) {
    const f = value.facts;
    ctx.emit({
      type: "tool-call",
      stage,
      tool: "kg-schema",
      input: { kg: ctx.kg.info.id },
      output: { subClassOf: f.subClassOf.length, subPropertyOf: f.subPropertyOf.length, inverseOf: f.inverseOf.length, domain: f.domain.length, range: f.range.length, enumerations: f.enumerations.length, truncated: f.truncated },
    });
  }
  return value;
}
