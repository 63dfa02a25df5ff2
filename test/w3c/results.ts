// Expected results of the W3C evaluation tests, read into one shape: SPARQL XML (.srx), JSON (.srj), TSV, CSV, and RDF
// (.ttl/.rdf) that is either a DAWG result set (rs:ResultSet) or the graph a CONSTRUCT should return.
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import oxigraph from "oxigraph";

export interface RdfTerm {
  type: "uri" | "bnode" | "literal";
  value: string;
  lang?: string;
  datatype?: string;
}
export type Row = Record<string, RdfTerm>;
export type Expected =
  | { kind: "bindings"; rows: Row[]; ordered?: boolean; csv?: boolean }
  | { kind: "boolean"; value: boolean }
  | { kind: "graph"; triples: [RdfTerm, RdfTerm, RdfTerm][] };

const XSD = "http://www.w3.org/2001/XMLSchema#";
const RS = "http://www.w3.org/2001/sw/DataAccess/tests/result-set#";

/** RDF 1.1: a simple literal is an xsd:string; language tags compare case-insensitively. */
export function normalTerm(t: RdfTerm): RdfTerm {
  if (t.type !== "literal") return { type: t.type, value: t.value };
  if (t.lang) return { type: "literal", value: t.value, lang: t.lang.toLowerCase() };
  if (t.datatype && t.datatype !== `${XSD}string`) return { type: "literal", value: t.value, datatype: t.datatype };
  return { type: "literal", value: t.value };
}

/** SPARQL JSON's term (`typed-literal` is the 2008 draft's name for a literal with a datatype). */
export function fromJsonTerm(t: { type: string; value: string; "xml:lang"?: string; datatype?: string }): RdfTerm {
  const type = t.type === "typed-literal" ? "literal" : (t.type as RdfTerm["type"]);
  return normalTerm({ type, value: t.value, lang: t["xml:lang"], datatype: t.datatype });
}

function fromRdfjs(t: { termType: string; value: string; language?: string; datatype?: { value: string } }): RdfTerm {
  if (t.termType === "NamedNode") return { type: "uri", value: t.value };
  if (t.termType === "BlankNode") return { type: "bnode", value: t.value };
  return normalTerm({ type: "literal", value: t.value, lang: t.language || undefined, datatype: t.datatype?.value });
}

const XML_ENTITY: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const xmlText = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === "#" ? String.fromCodePoint(e[1].toLowerCase() === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (XML_ENTITY[e] ?? m),
  );
const attr = (attrs: string, name: string) => {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? xmlText(m[2] ?? m[3]) : undefined;
};

/** SPARQL Query Results XML: the format is regular enough for a few patterns (no DTD, no nesting beyond results). */
function readSrx(text: string): Expected {
  const bool = /<boolean>\s*(true|false)\s*<\/boolean>/.exec(text);
  if (bool) return { kind: "boolean", value: bool[1] === "true" };
  const rows: Row[] = [];
  for (const r of text.matchAll(/<result(?:\s[^>]*)?>([\s\S]*?)<\/result>|<result\s*\/>/g)) {
    const row: Row = {};
    for (const b of (r[1] ?? "").matchAll(/<binding\s+name\s*=\s*["']([^"']+)["']\s*>\s*([\s\S]*?)\s*<\/binding>/g)) {
      const body = b[2];
      const uri = /^<uri>([\s\S]*?)<\/uri>$/.exec(body);
      const bnode = /^<bnode>([\s\S]*?)<\/bnode>$/.exec(body);
      const lit = /^<literal((?:\s[^>]*)?)(?:\/>|>([\s\S]*?)<\/literal>)$/.exec(body);
      if (uri) row[b[1]] = { type: "uri", value: xmlText(uri[1].trim()) };
      else if (bnode) row[b[1]] = { type: "bnode", value: bnode[1].trim() };
      else if (lit) row[b[1]] = normalTerm({ type: "literal", value: xmlText(lit[2] ?? ""), lang: attr(lit[1], "xml:lang"), datatype: attr(lit[1], "datatype") });
      else throw new Error(`unreadable binding ${b[1]}: ${body.slice(0, 80)}`);
    }
    rows.push(row);
  }
  return { kind: "bindings", rows };
}

function readSrj(text: string): Expected {
  const json = JSON.parse(text) as { boolean?: boolean; results?: { bindings: Record<string, { type: string; value: string }>[] } };
  if (typeof json.boolean === "boolean") return { kind: "boolean", value: json.boolean };
  return { kind: "bindings", rows: (json.results?.bindings ?? []).map((b) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, fromJsonTerm(v)]))) };
}

/** One TSV cell: a term in SPARQL/Turtle syntax, numbers and booleans in their short forms. */
function tsvTerm(cell: string): RdfTerm | undefined {
  if (cell === "") return undefined;
  if (cell.startsWith("<") && cell.endsWith(">")) return { type: "uri", value: cell.slice(1, -1) };
  if (cell.startsWith("_:")) return { type: "bnode", value: cell.slice(2) };
  const lit = /^"((?:[^"\\]|\\.)*)"(?:@([A-Za-z0-9-]+)|\^\^<([^>]*)>)?$/.exec(cell);
  if (lit) {
    const value = lit[1].replace(/\\(.)/g, (_, c: string) => ({ t: "\t", n: "\n", r: "\r", b: "\b", f: "\f" })[c] ?? c);
    return normalTerm({ type: "literal", value, lang: lit[2], datatype: lit[3] });
  }
  if (/^[+-]?\d+$/.test(cell)) return { type: "literal", value: cell, datatype: `${XSD}integer` };
  if (/^[+-]?\d*\.\d+$/.test(cell)) return { type: "literal", value: cell, datatype: `${XSD}decimal` };
  if (/^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(cell)) return { type: "literal", value: cell, datatype: `${XSD}double` };
  if (cell === "true" || cell === "false") return { type: "literal", value: cell, datatype: `${XSD}boolean` };
  throw new Error(`unreadable TSV cell ${cell}`);
}

function readTsv(text: string): Expected {
  const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
  const vars = lines[0].split("\t").map((v) => v.replace(/^[?$]/, ""));
  const rows = lines.slice(1).map((line) => {
    const cells = line.split("\t");
    const row: Row = {};
    vars.forEach((v, i) => {
      const t = tsvTerm(cells[i] ?? "");
      if (t) row[v] = t;
    });
    return row;
  });
  return { kind: "bindings", rows };
}

/** CSV keeps only the text of each term; a row is compared as those texts (`csv: true`). */
function readCsv(text: string): Expected {
  const records: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  const endRow = () => {
    endCell();
    records.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else cell += c;
  }
  if (cell !== "" || row.length) endRow();
  const [head, ...body] = records;
  const rows = body.map((r) => {
    const out: Row = {};
    head.forEach((v, i) => {
      if ((r[i] ?? "") !== "") out[v] = { type: "literal", value: r[i] };
    });
    return out;
  });
  return { kind: "bindings", rows, csv: true };
}

/** RDF results: a DAWG rs:ResultSet (ordered when its solutions carry rs:index), else the expected graph. */
function readRdf(file: string, format: string): Expected {
  const store = new oxigraph.Store();
  store.load(fs.readFileSync(file, "utf8"), { format, base_iri: pathToFileURL(file).href });
  const q = (sparql: string) => store.query(sparql) as Map<string, { termType: string; value: string }>[];
  const set = q(`SELECT ?rs WHERE { ?rs a <${RS}ResultSet> }`);
  if (set.length === 0) {
    const quads = store.match(null, null, null, null) as unknown as { subject: never; predicate: never; object: never }[];
    return { kind: "graph", triples: quads.map((t) => [fromRdfjs(t.subject), fromRdfjs(t.predicate), fromRdfjs(t.object)]) };
  }
  const bool = q(`SELECT ?b WHERE { ?rs <${RS}boolean> ?b }`);
  if (bool.length) return { kind: "boolean", value: bool[0].get("b")!.value === "true" };
  const byIndex = new Map<string, { index?: number; row: Row }>();
  const rows = q(`SELECT ?s ?i ?var ?val WHERE { ?rs <${RS}solution> ?s OPTIONAL { ?s <${RS}index> ?i } OPTIONAL { ?s <${RS}binding> [ <${RS}variable> ?var ; <${RS}value> ?val ] } }`);
  for (const r of rows) {
    const key = r.get("s")!.value;
    const entry = byIndex.get(key) ?? { index: r.get("i") ? Number(r.get("i")!.value) : undefined, row: {} };
    if (r.get("var")) entry.row[r.get("var")!.value] = fromRdfjs(r.get("val") as never);
    byIndex.set(key, entry);
  }
  const entries = [...byIndex.values()];
  const ordered = entries.length > 0 && entries.every((e) => e.index !== undefined);
  if (ordered) entries.sort((a, b) => a.index! - b.index!);
  return { kind: "bindings", rows: entries.map((e) => e.row), ordered };
}

export function readExpected(file: string): Expected {
  const ext = file.split(".").pop()!.toLowerCase();
  const text = () => fs.readFileSync(file, "utf8");
  switch (ext) {
    case "srx":
      return readSrx(text());
    case "srj":
      return readSrj(text());
    case "tsv":
      return readTsv(text());
    case "csv":
      return readCsv(text());
    case "ttl":
      return readRdf(file, "text/turtle");
    case "rdf":
      return readRdf(file, "application/rdf+xml");
    case "nt":
      return readRdf(file, "application/n-triples");
    default:
      throw new Error(`no reader for expected results ${file}`);
  }
}
