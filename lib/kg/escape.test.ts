import { describe, expect, it } from "vitest";
import oxigraph from "oxigraph";
import { escapeLiteral, escapeRegex, iri, isSafeIri, literal } from "./escape";
import { parseReadOnly } from "./sparql-guard";
import { isAppError } from "@/lib/errors";

const HOSTILE = [
  'say "hi"',
  "it's",
  "} ; DROP ALL",
  '" } ; DROP ALL ; SELECT * WHERE { "',
  "\"\"\" ''' \\\" \\'",
  "{ ?s ?p ?o }",
  "line1\nline2\r\nline3",
  "tab\there",
  "nul\u0000byte",
  "bell\u0007 esc\u001b del\u007f c1\u0085",
  "backslash at end \\",
  "\\u0022 fake escape",
  "\\U0001F600 fake long escape",
  "emoji 😀👩‍👩‍👧 family",
  "RTL עברית ‏mark‏ العربية",
  "\u202Eoverride",
  "# not a comment",
  "<http://evil.example/> . ?s ?p ?o",
  "' OR '1'='1",
  "",
  " ",
];

// Deterministic pseudo-random strings over a hostile alphabet.
function randomHostile(n: number): string[] {
  const alphabet = ['"', "'", "\\", "{", "}", ";", "\n", "\r", "\t", "\u0000", "#", "<", ">", "u", "0", "a", " ", "😀", "ש", "?", "$", "^^", "@en"];
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join(""));
}

function literalValueOf(query: string): string {
  const parsed = parseReadOnly(query);
  const where = (parsed.ast as unknown as { where: { type: string; expression: { value: string } }[] }).where;
  return where[0].expression.value;
}

describe("escapeLiteral", () => {
  const store = new oxigraph.Store();
  it.each([...HOSTILE, ...randomHostile(200)].map((s) => [JSON.stringify(s), s]))("round-trips %s through sparqljs and oxigraph", (_, text) => {
    const q = `SELECT ?x WHERE { BIND(${literal(text)} AS ?x) }`;
    expect(literalValueOf(q)).toBe(text);
    const rows = store.query(q) as Map<string, { value: string }>[];
    expect(rows).toHaveLength(1);
    expect(rows[0].get("x")?.value).toBe(text);
  });

  it("keeps the query a single read query: the hostile text does not add statements", () => {
    const q = `SELECT ?s WHERE { ?s ?p ${literal('"} ; DROP ALL ; INSERT DATA { <a:b> <a:b> <a:b> } #')} }`;
    const parsed = parseReadOnly(q);
    expect(parsed.kind).toBe("SELECT");
  });

  it("works in single-quoted literals too", () => {
    for (const text of HOSTILE) {
      expect(literalValueOf(`SELECT ?x WHERE { BIND('${escapeLiteral(text)}' AS ?x) }`)).toBe(text);
    }
  });

  it("keeps Unicode as is and escapes controls", () => {
    expect(escapeLiteral("😀 עברית")).toBe("😀 עברית");
    expect(escapeLiteral('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    expect(escapeLiteral("\u0000")).toBe("\\u0000");
  });

  it("replaces lone surrogates, which no UTF-8 transport can carry", () => {
    expect(escapeLiteral("a\uD800b")).toBe("a\uFFFDb");
  });
});

describe("literal", () => {
  it("adds language tags and datatypes", () => {
    expect(literal("x", { lang: "pt-BR" })).toBe('"x"@pt-BR');
    expect(literal("1", { datatype: "http://www.w3.org/2001/XMLSchema#integer" })).toBe('"1"^^<http://www.w3.org/2001/XMLSchema#integer>');
  });
  it("refuses a language tag that would inject syntax", () => {
    expect(() => literal("x", { lang: "en } DROP ALL" })).toThrow(/language tag/);
  });
});

describe("iri", () => {
  it.each(["http://example.org/a", "https://dbpedia.org/resource/Café_(Paris)", "urn:isbn:123", "http://ex.org/é#frag"])("accepts %s", (v) => {
    expect(iri(v)).toBe(`<${v}>`);
    expect(parseReadOnly(`ASK { ${iri(v)} ?p ?o }`).kind).toBe("ASK");
  });

  it.each([
    "http://a.org/x> } ; DROP ALL ; <x:y",
    "http://a.org/with space",
    'http://a.org/"q"',
    "http://a.org/{x}",
    "http://a.org/a|b",
    "http://a.org/a^b",
    "http://a.org/a`b",
    "http://a.org/a\\b",
    "http://a.org/\n",
    "http://a.org/\u0000",
    "relative/path",
    "",
  ])("refuses %j", (v) => {
    expect(isSafeIri(v)).toBe(false);
    try {
      iri(v);
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e, "bad_request")).toBe(true);
    }
  });
});

describe("escapeRegex", () => {
  it("makes metacharacters literal for SPARQL REGEX", () => {
    const store = new oxigraph.Store();
    const text = "a.b*c (d) [e] ^f$ g|h \\ ?+{}-";
    const q = `ASK { FILTER(REGEX(${literal(text)}, ${literal(`^${escapeRegex(text)}$`)})) }`;
    expect(store.query(q)).toBe(true);
    const q2 = `ASK { FILTER(REGEX("aXb", ${literal(escapeRegex("a.b"))})) }`;
    expect(store.query(q2)).toBe(false);
  });
});
