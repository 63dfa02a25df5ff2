// The one place the app turns SPARQL text into a sparqljs AST and back. sparqljs 3.7.4 deviates from SPARQL 1.1 in a few
// ways that silently change a query's meaning when the app parses and re-serialises it (the guard, row caps, replays,
// gold queries); each is worked around here, tested in sparql-syntax.test.ts and checked by the W3C suites (test/w3c/).
//   1. PN_LOCAL_ESC kept: `:person\#name` became <…person\#name> (upstream RubenVerborgh/SPARQL.js#168) → decoded.
//   2. \u escapes in an IRIREF (`<\u0078>`) refused, though SPARQL allows them (cf. comunica/comunica#440) → decoded.
//   3. `CONSTRUCT { [ :p ?o ] . }`, a blank-node property list alone as a template triple, crashes the parser with a
//      TypeError (SPARQL.js#164) → parsed as the triples inside the brackets.
//   4. `CONSTRUCT {} WHERE {…}` lost its empty template and was written back as `CONSTRUCT WHERE {…}`, which returns
//      every matched triple instead of none (no upstream issue found) → the template is kept as [].
//   5. Several HAVING conditions were written as `HAVING (a b)`, which does not parse (no upstream issue found) →
//      written as `HAVING (a) (b)`.
//   6. A blank node label used in two basic graph patterns (`_:a ?p ?v . OPTIONAL {…} _:a ?q 1`) was accepted; SPARQL
//      1.1 §19.6 forbids it (W3C syn-bad-34…38, syn-blabel-cross-*) → refused as a syntax error.
// And one of the embedded store's (oxigraph 0.5.11; no upstream issue found): it groups chains of + - or * / from the
// right (`10 - 2 - 3` = 11, `8 / 2 * 2` = 2). stringifySparql brackets every operand, so `needsExplicitGrouping` tells
// the embedded KG to run the written-out form of such a query.
import sparqljs from "sparqljs";
import type * as Sparql from "sparqljs";
import SparqlParserModule from "sparqljs/lib/SparqlParser.js";

export type { Sparql };

export interface SparqlParseOptions {
  /** relative IRIs resolve against it (none: a relative IRI is an error) */
  baseIRI?: string;
  /** prefixes known without a PREFIX line */
  prefixes?: Record<string, string>;
  /** skip sparqljs' check that projected variables are grouped (for gold queries that break it) */
  skipValidation?: boolean;
}

export interface SparqlStringifyOptions {
  /** prefixes the output may abbreviate with and declares when used (the query's own win) */
  prefixes?: Record<string, string>;
  /** write every prefix of the query, used or not */
  allPrefixes?: boolean;
}

// ---- parser patches (deviations 1–3): applied once to sparqljs' generated parser, version-checked ----

interface JisonParser {
  productions_: [number, number][];
  symbols_: Record<string, number>;
  performAction: (this: unknown, yytext: string, yyleng: number, yylineno: number, yy: unknown, yystate: number, $$: unknown[], ...rest: unknown[]) => unknown;
  lexer: { rules: RegExp[] };
}

const PN_LOCAL_ESC = /\\([_~.\-!$&'()*+,;=/?#@%])/g;
const UCHAR = /\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})/g;
// sparqljs' IRIREF rule, and the same rule with UCHAR allowed inside (SPARQL 1.1 §19.2)
const IRIREF_RULE = String.raw`^(?:(<(?:[^<>\"\{\}\|\^` + "`" + String.raw`\\\u0000-\u0020])*>))`;
const IRIREF_WITH_UCHAR = new RegExp(
  String.raw`^(?:(<(?:[^<>\"\{\}\|\^` + "`" + String.raw`\\\u0000-\u0020]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>))`,
  "i",
);
// what an IRIREF may not contain once its escapes are decoded
// eslint-disable-next-line no-control-regex
const IRIREF_FORBIDDEN = /[<>"{}|^`\\\u0000-\u0020]/;

function decodeUchar(text: string): string {
  return text.replace(UCHAR, (_, four: string | undefined, eight: string | undefined) => String.fromCodePoint(parseInt(four ?? eight ?? "", 16)));
}

function patchParser(): void {
  const proto = (SparqlParserModule as unknown as { Parser: { prototype: JisonParser } }).Parser.prototype;
  if ((proto as { __chattyKgPatched?: boolean }).__chattyKgPatched) return;
  const sym = proto.symbols_;
  const production = (n: number) => proto.productions_[n]?.join(",");
  // the patched actions by number: a sparqljs upgrade that renumbers them must be looked at again (the tests fail here)
  const IRIREF_ACTION = 211;
  const PNAME_LN_ACTION = 213;
  const TRIPLES_NODE_SUBJECT_ACTION = 103;
  if (
    production(IRIREF_ACTION) !== `${sym.iri},1` ||
    production(PNAME_LN_ACTION) !== `${sym.PrefixedName},1` ||
    production(TRIPLES_NODE_SUBJECT_ACTION) !== `${sym.TriplesSameSubject},2`
  ) {
    throw new Error("sparqljs changed: lib/kg/sparql-syntax.ts patches its parser actions 103, 211 and 213 by number; check them against the new version.");
  }
  const iriRule = proto.lexer.rules.findIndex((r) => r.source === IRIREF_RULE);
  if (iriRule < 0) throw new Error("sparqljs changed: its IRIREF lexer rule was not found (lib/kg/sparql-syntax.ts).");
  proto.lexer.rules[iriRule] = IRIREF_WITH_UCHAR;

  const original = proto.performAction;
  proto.performAction = function (this: unknown, yytext, yyleng, yylineno, yy, yystate, $$, ...rest) {
    const last = $$.length - 1;
    if (yystate === PNAME_LN_ACTION && typeof $$[last] === "string") {
      $$[last] = ($$[last] as string).replace(PN_LOCAL_ESC, "$1");
    } else if (yystate === IRIREF_ACTION && typeof $$[last] === "string" && ($$[last] as string).includes("\\")) {
      const decoded = decodeUchar(($$[last] as string).slice(1, -1));
      if (IRIREF_FORBIDDEN.test(decoded)) throw new Error(`An escape in <${($$[last] as string).slice(1, -1)}> stands for a character an IRI may not contain.`);
      $$[last] = `<${decoded}>`;
    } else if (yystate === TRIPLES_NODE_SUBJECT_ACTION && $$[last] == null) {
      $$[last] = [];
    }
    return original.call(this, yytext, yyleng, yylineno, yy, yystate, $$, ...rest);
  };
  (proto as { __chattyKgPatched?: boolean }).__chattyKgPatched = true;
}

patchParser();

// ---- parsing ----

/**
 * Parses SPARQL 1.1 (queries and updates) into sparqljs' AST with the deviations above corrected. Throws sparqljs'
 * errors (a parse error carries `hash.loc`) or an Error naming the rule broken.
 */
export function parseSparql(text: string, options: SparqlParseOptions = {}): Sparql.SparqlQuery {
  // skipValidation is a sparqljs option its types do not list
  const parserOptions = { baseIRI: options.baseIRI, prefixes: options.prefixes, skipValidation: options.skipValidation } as sparqljs.ParserOptions;
  const parser = new sparqljs.Parser(parserOptions);
  const ast = parser.parse(text);
  if (ast.type === "query") {
    // deviation 4: an empty template is still a template
    if (ast.queryType === "CONSTRUCT" && !ast.template) (ast as Sparql.ConstructQuery).template = [];
    checkBlankNodeScopes(ast);
  }
  return ast;
}

/** Blank node labels written in the query (sparqljs names them `e_<label>`; `[]` and `[ … ]` get `g_<n>`). */
function explicitLabel(term: unknown): string | undefined {
  const t = term as { termType?: string; value?: string } | null;
  return t?.termType === "BlankNode" && typeof t.value === "string" && t.value.startsWith("e_") ? t.value.slice(2) : undefined;
}

/** Deviation 6: one label, one basic graph pattern (triples separated only by FILTERs are one BGP). */
function checkBlankNodeScopes(query: Sparql.Query): void {
  const owner = new Map<string, number>();
  let scopes = 0;
  const visitGroup = (patterns: Sparql.Pattern[] | undefined) => {
    let scope = -1;
    for (const p of patterns ?? []) {
      if (p.type === "bgp") {
        if (scope < 0) scope = scopes++;
        for (const t of p.triples) {
          for (const term of [t.subject, t.object]) {
            const label = explicitLabel(term);
            if (label === undefined) continue;
            const seen = owner.get(label);
            if (seen !== undefined && seen !== scope) {
              throw new Error(`The blank node _:${label} is used in two different basic graph patterns (SPARQL 1.1 §19.6); use a variable instead.`);
            }
            owner.set(label, scope);
          }
        }
        continue;
      }
      if (p.type !== "filter") scope = -1; // anything but a FILTER ends the BGP
      visitPattern(p);
    }
  };
  const visitExpression = (e: unknown): void => {
    if (!e || typeof e !== "object") return;
    const x = e as { type?: string; operator?: string; args?: unknown };
    if (x.type === "operation" && (x.operator === "exists" || x.operator === "notexists") && Array.isArray(x.args)) {
      const inner = x.args[0] as Sparql.Pattern;
      visitPattern(inner);
      return;
    }
    if (Array.isArray(x.args)) for (const a of x.args) visitExpression(a);
    if ("expression" in (x as object)) visitExpression((x as { expression: unknown }).expression);
  };
  const visitPattern = (p: Sparql.Pattern): void => {
    switch (p.type) {
      case "group":
      case "optional":
      case "minus":
      case "graph":
      case "service":
        visitGroup(p.patterns);
        break;
      case "union":
        for (const q of p.patterns) visitPattern(q.type === "bgp" ? { type: "group", patterns: [q] } : q);
        break;
      case "query":
        visitQuery(p as unknown as Sparql.Query);
        break;
      case "filter":
        visitExpression(p.expression);
        break;
      case "bind":
        visitExpression(p.expression);
        break;
      case "bgp":
        visitGroup([p]);
        break;
      default:
        break;
    }
  };
  const visitQuery = (q: Sparql.Query) => {
    visitGroup(q.where);
    for (const h of (q as Sparql.SelectQuery).having ?? []) visitExpression(h);
  };
  visitQuery(query);
}

// ---- operator chains ----

const ADDITIVE = new Set(["+", "-"]);
const MULTIPLICATIVE = new Set(["*", "/"]);
const sameLevel = (a: string, b: string) => (ADDITIVE.has(a) && ADDITIVE.has(b)) || (MULTIPLICATIVE.has(a) && MULTIPLICATIVE.has(b));

/** True when an expression chains two operators of one precedence level (`a - b - c`, `a / b * c`). */
export function needsExplicitGrouping(ast: unknown): boolean {
  if (Array.isArray(ast)) return ast.some(needsExplicitGrouping);
  if (!ast || typeof ast !== "object") return false;
  const o = ast as { type?: string; operator?: string; args?: unknown[]; termType?: string };
  if (o.termType) return false;
  if (o.type === "operation" && typeof o.operator === "string" && Array.isArray(o.args)) {
    const left = o.args[0] as { type?: string; operator?: string } | undefined;
    if (left?.type === "operation" && typeof left.operator === "string" && sameLevel(o.operator, left.operator)) return true;
  }
  return Object.values(o).some((v) => v !== null && typeof v === "object" && needsExplicitGrouping(v));
}

// ---- serialising ----

type GeneratorInstance = { toQuery(q: unknown): string; toExpression(e: unknown): string };
type GeneratorClass = new (options: Record<string, unknown>) => GeneratorInstance;
const Base = (new sparqljs.Generator().createGenerator() as unknown as { constructor: GeneratorClass }).constructor;
const HAVING_LIST = "chatty-kg:having-list";

class Generator extends Base {
  toQuery(q: unknown): string {
    const query = q as { having?: unknown[] };
    // deviation 5: several HAVING conditions, each in its own brackets
    if (query.having && query.having.length > 1) return super.toQuery({ ...query, having: [{ type: HAVING_LIST, args: query.having }] });
    return super.toQuery(q);
  }

  toExpression(e: unknown): string {
    const x = e as { type?: string; args?: unknown[] } | null;
    if (x?.type === HAVING_LIST) return (x.args ?? []).map((a) => super.toExpression(a)).join(") (");
    return super.toExpression(e);
  }
}

/** Writes an AST back as SPARQL text that parses (with parseSparql) to the same query. */
export function stringifySparql(ast: Sparql.SparqlQuery, options: SparqlStringifyOptions = {}): string {
  // the generator abbreviates with, and declares, the prefixes of the query it writes: extra ones join the query's
  const query = options.prefixes ? { ...ast, prefixes: { ...options.prefixes, ...ast.prefixes } } : ast;
  return new Generator({ prefixes: query.prefixes, allPrefixes: options.allPrefixes === true }).toQuery(query);
}

/**
 * A form of an AST for comparing two parses: blank nodes renamed in order of appearance, the prefix map and BASE left
 * out (they change the text, not the query). Two parses with the same key are the same query.
 */
export function sparqlKey(ast: Sparql.SparqlQuery): string {
  const names = new Map<string, string>();
  return JSON.stringify(ast, (key, value: unknown) => {
    if (key === "prefixes" || key === "base") return undefined;
    const t = value as { termType?: string; value?: string } | null;
    if (t && typeof t === "object" && t.termType === "BlankNode" && typeof t.value === "string") {
      if (!names.has(t.value)) names.set(t.value, `b${names.size}`);
      return { termType: "BlankNode", value: names.get(t.value) };
    }
    return value;
  });
}
