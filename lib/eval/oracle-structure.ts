// Oracle calibration (issue 28): literals that are query STRUCTURE, not KG constants, so the question-grounded rules
// keep them as they keep the gold's patterns and aggregates. Each is logged like a normalisation ("structure: …").
// Only these, each in its place; any other literal or number is still grounded in the question or a tool output:
// - the flags of REGEX / REPLACE ("i");
// - the output values of IF / COALESCE, or a literal BIND, whose result is never compared with KG data
//   (the variable it binds appears in no triple pattern, FILTER, HAVING or VALUES);
// - a yes/no encoding ("true", "yes", "Y" …) a FILTER compares a variable with by = or !=;
// - a count the question implies by listing items: N ≥ 2 as a divisor ("the average of X and Y" → / 2) or compared
//   with a COUNT ("speaks both A and B" → COUNT = 2), when the question lists exactly N items;
// - the 0 of an existence test: 0 compared with a COUNT, or `> 0`, `!= 0`, `= 0` on a variable ("had deaths").
import type { SparqlQuery } from "sparqljs";
import { normaliseNumberText } from "./oracle-normalisations";

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;
const isLiteral = (v: unknown): v is Node => isObj(v) && v.termType === "Literal";
const isVariable = (v: unknown): v is Node => isObj(v) && v.termType === "Variable";
const COMPARISONS = new Set(["=", "!=", "<", ">", "<=", ">="]);
const MIRROR: Record<string, string> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!=" };
const YES_NO = new Set(["true", "false", "yes", "no", "ja", "nein", "wahr", "falsch"]);
const YES_NO_LETTERS = new Set(["Y", "N", "T", "F", "J"]);
/** The words that join the last item of a list (English, German). */
const LIST_JOINS = /^(and|or|nor|und|oder|sowie|noch|bzw)$/i;

/** A yes/no encoding: a truth value written as a word or letter (not a name: "no" alone is also a language code, so only in a comparison). */
export function isYesNoEncoding(text: string): boolean {
  const t = text.trim();
  return YES_NO.has(t.toLowerCase()) || YES_NO_LETTERS.has(t);
}

/**
 * How many items the question lists, per list: "A, B and C" → 3, "X and Y" → 2, "weder A noch B" → 2. A list is a run
 * of comma-separated items ending in a joining word; one joining word alone joins two.
 */
export function listedCounts(question: string): number[] {
  const counts = new Set<number>();
  for (const sentence of question.split(/[.;:?!]/)) {
    const parts = sentence.split(/(,|\s+)/).filter((p) => p.trim() !== "");
    let commas = 0;
    let seenWord = false;
    for (const p of parts) {
      if (p === ",") {
        if (seenWord) commas++;
        continue;
      }
      if (LIST_JOINS.test(p)) {
        counts.add(commas + 2);
        commas = 0;
        seenWord = false;
        continue;
      }
      seenWord = true;
    }
  }
  return [...counts];
}

const numberValue = (lit: Node): number | null => {
  const n = Number(normaliseNumberText(String(lit.value)));
  return String(lit.value).trim() !== "" && Number.isFinite(n) ? n : null;
};

/** Variables a query projects or binds as a COUNT (`(COUNT(?x) AS ?n)`, in any subquery). */
function countVariables(ast: Node): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObj(v)) return;
    if (isVariable(v.variable) && isObj(v.expression) && v.expression.type === "aggregate" && String(v.expression.aggregation).toLowerCase() === "count") out.add(String(v.variable.value));
    for (const [k, c] of Object.entries(v)) if (k !== "prefixes") walk(c);
  };
  walk(ast);
  return out;
}

/** Variables that meet KG data: in a triple pattern, a FILTER, HAVING or VALUES (a projected or bound result alone does not). */
function comparedVariables(ast: Node): Set<string> {
  const out = new Set<string>();
  const vars = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(vars);
    if (!isObj(v)) return;
    if (isVariable(v)) out.add(String(v.value));
    for (const [k, c] of Object.entries(v)) if (k !== "prefixes") vars(c);
  };
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObj(v)) return;
    if (v.type === "bgp") vars(v.triples);
    else if (v.type === "filter") vars(v.expression);
    else if (v.type === "values" && Array.isArray(v.values)) for (const row of v.values as Node[]) for (const k of Object.keys(row)) out.add(k.replace(/^\?/, ""));
    if (Array.isArray(v.having)) vars(v.having);
    for (const [k, c] of Object.entries(v)) if (k !== "prefixes" && k !== "having") walk(c);
  };
  walk(ast);
  return out;
}

const isCount = (v: unknown, counts: Set<string>) =>
  (isObj(v) && v.type === "aggregate" && String(v.aggregation).toLowerCase() === "count") || (isVariable(v) && counts.has(String(v.value)));

/**
 * The literals of `query` that are structure, each with the reason the log shows. The map's keys are the AST's own
 * literal nodes (so a caller walking the same AST keeps exactly those).
 */
export function structuralLiterals(query: SparqlQuery, question: string): Map<object, string> {
  const ast = query as unknown as Node;
  const out = new Map<object, string>();
  const counts = countVariables(ast);
  const compared = comparedVariables(ast);
  const listed = listedCounts(question);
  const mark = (lit: unknown, reason: string) => {
    if (isLiteral(lit) && !out.has(lit)) out.set(lit, reason);
  };
  // outputs of IF/COALESCE, through nested ones
  const outputsOf = (e: unknown): unknown[] => {
    if (!isObj(e) || e.type !== "operation" || !Array.isArray(e.args)) return [e];
    const op = String(e.operator).toLowerCase();
    if (op === "if") return [...outputsOf(e.args[1]), ...outputsOf(e.args[2])];
    if (op === "coalesce") return e.args.slice(1).flatMap(outputsOf);
    return [e];
  };
  const resultUnused = (binding: Node | undefined) => !binding || !isVariable(binding.variable) || !compared.has(String(binding.variable.value));

  const walk = (v: unknown, inComparison: boolean, binding: Node | undefined) => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, inComparison, binding));
    if (!isObj(v)) return;
    // a projection `(expr AS ?v)` or BIND(expr AS ?v): what its expression outputs goes to ?v
    if (isVariable(v.variable) && "expression" in v) {
      if (isLiteral(v.expression) && resultUnused(v)) mark(v.expression, "output value of BIND");
      walk(v.expression, false, v);
      return;
    }
    if (v.type === "operation" && Array.isArray(v.args)) {
      const op = String(v.operator).toLowerCase();
      const args = v.args as unknown[];
      if (op === "regex") mark(args[2], "REGEX flags");
      if (op === "replace") mark(args[3], "REPLACE flags");
      if ((op === "if" || op === "coalesce") && !inComparison && resultUnused(binding)) {
        for (const o of outputsOf(v)) mark(o, `output value of ${op.toUpperCase()}`);
      }
      if (COMPARISONS.has(op) && args.length === 2) {
        const [a, b] = args;
        const litFirst = isLiteral(a) && !isLiteral(b);
        const lit = (litFirst ? a : b) as Node;
        const other = litFirst ? b : a;
        const rel = litFirst ? MIRROR[op] : op;
        if (isLiteral(lit)) {
          const n = numberValue(lit);
          if (n === 0 && (isCount(other, counts) || (isVariable(other) && ["=", "!=", ">"].includes(rel)))) mark(lit, "0 of an existence test");
          else if (n !== null && n >= 2 && Number.isInteger(n) && isCount(other, counts) && listed.includes(n)) mark(lit, "count of the items the question lists");
          else if (isVariable(other) && (rel === "=" || rel === "!=") && isYesNoEncoding(String(lit.value))) mark(lit, "yes/no encoding");
        }
      }
      if (op === "/" && isLiteral(args[1])) {
        const n = numberValue(args[1] as Node);
        if (n !== null && n >= 2 && Number.isInteger(n) && listed.includes(n)) mark(args[1], "count of the items the question lists");
      }
      const compares = inComparison || COMPARISONS.has(op) || op === "in" || op === "notin";
      for (const a of args) walk(a, compares, binding);
      return;
    }
    for (const [k, c] of Object.entries(v)) if (k !== "prefixes") walk(c, inComparison, binding);
  };
  walk(ast, false, undefined);
  return out;
}

/**
 * The same rules for one QIR filter (Chatty-KG's oracle writes filters, not a query): the reason when `value`
 * compared with `op` on a variable (`isCountVar`: an aggregate COUNT's alias) is structure, else null.
 */
export function structuralFilterValue(op: string, value: { text: string; type: string }, isCountVar: boolean, question: string): string | null {
  const n = value.type === "number" ? Number(normaliseNumberText(value.text)) : NaN;
  const rel = op === "==" ? "=" : op;
  if (n === 0 && (isCountVar || ["=", "!=", ">"].includes(rel))) return "0 of an existence test";
  if (Number.isInteger(n) && n >= 2 && isCountVar && listedCounts(question).includes(n)) return "count of the items the question lists";
  if ((rel === "=" || rel === "!=") && value.type !== "number" && isYesNoEncoding(value.text)) return "yes/no encoding";
  return null;
}
