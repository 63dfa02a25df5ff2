// Writes generated queries the way a person would: compact names with the KG's prefixes (declared on top), readable
// variable names, typed literals only where the KG's own terms need them.
import { escapeLiteral, iri, isLangTag } from "@/lib/kg/escape";
import { compactIri, NS } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";
import { completePrefixes } from "@/lib/pipeline/common/prefixes";

const INTEGER = /#(integer|int|long|short|byte|nonNegativeInteger|positiveInteger|negativeInteger|nonPositiveInteger|unsignedInt|unsignedLong|unsignedShort)$/;
const NUMERIC = /#(integer|decimal|double|float|int|long|short|byte|nonNegativeInteger|positiveInteger|negativeInteger|nonPositiveInteger|unsignedInt|unsignedLong|unsignedShort)$/;

export class QueryBuilder {
  private readonly typeTerm: string;

  constructor(
    readonly prefixes: Record<string, string>,
    typePredicate: string,
  ) {
    this.typeTerm = typePredicate === `${NS.rdf}type` ? "a" : this.iri(typePredicate);
  }

  iri(value: string): string {
    const c = compactIri(value, this.prefixes);
    return c.startsWith("<") ? iri(value) : c;
  }

  /** `?x a C . ` when the scope has a class */
  typed(v: string, cls: string | undefined): string {
    return cls ? `${v} ${this.typeTerm} ${this.iri(cls)} . ` : "";
  }

  /** A KG term as the query writes it (exactly the KG's term, so equality holds). */
  term(t: Term): string {
    if (t.type === "uri") return this.iri(t.value);
    if (t.type === "bnode") throw new Error("blank nodes are not written into generated queries");
    const body = `"${escapeLiteral(t.value)}"`;
    const lang = t["xml:lang"];
    if (lang && isLangTag(lang)) return `${body}@${lang}`;
    const dt = t.datatype;
    if (!dt || dt === `${NS.xsd}string` || dt === `${NS.rdf}langString`) return body;
    if (INTEGER.test(dt) && /^[+-]?\d+$/.test(t.value) && dt === `${NS.xsd}integer`) return t.value;
    if (dt === `${NS.xsd}boolean` && /^(true|false)$/.test(t.value)) return t.value;
    return `${body}^^${this.iri(dt)}`;
  }

  /** A number for a comparison (plain: compares with any numeric datatype). */
  number(n: number): string {
    return Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000);
  }

  /** A date or dateTime threshold, typed like the KG's values. */
  date(value: string, datatype: string): string {
    return `"${escapeLiteral(value)}"^^${this.iri(datatype)}`;
  }

  /** The query with PREFIX lines for the compact names it uses. */
  finish(body: string): string {
    return completePrefixes(body, this.prefixes);
  }
}

/** A readable variable name from words ("dept name" → ?dept_name); `taken` keeps names unique in one query. */
export function varName(words: string, taken: Set<string>, fallback = "x"): string {
  const base =
    words
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .replace(/^(\d)/, "v$1")
      .slice(0, 24) || fallback;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return `?${name}`;
}

export const isNumericDatatype = (dt: string | undefined) => !!dt && NUMERIC.test(dt);

/** A stable index in [0, n) from a text (which of several sampled entities a question names). */
export function spreadIndex(text: string, n: number): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return n > 0 ? h % n : 0;
}

/** `SELECT a … LIMIT k` → `SELECT a ?v … LIMIT k+1`: the row after the last kept one, with the sort key to compare. */
export const projects = (body: string, v: string) => new RegExp(`^SELECT\\s[^{]*\\?${v}\\b`).test(body);

export function withTieCheck(body: string, tie: { v: string; k: number }): string {
  const select = projects(body, tie.v) ? body : body.replace(/^SELECT\s/, `SELECT ?${tie.v} `);
  return select.replace(/LIMIT\s+\d+\s*$/, `LIMIT ${tie.k + 1}`);
}

/** The values a subquery's `v` takes in `all` but not in `except`, as one column `out`: "the X that no Y …". */
export function exceptQuery(out: string, all: { v: string; where: string }, except: { v: string; where: string }): string {
  return `SELECT DISTINCT ${out} WHERE { { SELECT (${all.v} AS ${out}) WHERE { ${all.where} } } MINUS { SELECT (${except.v} AS ${out}) WHERE { ${except.where} } } }`;
}
