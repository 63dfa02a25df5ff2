// property_values: all values of one property of one entity (or, direction "in", the subjects pointing to it), labelled,
// with the total count; capped.
import { z } from "zod";
import { iri } from "@/lib/kg/escape";
import { expandIri } from "../render";
import { labelsOf, selectRows, type ExplorerTool } from "../tool-env";

export const PROPERTY_VALUES = "property_values";
const SHOWN = 30;

const input = z.object({
  iri: z.string().min(1).describe("The entity's IRI as a tool returned it."),
  property: z.string().min(1).describe("The property's IRI or prefixed name."),
  direction: z.enum(["out", "in"]).optional().describe("out (default): the entity's values; in: the subjects whose property points to the entity."),
});

export const propertyValues: ExplorerTool<z.infer<typeof input>> = {
  name: PROPERTY_VALUES,
  description: "List the values of one property of an entity (direction out), or the subjects that point to the entity with it (direction in), with the total count.",
  input,
  async run({ iri: rawEntity, property, direction = "out" }, env, render) {
    const e = expandIri(rawEntity, env.shape.prefixes);
    const p = expandIri(property, env.shape.prefixes);
    if (!e || !p) return { text: `${!e ? `"${rawEntity}"` : `"${property}"`} is not an IRI or a known prefixed name.` };
    const pattern = direction === "out" ? `${iri(e)} ${iri(p)} ?v` : `?v ${iri(p)} ${iri(e)}`;
    const total = Number((await selectRows(env, "property_values: count", `SELECT (COUNT(*) AS ?n) WHERE { ${pattern} }`))[0]?.n?.value ?? 0);
    const rows = await selectRows(env, "property_values", `SELECT ?v WHERE { ${pattern} } LIMIT ${SHOWN}`);
    const values = rows.map((b) => b.v);
    const labels = await labelsOf(env, values.filter((v) => v.type === "uri").map((v) => v.value), "property_values: labels");
    // the entity and property come from the model: they count as returned only when triples confirm them
    const show = (v: string) => (total > 0 ? render.iri(v) : render.name(v));
    const head = direction === "out" ? `${show(e)} ${show(p)} → ${total} value(s)` : `${total} subject(s) → ${show(p)} → ${show(e)}`;
    if (total === 0) return { text: `${head}. (Check the direction, or describe_entity to see which properties it has.)`, data: { iri: e, property: p, direction, total } };
    const shown = values.map((v, i) => `${i + 1}. ${v.type === "uri" ? render.labelled(v.value, labels.get(v.value)) : render.term(v)}`);
    return {
      text: [`${head}${total > values.length ? ` (first ${values.length} shown)` : ""}:`, ...shown].join("\n"),
      data: { iri: e, property: p, direction, total, values: values.map((v) => v.value) },
    };
  },
};
