// search_schema: classes and properties of the data shape ranked by similarity of their labels, local names and
// descriptions to the words (embedding model, or the lexical fallback), with how they are used.
import { z } from "zod";
import { localNameWords } from "@/lib/pipeline/common/labels";
import type { KgShape } from "../kg-shape";
import type { Render } from "../render";
import type { ExplorerTool } from "../tool-env";

export const SEARCH_SCHEMA = "search_schema";
const SHOWN = 10;

const input = z.object({
  query: z.string().min(1).max(200).describe('Words for a class or a relation/attribute, e.g. "department", "works for", "date of birth".'),
  kind: z.enum(["class", "property", "any"]).optional().describe("What to look for (default any)."),
});

interface SchemaEntry {
  iri: string;
  kind: "class" | "property";
  text: string;
  describe: (render: Render) => string;
}

/** Every class and property of the shape with the text it is searched by and how it is shown. */
export function schemaEntries(shape: KgShape): SchemaEntry[] {
  const usage = new Map<string, { from: Set<string>; to: Set<string> }>();
  for (const c of shape.classes) {
    for (const p of c.out) {
      const u = usage.get(p.predicate) ?? { from: new Set(), to: new Set() };
      u.from.add(c.iri);
      for (const t of p.targets) u.to.add(t.kind === "class" && t.iri ? t.iri : t.kind === "literal" ? `^^${t.iri ?? "literal"}` : t.kind);
      usage.set(p.predicate, u);
    }
  }
  const text = (value: string) => [shape.labels.get(value), localNameWords(value), shape.comments.get(value)].filter(Boolean).join(" — ");
  const label = (value: string) => (shape.labels.get(value) ? ` "${shape.labels.get(value)}"` : "");
  const comment = (value: string) => (shape.comments.get(value) ? ` — ${shape.comments.get(value)}` : "");
  const classes: SchemaEntry[] = [...shape.classes.map((c) => ({ iri: c.iri, count: c.count })), ...shape.abstractClasses.map((c) => ({ iri: c.iri, count: 0 }))].map((c) => ({
    iri: c.iri,
    kind: "class",
    text: text(c.iri),
    describe: (r) => `class ${r.iri(c.iri)}${label(c.iri)} (${c.count ? `${c.count} instances` : "no direct instances"})${comment(c.iri)}`,
  }));
  const predicates = [...new Set([...usage.keys(), ...shape.otherPredicates.map((o) => o.predicate)])].map(
    (p): SchemaEntry => ({
      iri: p,
      kind: "property",
      text: text(p),
      describe: (r) => {
        const u = usage.get(p);
        const shown = (v: string) => (/^(iri|bnode)$/.test(v) ? v : v.startsWith("^^") ? (v === "^^literal" ? "literal" : r.name(v.slice(2))) : r.iri(v));
        const where = u ? ` — from ${[...u.from].slice(0, 3).map((v) => r.iri(v)).join(", ")} to ${[...u.to].slice(0, 3).map(shown).join(", ")}` : "";
        const count = shape.otherPredicates.find((o) => o.predicate === p)?.count;
        return `property ${r.iri(p)}${label(p)}${where}${count !== undefined ? ` (${count} triples)` : ""}${comment(p)}`;
      },
    }),
  );
  return [...classes, ...predicates];
}

export const searchSchema: ExplorerTool<z.infer<typeof input>> = {
  name: SEARCH_SCHEMA,
  description: "Find classes and properties of the KG whose label, name or description is close to the words; shows how each property is used (from which class to which class or value type).",
  input,
  async run({ query, kind = "any" }, env, render) {
    const entries = schemaEntries(env.shape).filter((e) => kind === "any" || e.kind === kind);
    if (entries.length === 0) return { text: "The KG has no classes or properties of that kind in its summary.", data: { query, hits: [] } };
    const scores = await env.ctx.similarity.scores(query, entries.map((e) => e.text));
    const ranked = entries.map((e, i) => ({ e, score: scores[i] ?? 0 })).sort((a, b) => b.score - a.score).slice(0, SHOWN);
    const lines = ranked.map(({ e }, i) => `${i + 1}. ${e.describe(render)}`);
    return {
      text: [`Schema terms for "${query}" (best first, by ${env.ctx.similarity.kind} similarity):`, ...lines].join("\n"),
      data: { query, kind, hits: ranked.map(({ e, score }) => ({ iri: e.iri, kind: e.kind, score: Math.round(score * 1000) / 1000 })) },
    };
  },
};
