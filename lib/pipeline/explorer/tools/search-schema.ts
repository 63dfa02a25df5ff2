// search_schema: classes and properties of the data shape ranked by similarity of their labels, local names and
// descriptions to the words (embedding model, or the lexical fallback), with how they are used; and the rest of the
// KG's vocabulary through the KG lexicon (classes and properties the summary leaves out, found by name).
import { z } from "zod";
import { describeCorrection, type WordCorrection } from "@/lib/kg/lexicon";
import { localNameWords } from "@/lib/pipeline/common/labels";
import { STRONG_MATCH } from "@/lib/pipeline/common/lexicon";
import type { KgShape } from "../kg-shape";
import type { Render } from "../render";
import { iri, isSafeIri } from "@/lib/kg/escape";
import type { SchemaIndexHit } from "../entity-index";
import { META_NAMESPACES, RDF_TYPE } from "../shape-types";
import { selectRows, type ExplorerTool, type ToolEnv } from "../tool-env";

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
    const fromShape = schemaEntries(env.shape);
    // the KG lexicon knows the whole vocabulary (every class and property, by label and local name), while the summary
    // describes only the largest classes: terms it names are searched too, and a whole-name match comes first
    let named = await lexiconSchemaHits(env, query);
    // a misspelt term ("depatrment"): no name holds the words, so the vocabulary's words a small edit distance away are
    // searched, and the output says the match was approximate
    let words = query;
    let approximate = "";
    if (!named.some((h) => h.score >= STRONG_MATCH)) {
      const corrected = await correctedTerms(env, query);
      if (corrected && corrected.hits.some((h) => h.score >= STRONG_MATCH)) {
        ({ hits: named, text: words } = corrected);
        approximate = `(no name holds ${JSON.stringify(query)}: approximate match, ${corrected.corrections.map(describeCorrection).join(", ")} — check it is the term meant)`;
      }
    }
    const inShape = new Set(fromShape.map((e) => e.iri));
    const entries = [...fromShape, ...named.filter((h) => !inShape.has(h.iri)).map(lexiconEntry)].filter((e) => kind === "any" || e.kind === kind);
    if (entries.length === 0) return { text: "The KG has no classes or properties of that kind in its summary.", data: { query, hits: [] } };
    const whole = new Set(named.filter((h) => h.score >= 1).map((h) => h.iri));
    const scores = await env.ctx.similarity.scores(words, entries.map((e) => e.text));
    const ranked = entries
      .map((e, i) => ({ e, score: scores[i] ?? 0, whole: whole.has(e.iri) }))
      .sort((a, b) => Number(b.whole) - Number(a.whole) || b.score - a.score)
      .slice(0, SHOWN);
    const counts = await usageCounts(env, ranked.filter(({ e }) => !inShape.has(e.iri)).map(({ e }) => e));
    const lines = ranked.map(({ e }, i) => `${i + 1}. ${e.describe(render)}${counts.has(e.iri) ? counts.get(e.iri) : ""}`);
    return {
      text: [`Schema terms for "${query}" (best first: whole-name matches, then by ${env.ctx.similarity.kind} similarity):`, ...lines, ...(approximate ? [approximate] : [])].join("\n"),
      data: { query, kind, ...(approximate ? { approximateAs: words } : {}), hits: ranked.map(({ e, score, whole: w }) => ({ iri: e.iri, kind: e.kind, score: Math.round(score * 1000) / 1000, ...(w ? { wholeName: true } : {}) })) },
    };
  },
};

const LEXICON_HITS = 30;
/** usage counted up to this many triples per query (a count is a hint, not a fact the answer rests on) */
const COUNT_BOUND = 20_000;

async function lexiconSchemaHits(env: ToolEnv, query: string): Promise<SchemaIndexHit[]> {
  try {
    return (await env.entityIndex()).searchSchema(query, LEXICON_HITS).filter((h) => !META_NAMESPACES.some((ns) => h.iri.startsWith(ns)));
  } catch (e) {
    if (env.ctx.signal?.aborted) throw e;
    return []; // the summary's terms are still searched
  }
}

/** The query with misspelt words read as the vocabulary's (classes and properties), and what that finds; or undefined. */
async function correctedTerms(env: ToolEnv, query: string): Promise<{ text: string; corrections: WordCorrection[]; hits: SchemaIndexHit[] } | undefined> {
  try {
    const corrected = (await env.entityIndex()).correctWords(query, ["class", "property"]);
    return corrected && { ...corrected, hits: await lexiconSchemaHits(env, corrected.text) };
  } catch (e) {
    if (env.ctx.signal?.aborted) throw e;
    return undefined;
  }
}

/** A class or property the summary does not describe, shown by its lexicon name (its use is counted when shown). */
function lexiconEntry(h: SchemaIndexHit): SchemaEntry {
  const words = localNameWords(h.iri);
  return {
    iri: h.iri,
    kind: h.kind,
    text: [...new Set([h.display, h.label, words])].filter(Boolean).join(" — "),
    describe: (r) => `${h.kind} ${r.iri(h.iri)} ${JSON.stringify(h.display)} (not in the summary`,
  };
}

/** How many instances (classes) or triples (properties) each term has, as the closing part of its line. */
async function usageCounts(env: ToolEnv, entries: SchemaEntry[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const classes = entries.filter((e) => e.kind === "class" && isSafeIri(e.iri)).map((e) => e.iri);
  const props = entries.filter((e) => e.kind === "property" && isSafeIri(e.iri)).map((e) => e.iri);
  const types = env.ctx.kg.profile.typePredicates.length ? env.ctx.kg.profile.typePredicates : [RDF_TYPE];
  const count = async (values: string[], pattern: string, what: string) => {
    if (!values.length) return;
    const rows = await selectRows(
      env,
      `search_schema: ${what} of terms outside the summary`,
      `SELECT ?x (COUNT(*) AS ?n) WHERE { { SELECT ?x WHERE { VALUES ?x { ${values.map(iri).join(" ")} } ${pattern} } LIMIT ${COUNT_BOUND} } } GROUP BY ?x`,
    );
    const n = new Map(rows.map((b) => [b.x.value, Number(b.n.value)]));
    for (const v of values) {
      const k = n.get(v) ?? 0;
      out.set(v, `; ${k === 0 ? `no ${what}` : `${k}${k >= COUNT_BOUND ? "+" : ""} ${what}`})`);
    }
  };
  await count(classes, `?s ?tp ?x . FILTER(?tp IN (${types.map(iri).join(", ")}))`, "instances");
  await count(props, "?s ?x ?o", "triples");
  for (const e of entries) if (!out.has(e.iri)) out.set(e.iri, ")");
  return out;
}
