// Value search: the literals the KG holds that equal a value the question states ("Alfama", "KS-0042", 18, 2001-11-16),
// with the predicates that carry them. Exact term lookups (VALUES), so they are index-backed on every SPARQL engine.
//
// Decisions:
// - Text is looked up as written, in lower case, Title Case and UPPER CASE, untagged and in the profile's language;
//   numbers as xsd:integer/decimal/double and as text; dates as xsd:date, xsd:dateTime at midnight, xsd:gYear for a
//   year, and as text. No substring matching: a value either is in the KG or it is not (the entity search handles
//   partial names of things).
// - Label and description predicates do not carry values (isBookkeeping): a text that is only some vertex's label is
//   an entity's name, and entity linking finds it as a vertex.
import type { Term } from "@/lib/kg/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { isBookkeeping } from "@/lib/pipeline/common/bookkeeping";
import { literalTerm, selectQuery, stringify, triple, valuesOfTerms, variable } from "@/lib/pipeline/common/sparql-ast";
import type { ValueType } from "../state";

const XSD = "http://www.w3.org/2001/XMLSchema#";
/** carrier rows read back (predicate × term); far above what one value has in practice */
const VALUE_ROWS = 200;

export interface ValueCarrier {
  iri: string;
  /** triples holding the value with this predicate */
  count: number;
}

export interface ValueMatch {
  /** the KG's terms equal to the value (case variants, tags, datatypes), most used first */
  terms: Term[];
  /** predicates carrying it (label/description predicates excluded), most used first */
  carriers: ValueCarrier[];
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(/(^|[\s\-'(])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** The literal terms a value may be stored as (see the file comment). */
export function valueTerms(text: string, type: ValueType, language: string): Term[] {
  const out: Term[] = [];
  const add = (value: string, extra: { datatype?: string; lang?: string } = {}) => {
    const term: Term = { type: "literal", value, ...(extra.datatype ? { datatype: extra.datatype } : {}), ...(extra.lang ? { "xml:lang": extra.lang } : {}) };
    if (!out.some((t) => JSON.stringify(t) === JSON.stringify(term))) out.push(term);
  };
  if (type === "number") {
    const n = Number(text);
    if (!Number.isFinite(n)) return [];
    if (Number.isInteger(n)) add(String(n), { datatype: `${XSD}integer` });
    add(Number.isInteger(n) ? `${n}.0` : String(n), { datatype: `${XSD}decimal` });
    if (!Number.isInteger(n)) add(String(n), { datatype: `${XSD}decimal` });
    add(n.toExponential().replace("e+", "E").replace("e", "E"), { datatype: `${XSD}double` });
    // single precision and plain doubles, as many exported models write their numbers ("378"^^xsd:float)
    add(String(n), { datatype: `${XSD}float` });
    add(String(n), { datatype: `${XSD}double` });
    add(text);
    return out;
  }
  if (type === "date") {
    if (/^\d{4}$/.test(text)) {
      add(text, { datatype: `${XSD}gYear` });
      add(text, { datatype: `${XSD}integer` });
    } else {
      add(text, { datatype: `${XSD}date` });
      add(`${text}T00:00:00`, { datatype: `${XSD}dateTime` });
    }
    add(text);
    return out;
  }
  const forms = [...new Set([text, text.toLowerCase(), titleCase(text), text.toUpperCase()])];
  for (const f of forms) {
    add(f);
    if (language) add(f, { lang: language });
  }
  return out;
}

const termKey = (t: Term) => (t.type === "literal" ? `${t.value}\u0000${t.datatype ?? ""}\u0000${t["xml:lang"] ?? ""}` : t.value);

/**
 * The KG's literals equal to the value and the predicates carrying them. One read-only query; a failure is the
 * caller's (entity linking reports it as a KG failure).
 */
export async function searchValues(text: string, type: ValueType, ctx: AgentContext): Promise<ValueMatch> {
  const terms = valueTerms(text.trim(), type, ctx.kg.profile.language);
  if (terms.length === 0) return { terms: [], carriers: [] };
  const asAst = terms.map((t) => literalTerm(t.value, { ...(t.type === "literal" && t.datatype ? { datatype: t.datatype } : {}), ...(t.type === "literal" && t["xml:lang"] ? { lang: t["xml:lang"] } : {}) }));
  const query = {
    ...selectQuery(["p", "o"], [valuesOfTerms("o", asAst), { type: "bgp", triples: [triple(variable("s"), variable("p"), variable("o"))] }], { distinct: false }),
    variables: [variable("p"), variable("o"), { expression: { type: "aggregate", aggregation: "count", distinct: false, expression: variable("s") }, variable: variable("n") }],
    group: [{ expression: variable("p") }, { expression: variable("o") }],
    limit: VALUE_ROWS,
  } as Parameters<typeof stringify>[0];
  const r = await ctx.sparql("entity-linking", `literal values equal to ${JSON.stringify(text)}`, stringify(query));
  const rows = r.kind === "SELECT" ? r.results.bindings : [];
  const byPredicate = new Map<string, number>();
  const byTerm = new Map<string, { term: Term; n: number }>();
  for (const row of rows) {
    const p = row.p;
    const o = row.o;
    const n = Number(row.n?.value ?? 0);
    if (p?.type !== "uri" || o?.type !== "literal" || isBookkeeping(p.value, ctx)) continue;
    byPredicate.set(p.value, (byPredicate.get(p.value) ?? 0) + n);
    const k = termKey(o);
    byTerm.set(k, { term: o, n: (byTerm.get(k)?.n ?? 0) + n });
  }
  ctx.emit({ type: "tool-call", stage: "entity-linking", tool: "value-search", input: { value: text, type, forms: terms.length }, output: { carriers: [...byPredicate].map(([iri, count]) => ({ iri, count })) } });
  return {
    terms: [...byTerm.values()].sort((a, b) => b.n - a.n).map((x) => x.term),
    carriers: [...byPredicate].map(([iri, count]) => ({ iri, count })).sort((a, b) => b.count - a.count || a.iri.localeCompare(b.iri)),
  };
}
