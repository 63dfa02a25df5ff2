// describe_entity: an entity's triples in both directions, grouped by predicate with counts, a few values each (labelled),
// "+N more" per predicate, capped overall.
import { z } from "zod";
import { iri } from "@/lib/kg/escape";
import type { Term } from "@/lib/kg/types";
import type { Render } from "../render";
import { expandIri } from "../render";
import { labelsOf, plural, selectRows, type ExplorerTool, type ToolEnv } from "../tool-env";

export const DESCRIBE_ENTITY = "describe_entity";
const VALUES_PER_PREDICATE = 3;
const PREDICATES = 40;
const ROWS = 400;

const input = z.object({
  iri: z.string().min(1).describe("The entity's IRI exactly as a tool returned it (or a prefixed name)."),
  direction: z.enum(["out", "in", "both"]).optional().describe("out: its own properties; in: what points to it; both (default)."),
});

interface Group {
  predicate: string;
  count: number;
  values: Term[];
}

async function side(env: ToolEnv, subject: string, dir: "out" | "in"): Promise<Group[]> {
  const e = iri(subject);
  const counts = await selectRows(
    env,
    `describe_entity: ${dir} predicates`,
    dir === "out"
      ? `SELECT ?p (COUNT(*) AS ?n) WHERE { ${e} ?p ?v } GROUP BY ?p ORDER BY DESC(?n) LIMIT ${PREDICATES}`
      : `SELECT ?p (COUNT(*) AS ?n) WHERE { ?v ?p ${e} } GROUP BY ?p ORDER BY DESC(?n) LIMIT ${PREDICATES}`,
  );
  if (counts.length === 0) return [];
  const values = await selectRows(
    env,
    `describe_entity: ${dir} values`,
    dir === "out" ? `SELECT ?p ?v WHERE { ${e} ?p ?v } LIMIT ${ROWS}` : `SELECT ?p ?v WHERE { ?v ?p ${e} } LIMIT ${ROWS}`,
  );
  const groups = new Map<string, Group>(counts.map((b) => [b.p.value, { predicate: b.p.value, count: Number(b.n.value), values: [] }]));
  for (const b of values) {
    const g = groups.get(b.p.value);
    if (g && g.values.length < VALUES_PER_PREDICATE) g.values.push(b.v);
  }
  return [...groups.values()];
}

function lines(groups: Group[], arrow: string, render: Render, labels: Map<string, string>): string[] {
  return groups.map((g) => {
    const shown = g.values.map((v) => (v.type === "uri" ? render.labelled(v.value, labels.get(v.value)) : render.term(v)));
    const more = g.count > shown.length ? ` (+${g.count - shown.length} more: property_values)` : "";
    return `  ${arrow} ${render.iri(g.predicate)}: ${shown.join(" | ")}${more}`;
  });
}

export const describeEntity: ExplorerTool<z.infer<typeof input>> = {
  name: DESCRIBE_ENTITY,
  description:
    "Show an entity's properties and values (out) and the triples that point to it (in), grouped by property with counts and a few values each. Use it to see how a found entity is connected before writing a query.",
  input,
  async run({ iri: raw, direction = "both" }, env, render) {
    const subject = expandIri(raw, env.shape.prefixes);
    if (!subject) return { text: `"${raw}" is not an IRI: pass the IRI exactly as a search returned it.` };
    const out = direction === "in" ? [] : await side(env, subject, "out");
    const inc = direction === "out" ? [] : await side(env, subject, "in");
    if (out.length === 0 && inc.length === 0) {
      return { text: `No triples have ${render.name(subject)} as subject or object: this IRI is not in the KG. Use IRIs exactly as the tools return them.`, data: { iri: subject, out: [], in: [] } };
    }
    const iris = [...out, ...inc].flatMap((g) => g.values.filter((v) => v.type === "uri").map((v) => v.value));
    const labels = await labelsOf(env, [subject, ...iris], "describe_entity: labels");
    const counts = [
      direction === "in" ? "" : plural(out.reduce((a, g) => a + g.count, 0), "outgoing triple"),
      direction === "out" ? "" : plural(inc.reduce((a, g) => a + g.count, 0), "incoming triple"),
    ].filter(Boolean);
    const head = `${render.labelled(subject, labels.get(subject))}: ${counts.join(", ")}`;
    const cut = out.length >= PREDICATES || inc.length >= PREDICATES ? [`(only the ${PREDICATES} most used predicates per direction are listed)`] : [];
    return {
      text: [head, ...(out.length ? ["out (entity → value):", ...lines(out, "→", render, labels)] : []), ...(inc.length ? ["in (subject → entity):", ...lines(inc, "←", render, labels)] : []), ...cut].join("\n"),
      data: { iri: subject, out: out.map((g) => ({ predicate: g.predicate, count: g.count })), in: inc.map((g) => ({ predicate: g.predicate, count: g.count })) },
    };
  },
};
