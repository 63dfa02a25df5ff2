// Where an answer item came from: the executed query's graph pattern instantiated with that item's row, as a
// CONSTRUCT of its triple patterns, so the user sees the KG triples behind one item (or one table row, or a "yes").
//
// Decisions:
// - A CONSTRUCT template is instantiated for every solution, whichever UNION branch or OPTIONAL produced it, so one
//   CONSTRUCT of all patterns would invent edges (the other direction of a UNION). The pattern is therefore split into
//   its alternatives (each UNION branch; each OPTIONAL taken as required, or left out) and each alternative gets its
//   own CONSTRUCT of exactly its triples; the triples of all of them together are the item's support. At most
//   MAX_ALTERNATIVES are built.
// - Only patterns that bind the answer are shown: BGPs in groups, GRAPHs and sub-selects. FILTER, MINUS and NOT EXISTS
//   only exclude rows; their triples do not support an item.
// - The row enters as a VALUES block built with the AST builders (IRIs checked, literals as data), never as text; a
//   variable an alternative does not bind (an aggregate's alias, another branch's variable) is left out of it.
// - A single inverse path (^p) is turned around into a plain triple; other property paths cannot be a CONSTRUCT
//   template and are skipped (the query still restricts the rows).
import type * as Sparql from "sparqljs";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { AnswerItem } from "@/lib/pipeline/types";
import { literal, namedNode, stringify } from "./sparql-ast";

/** Triples returned per provenance query: enough to read, small enough to show inline. */
export const PROVENANCE_TRIPLES = 50;
/** Alternatives (UNION branches × OPTIONALs taken or not) turned into queries, at most. */
export const MAX_ALTERNATIVES = 16;

type PatternTerm = Sparql.Triple["subject"];

function isPlainTerm(t: unknown): t is PatternTerm {
  return typeof t === "object" && t !== null && "termType" in t;
}

/** The pattern without UNION and OPTIONAL: one list per branch taken, each OPTIONAL required or left out. */
function alternatives(patterns: Sparql.Pattern[]): Sparql.Pattern[][] {
  let alts: Sparql.Pattern[][] = [[]];
  const cross = (options: Sparql.Pattern[][]) => {
    alts = alts.flatMap((a) => options.map((o) => [...a, ...o])).slice(0, MAX_ALTERNATIVES);
  };
  for (const p of patterns) {
    if (p.type === "union") cross(p.patterns.flatMap((branch) => alternatives(branch.type === "group" ? branch.patterns : [branch])));
    else if (p.type === "optional") cross([...alternatives(p.patterns).map((inner) => [{ type: "group", patterns: inner } as Sparql.GroupPattern]), []]);
    else if (p.type === "group") cross(alternatives(p.patterns).map((inner) => [{ type: "group", patterns: inner } as Sparql.GroupPattern]));
    else cross([[p]]);
  }
  return alts;
}

/** The supporting triple patterns of one alternative, in query order (see the file comment). */
function supportingTriples(patterns: Sparql.Pattern[], out: Sparql.Triple[] = []): Sparql.Triple[] {
  for (const p of patterns) {
    switch (p.type) {
      case "bgp":
        for (const t of p.triples) {
          const pred = t.predicate as unknown;
          if (isPlainTerm(pred)) out.push(t);
          else {
            // ^p: the same edge read the other way
            const path = pred as Sparql.PropertyPath;
            if (path.pathType === "^" && path.items.length === 1 && isPlainTerm(path.items[0])) {
              out.push({ subject: t.object as PatternTerm, predicate: path.items[0] as Sparql.IriTerm, object: t.subject });
            }
          }
        }
        break;
      case "group":
      case "graph":
        supportingTriples(p.patterns, out);
        break;
      case "query":
        // a sub-select's own UNION/OPTIONAL would need the same split: its edges are shown only when it has none
        if (!JSON.stringify(p.where ?? []).match(/"type":"(union|optional)"/)) supportingTriples(p.where ?? [], out);
        break;
      default:
        break; // filter, minus, bind, values, service: they add no supporting edge
    }
  }
  return out;
}

/** Variables the patterns mention (to keep VALUES to variables the pattern binds). */
function patternVariables(triples: Sparql.Triple[]): Set<string> {
  const vars = new Set<string>();
  for (const t of triples) for (const x of [t.subject, t.predicate, t.object]) if (isPlainTerm(x) && x.termType === "Variable") vars.add(x.value);
  return vars;
}

/** The SELECT's projected variable names in order; `null` for an expression (aggregate) column. Wildcard: the pattern's variables. */
export function projectedVariables(ast: Sparql.SelectQuery, triples: Sparql.Triple[]): (string | null)[] {
  if (ast.variables.length === 1 && !isPlainTerm(ast.variables[0]) && !("expression" in ast.variables[0])) return [...patternVariables(triples)];
  return ast.variables.map((v) => (isPlainTerm(v) && v.termType === "Variable" ? v.value : null));
}

function termOf(item: AnswerItem): Sparql.IriTerm | Sparql.LiteralTerm {
  return item.type === "uri" ? namedNode(item.value) : literal(item.value, { language: item.lang, datatype: item.datatype });
}

/**
 * One CONSTRUCT per alternative of the query's pattern: CONSTRUCT { its triple patterns } WHERE { VALUES ( the row's
 * variables ) { ( the row ) } its patterns } LIMIT n. Empty when the query is not a SELECT/ASK or (for a row) no
 * alternative binds any of the row's values. `row`: one value per projected column (null = unbound); [] for an ASK.
 */
export function provenanceQueries(query: string, row: (AnswerItem | null)[], limit = PROVENANCE_TRIPLES): string[] {
  const { ast } = parseReadOnly(query);
  if (ast.type !== "query" || (ast.queryType !== "SELECT" && ast.queryType !== "ASK")) return [];
  const columns = ast.queryType === "SELECT" ? projectedVariables(ast, supportingTriples(ast.where ?? [])) : [];
  const out = new Set<string>();
  for (const alt of alternatives(ast.where ?? [])) {
    const template = supportingTriples(alt);
    if (template.length === 0) continue;
    const bound = patternVariables(template);
    const values: Sparql.ValuePatternRow = {};
    row.forEach((cell, i) => {
      const name = columns[i];
      if (cell && name && bound.has(name)) values[`?${name}`] = termOf(cell);
    });
    if (row.length > 0 && Object.keys(values).length === 0) continue;
    const construct = {
      type: "query",
      queryType: "CONSTRUCT",
      prefixes: ast.prefixes,
      template,
      where: [...(Object.keys(values).length ? [{ type: "values", values: [values] } as Sparql.ValuesPattern] : []), ...alt],
      limit,
    } as Sparql.ConstructQuery;
    out.add(stringify(construct));
  }
  return [...out];
}
