// What the query says around the cursor, read from its tokens (it need not parse: people complete half-written
// queries): the word being typed, its place in a triple, the subject's classes, the declared prefixes, the variables.
// Pure, so completion and hover are tested without an editor.

export type TokenKind = "var" | "iri" | "pname" | "literal" | "a" | "punct" | "word";

export interface Token {
  kind: TokenKind;
  text: string;
  from: number;
  to: number;
}

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

const TOKEN =
  /("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(#[^\n]*)|(<[^<>\s"{}|^`\\]*>?)|([?$][\p{L}\p{N}_]*)|([\p{L}_][\p{L}\p{N}_.-]*)?:((?:[\p{L}\p{N}_:-]|\.(?=[\p{L}\p{N}_:-])|%[0-9A-Fa-f]{2}|\\[-_~.!$&'()*+,;=/?#@%])*)|([\p{L}_][\p{L}\p{N}_-]*)|(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([{}().;,[\]])|(\S)/gu;

/** The query's tokens (comments left out); an unfinished string or IRI runs to the end. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const from = m.index;
    const to = from + m[0].length;
    if (m[2]) continue;
    const kind: TokenKind = m[1] !== undefined ? "literal" : m[3] ? "iri" : m[4] ? "var" : m[6] !== undefined ? "pname" : m[7] ? (m[7] === "a" ? "a" : "word") : m[8] ? "literal" : m[9] ? "punct" : "word";
    out.push({ kind, text: m[0], from, to });
  }
  return out;
}

/** PREFIX declarations of the query: name → namespace. */
export function declaredPrefixes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/PREFIX\s+([\p{L}_][\p{L}\p{N}_.-]*)?:\s*<([^<>\s]*)>/giu)) out[m[1] ?? ""] = m[2];
  return out;
}

/** The full IRI of a token (an <IRI>, a prefixed name with a known prefix, or `a`); undefined otherwise. */
export function expand(token: Pick<Token, "kind" | "text">, prefixes: Record<string, string>): string | undefined {
  if (token.kind === "a") return RDF_TYPE;
  if (token.kind === "iri") return token.text.endsWith(">") ? token.text.slice(1, -1) : undefined;
  if (token.kind !== "pname") return undefined;
  const cut = token.text.indexOf(":");
  const ns = prefixes[token.text.slice(0, cut)];
  return ns === undefined ? undefined : ns + token.text.slice(cut + 1).replace(/\\(.)/g, "$1");
}

export interface Triple {
  subject?: Token;
  predicate?: Token;
  object?: Token;
}

const KEYWORDS_ENDING_PATTERN = /^(FILTER|OPTIONAL|MINUS|UNION|GRAPH|SERVICE|BIND|VALUES|SELECT|WHERE|ASK|CONSTRUCT|DESCRIBE|GROUP|ORDER|LIMIT|OFFSET|HAVING|PREFIX|BASE)$/i;

/**
 * The triple patterns of the query in order, with ; and , expanded (the last may be unfinished). Expressions in
 * parentheses (FILTER, BIND, functions) and keywords are skipped.
 */
export function triples(tokens: Token[]): Triple[] {
  const out: Triple[] = [];
  let cur: Triple = {};
  let depth = 0;
  const push = () => {
    if (cur.subject) out.push(cur);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth = Math.max(0, depth - 1);
    if (depth > 0 || t.text === ")" ) continue;
    if (t.kind === "punct") {
      if (t.text === ";" && cur.subject) {
        push();
        cur = { subject: cur.subject };
      } else if (t.text === "," && cur.predicate) {
        push();
        cur = { subject: cur.subject, predicate: cur.predicate };
      } else if (t.text === "." || t.text === "{" || t.text === "}") {
        push();
        cur = {};
      }
      continue;
    }
    if (t.kind === "word" && KEYWORDS_ENDING_PATTERN.test(t.text)) {
      push();
      cur = {};
      continue;
    }
    if (t.kind === "word") continue;
    if (!cur.subject) cur.subject = t;
    else if (!cur.predicate) cur.predicate = t;
    else if (!cur.object) cur.object = t;
    else {
      // a new pattern without a dot (sloppy but common while typing)
      push();
      cur = { subject: t };
    }
  }
  push();
  return out;
}

export type Slot = "subject" | "predicate" | "object" | "expression" | "prefix-decl" | "other";

export interface CursorContext {
  /** the token the cursor is in or right after (the text being completed), if any */
  word?: Token;
  /** where the text being typed goes */
  slot: Slot;
  /** the subject of the triple being written (for predicate and object slots) */
  subject?: Token;
  /** the predicate of the triple being written (object slot) */
  predicate?: Token;
  /** full IRIs of the classes the subject is said to have (?x a C anywhere in the query) */
  subjectClasses: string[];
  prefixes: Record<string, string>;
  /** variables of the query in order of appearance (without ? or $) */
  variables: string[];
}

function typeOf(t: Token | undefined, prefixes: Record<string, string>): boolean {
  return Boolean(t && expand(t, prefixes) === RDF_TYPE);
}

/** The classes a term has in the query: objects of `term a C` / `term rdf:type C`. */
export function classesOf(term: Token, all: Triple[], prefixes: Record<string, string>): string[] {
  const out: string[] = [];
  for (const t of all) {
    if (t.subject?.text !== term.text || !typeOf(t.predicate, prefixes) || !t.object) continue;
    const c = expand(t.object, prefixes);
    if (c && !out.includes(c)) out.push(c);
  }
  return out;
}

export function cursorContext(text: string, pos: number): CursorContext {
  const tokens = tokenize(text);
  const prefixes = declaredPrefixes(text);
  const variables = [...new Set(tokens.filter((t) => t.kind === "var" && t.text.length > 1).map((t) => t.text.slice(1)))];
  // the token being typed ends at the cursor (a token after the cursor is not being typed)
  const word = tokens.find((t) => t.from < pos && pos <= t.to && t.kind !== "punct" && t.kind !== "literal");
  const before = tokens.filter((t) => t.to <= (word ? word.from : pos));
  const base: CursorContext = { word, slot: "other", subjectClasses: [], prefixes, variables };
  // PREFIX x: <…> being written
  const last = before[before.length - 1];
  if (last && /^PREFIX$/i.test(last.text)) return { ...base, slot: "prefix-decl" };
  let depth = 0;
  for (const t of before) {
    if (t.text === "(") depth++;
    else if (t.text === ")") depth = Math.max(0, depth - 1);
  }
  if (depth > 0) return { ...base, slot: "expression" };
  const insideGroup = before.some((t) => t.text === "{");
  if (!insideGroup) return base;
  const all = triples(tokens);
  const open = triples([...before, { kind: "word", text: "", from: pos, to: pos }]);
  const lastTriple = open[open.length - 1];
  // the triple being written: the last of the text before the cursor, unless a . { } ended it
  const ended = last && (last.text === "." || last.text === "{" || last.text === "}" || (last.kind === "word" && KEYWORDS_ENDING_PATTERN.test(last.text)));
  const fresh = ended || !lastTriple;
  if (fresh) return { ...base, slot: "subject" };
  if (last.text === ";") return { ...base, slot: "predicate", subject: lastTriple.subject, subjectClasses: classesOf(lastTriple.subject!, all, prefixes) };
  if (last.text === ",") return { ...base, slot: "object", subject: lastTriple.subject, predicate: lastTriple.predicate, subjectClasses: classesOf(lastTriple.subject!, all, prefixes) };
  if (lastTriple.subject && !lastTriple.predicate) return { ...base, slot: "predicate", subject: lastTriple.subject, subjectClasses: classesOf(lastTriple.subject, all, prefixes) };
  if (lastTriple.predicate && !lastTriple.object)
    return { ...base, slot: "object", subject: lastTriple.subject, predicate: lastTriple.predicate, subjectClasses: classesOf(lastTriple.subject!, all, prefixes) };
  return { ...base, slot: "subject" };
}

export const isTypePredicate = typeOf;
