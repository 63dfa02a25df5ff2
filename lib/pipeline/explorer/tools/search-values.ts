// search_values: literal values (names, codes, numbers, dates) that contain the words, with the predicate holding them,
// how many subjects have each value and one example subject; optionally restricted to one property.
import { z } from "zod";
import { iri, literal } from "@/lib/kg/escape";
import type { Term } from "@/lib/kg/types";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { expandIri } from "../render";
import { plural, selectRows, type ExplorerTool } from "../tool-env";

export const SEARCH_VALUES = "search_values";
const SHOWN = 10;
/** matching triples read per search */
const ROWS = 2000;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

const input = z.object({
  query: z.string().min(1).max(200).describe('A value or words of it: a name, code, city, number or date ("Berlin", "EUR", "42", "2021-05").'),
  property: z.string().optional().describe("Only values of this property (an IRI or prefixed name)."),
});

/** The FILTER that finds the value: numeric equality (or the same text) for a number, else every word contained. */
export function valueFilter(query: string): string {
  const q = query.trim();
  if (NUMBER.test(q)) return `((isNumeric(?o) && ?o = ${Number(q)}) || STR(?o) = ${literal(q)})`;
  const words = [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 6);
  return words.map((w) => `CONTAINS(LCASE(STR(?o)), ${literal(w)})`).join(" && ");
}

/** The typed value as plain and language-tagged literals (and as a number when it is one). */
function exactForms(query: string, language: string): string[] {
  const q = query.trim();
  const forms = [literal(q), literal(q, { lang: language })];
  if (NUMBER.test(q)) forms.push(String(Number(q)));
  return forms;
}

/** exact (ignoring case and accents) > starts with > contains the whole text > contains the words; then more subjects. */
function rank(value: string, query: string): number {
  const v = normalizeLabel(value);
  const q = normalizeLabel(query);
  if (v === q) return 3;
  if (v.startsWith(q)) return 2;
  if (v.includes(q)) return 1;
  return 0;
}

export const searchValues: ExplorerTool<z.infer<typeof input>> = {
  name: SEARCH_VALUES,
  description:
    "Find literal values (strings, numbers, dates) stored in the KG that contain the words or equal the number, with the property that holds each value, how many subjects have it and an example subject. Use it for constants of the question that are not things with an IRI (a country name stored as text, a currency code, a year).",
  input,
  async run({ query, property }, env, render) {
    const p = property ? expandIri(property, env.shape.prefixes) : undefined;
    const notes = property && !p ? [`(property "${property}" is not an IRI or known prefixed name: ignored)`] : [];
    // no GROUP BY: a frequent word stops the scan at the row bound instead of reading every literal of a large KG
    const head = p ? "?o ?s" : "?p ?o ?s";
    const pattern = `?s ${p ? iri(p) : "?p"} ?o`;
    // the value as typed (plain, or in the profile's language) is an index lookup, so it is found even when the scan is cut
    const exact = await selectRows(env, "search_values: exact", `SELECT ${head} WHERE { VALUES ?o { ${exactForms(query, env.ctx.kg.profile.language).join(" ")} } ${pattern} } LIMIT ${ROWS}`);
    const scanned = await selectRows(env, "search_values", `SELECT ${head} WHERE { ${pattern} . FILTER(isLiteral(?o) && ${valueFilter(query)}) } LIMIT ${ROWS}`);
    const cut = scanned.length >= ROWS;
    const byValue = new Map<string, { predicate: string; value: Term; count: number; example: Term }>();
    const counted = new Set<string>();
    for (const b of [...exact, ...scanned]) {
      const predicate = p ?? b.p?.value ?? "";
      const o = b.o as { value: string; "xml:lang"?: string; datatype?: string };
      const key = `${predicate}\u0000${o.value}\u0000${o["xml:lang"] ?? ""}\u0000${o.datatype ?? ""}`;
      // a triple found by both queries counts once
      const triple = `${key}\u0000${b.s.value}`;
      if (counted.has(triple)) continue;
      counted.add(triple);
      const entry = byValue.get(key);
      if (entry) entry.count++;
      else byValue.set(key, { predicate, value: b.o, count: 1, example: b.s });
    }
    const hits = [...byValue.values()].sort(
      (a, b) => rank(b.value.value, query) - rank(a.value.value, query) || b.count - a.count || a.value.value.length - b.value.value.length,
    );
    if (hits.length === 0) {
      return { text: [`No literal value matches "${query}"${p ? ` for ${render.name(p)}` : ""}.`, ...notes, "Try fewer or other words, or search_entities if it names a thing."].join("\n"), data: { query, hits: [] } };
    }
    const top = hits.slice(0, SHOWN);
    const lines = top.map(
      (h, i) => `${i + 1}. ${render.term(h.value)} — ${render.iri(h.predicate)} of ${plural(h.count, "subject")}${cut ? "+" : ""}, e.g. ${render.term(h.example)}`,
    );
    const more = hits.length > SHOWN || cut ? ` (${hits.length}${cut ? "+" : ""} values match; first ${SHOWN} shown${cut ? `; counted in the first ${ROWS} matching triples` : ""})` : "";
    return {
      text: [`Values for "${query}"${p ? ` of ${render.iri(p)}` : ""}${more}:`, ...lines, ...notes].join("\n"),
      data: { query, ...(p ? { property: p } : {}), cut, hits: top.map((h) => ({ value: h.value, predicate: h.predicate, count: h.count, example: h.example.value })) },
    };
  },
};
