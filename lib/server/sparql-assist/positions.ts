// Where a diagnostic goes in the query text: the word at the parser's position, the first keyword that makes a query
// refused, the term a validator message is about; and the parser's expected tokens said in words.
import { compactIri } from "@/lib/kg/profile";

export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** The text with strings, comments and <IRIs> blanked (same length), so a search finds only code. */
export function codeOnly(text: string): string {
  return text.replace(/"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|#[^\n]*|<[^<>\s"{}|^`\\]*>/g, (m) => m.replace(/[^\n]/g, " "));
}

/** 1-based line and column of an offset. */
export function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function span(text: string, from: number, to: number): Span {
  const a = position(text, from);
  const b = position(text, Math.max(to, from + 1));
  return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
}

/** The first match of `pattern` outside strings, comments and IRIs. */
export function locate(text: string, pattern: RegExp): Span | undefined {
  const m = new RegExp(pattern.source, pattern.flags.replace("g", "")).exec(codeOnly(text));
  return m ? span(text, m.index, m.index + m[0].length) : undefined;
}

/** The end of the word (a run of non-space characters, at least one character) starting at line/column. */
export function wordAt(text: string, line: number, column: number): { endLine: number; endColumn: number } {
  const lines = text.split("\n");
  const l = lines[line - 1] ?? "";
  const rest = l.slice(column - 1);
  const word = /^[^\s{}().,;]+/.exec(rest)?.[0] ?? rest.slice(0, 1);
  return { endLine: line, endColumn: column + Math.max(1, word.length) };
}

/** The spots of `iri` in the query: as <iri> or as prefix:local with one of `prefixes`; the first one. */
export function locateTerm(text: string, value: string, prefixes: Record<string, string>): Span | undefined {
  const full = text.indexOf(`<${value}>`);
  if (full >= 0) return span(text, full, full + value.length + 2);
  const code = codeOnly(text);
  for (const [prefix, ns] of Object.entries(prefixes)) {
    if (!ns || !value.startsWith(ns)) continue;
    const local = value.slice(ns.length).replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
    const m = new RegExp(`(^|[\\s{}();,.^/|!])(${prefix.replace(/[.-]/g, "\\$&")}:${local})(?![\\w.-]*[\\w-])`).exec(code);
    if (m) {
      const at = m.index + m[1].length;
      return span(text, at, at + m[2].length);
    }
  }
  return undefined;
}

/**
 * The IRI a validator message is about: in "no C has P" / "no value of P" the predicate P, else the first term the
 * message names (classes, predicates and constants as the message writes them, compacted with `prefixes`).
 */
export function problemTarget(message: string, iris: string[], prefixes: Record<string, string>): string | undefined {
  const named = iris.map((v) => ({ v, shown: compactIri(v, prefixes) }));
  const predicate = /but no (?:value of (\S+?) is|\S+ has (\S+?)\.)/.exec(message);
  const shownPredicate = predicate?.[1] ?? predicate?.[2];
  if (shownPredicate) {
    const hit = named.find((n) => n.shown === shownPredicate);
    if (hit) return hit.v;
  }
  let best: { v: string; at: number } | undefined;
  for (const n of named) {
    const at = message.indexOf(n.shown);
    if (at >= 0 && (!best || at < best.at)) best = { v: n.v, at };
  }
  return best?.v;
}

const TOKEN_WORDS: [RegExp, string][] = [
  [/^VAR$/, "a variable"],
  [/^(IRIREF|PNAME_LN|PNAME_NS)$/, "an IRI or prefixed name"],
  [/^(STRING_LITERAL|INTEGER|DECIMAL|DOUBLE|BOOLEAN)/, "a literal"],
  [/^EOF$/, "the end of the query"],
];
const SKIP = /^(NIL|ANON|BLANK_NODE_LABEL|<<|\{\||\|\}|INVALID|FUNC_.*|COUNT|GROUP_CONCAT|FUNC_AGGREGATE|BOUND|BNODE|EXISTS|CONCAT|COALESCE|SUBSTR|REGEX|REPLACE|NOT|IN|\|\||&&|[-+=<>!/^]|!=|<=|>=)$/;
/** clause keywords first (what people mistype), then terms, then punctuation, then the end */
const rank = (word: string) => (/^[A-Z]+$/.test(word) ? 0 : word.startsWith("a ") || word.startsWith("an ") ? 1 : word.startsWith("the ") ? 3 : 2);

/** The parser's expected tokens in words, the most telling first (at most `max`); "" when there are none. */
export function expectedText(expected: string[] | undefined, max = 8): string {
  if (!expected?.length) return "";
  const out: string[] = [];
  for (const raw of expected) {
    const token = raw.replace(/'/g, "");
    if (SKIP.test(token)) continue;
    const word = TOKEN_WORDS.find(([re]) => re.test(token))?.[1] ?? (/^[A-Za-z]+$/.test(token) ? token : `“${token}”`);
    if (!out.includes(word)) out.push(word);
  }
  out.sort((a, b) => rank(a) - rank(b));
  const shown = out.slice(0, max);
  const more = out.length > max ? ` (or ${out.length - max} more)` : "";
  return shown.length <= 1 ? (shown[0] ?? "") : `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}${more}`;
}
