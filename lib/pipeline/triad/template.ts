// Triad's SPARQL templates: any SPARQL 1.1 SELECT/ASK whose entities are slots <e0>, <e1>… and relations <r0>, <r1>…,
// parsed with sparqljs (a parse error is returned as the parser's message, for the G-agent's retry), and filled per candidate.
import { parseSparql } from "@/lib/kg/sparql-syntax";
import type * as Sparql from "sparqljs";
import { NS } from "@/lib/kg/profile";
import { WELL_KNOWN_PREFIXES } from "@/lib/kg/well-known-prefixes";
import type { Validation } from "@/lib/pipeline/common/validated-call";
import { literal, namedNode, stringify } from "@/lib/pipeline/common/sparql-ast";

/** Relative slot IRIs (<e0>) resolve against this base; it never names anything in a KG. */
export const SLOT_BASE = "http://triad-slot.invalid/";
const SLOT_ID = /^[er]\d{1,2}$/;
/** Vocabulary a template may name itself (rdf:type as `a`, datatypes in casts, rdfs:label): everything else is a slot. */
const ALLOWED_NAMESPACES = [NS.rdf, NS.rdfs, NS.xsd, NS.owl];
const TEMPLATE_PREFIXES = WELL_KNOWN_PREFIXES;

export interface ParsedTemplate {
  /** the template as the G-agent should read it back: slots written <e0>, no BASE line */
  text: string;
  kind: "SELECT" | "ASK";
  ast: Sparql.SelectQuery | Sparql.AskQuery;
  /** slot ids in order: e0, e1, … then r0, r1, … */
  entitySlots: string[];
  relationSlots: string[];
}

export const slotIri = (id: string) => `${SLOT_BASE}${id}`;

/** "e0" for the slot IRI of <e0>, else undefined. */
export function slotIdOf(iri: string): string | undefined {
  if (!iri.startsWith(SLOT_BASE)) return undefined;
  const id = iri.slice(SLOT_BASE.length);
  return SLOT_ID.test(id) ? id : undefined;
}

type Term = { termType: string; value: string };
type Position = "subject" | "predicate" | "object" | "function" | "other";

const isTerm = (n: unknown): n is Term => typeof n === "object" && n !== null && "termType" in n;
const isTriple = (n: Record<string, unknown>) => "subject" in n && "predicate" in n && "object" in n;

/**
 * Rebuilds an AST with every IRI (named node) passed through `onIri`; literals, variables and blank nodes are kept.
 * `onTriple` may rewrite a triple after its terms were mapped (to reverse it). Path items count as predicates.
 */
export function mapIris(
  node: unknown,
  onIri: (term: Term, position: Position, inPath: boolean) => unknown,
  onTriple?: (triple: Sparql.Triple, original: Sparql.Triple) => Sparql.Triple,
  position: Position = "other",
  inPath = false,
): unknown {
  if (Array.isArray(node)) return node.map((n) => mapIris(n, onIri, onTriple, position, inPath));
  if (typeof node !== "object" || node === null) return node;
  if (isTerm(node)) return node.termType === "NamedNode" ? onIri(node, position, inPath) : node;
  const o = node as Record<string, unknown>;
  if (isTriple(o)) {
    const mapped = {
      ...o,
      subject: mapIris(o.subject, onIri, onTriple, "subject"),
      predicate: mapIris(o.predicate, onIri, onTriple, "predicate"),
      object: mapIris(o.object, onIri, onTriple, "object"),
    } as unknown as Sparql.Triple;
    return onTriple ? onTriple(mapped, o as unknown as Sparql.Triple) : mapped;
  }
  if (o.type === "path") return { ...o, items: mapIris(o.items, onIri, onTriple, "predicate", true) };
  if (o.type === "functionCall") return { ...o, function: o.function, args: mapIris(o.args, onIri, onTriple, "other") };
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === "prefixes" || k === "base" ? v : mapIris(v, onIri, onTriple, "other")]));
}

/** The parser's own words, trimmed: line, the snippet with its caret, and what it expected (the model fixes the template from it). */
function parserMessage(e: unknown): string {
  const err = e as { message?: string; hash?: { expected?: string[]; token?: string } };
  const lines = (err.message ?? String(e)).split("\n");
  if (!/^Parse error/.test(lines[0] ?? "")) return lines[0] ?? "unknown parser error";
  const expected = err.hash?.expected?.slice(0, 10).join(", ");
  const got = err.hash?.token ? `, got '${err.hash.token}'` : "";
  return `${lines.slice(0, 3).join("\n")}\n${expected ? `Expecting one of ${expected}${got}` : lines.slice(3).join(" ").slice(0, 300)}`;
}

/** The template text from a reply: the contents of a ```sparql block if there is one. */
export function templateText(raw: string): string {
  const m = /```[a-zA-Z]*[^\S\n]*\n?([\s\S]*?)```/.exec(raw);
  return (m ? m[1] : raw).trim();
}

/** The slot form of an AST: slot IRIs written back as <e0>, no BASE or PREFIX lines (other IRIs in full). */
export function displayTemplate(ast: Sparql.SparqlQuery): string {
  const text = stringify({ ...ast, prefixes: {}, base: undefined } as Sparql.SparqlQuery);
  return text.split(`<${SLOT_BASE}`).join("<");
}

/**
 * Parses and checks a template. The reason of a refusal is written for the model: the parser's message for bad
 * syntax, else which slot or IRI is wrong.
 */
export function parseTemplate(raw: string): Validation<ParsedTemplate> {
  const text = templateText(raw);
  if (!text) return { ok: false, reason: "the template is empty" };
  let parsed: Sparql.SparqlQuery;
  try {
    parsed = parseSparql(text, { baseIRI: SLOT_BASE, prefixes: { ...TEMPLATE_PREFIXES } });
  } catch (e) {
    return { ok: false, reason: `the SPARQL template does not parse:\n${parserMessage(e)}` };
  }
  if (parsed.type !== "query" || (parsed.queryType !== "SELECT" && parsed.queryType !== "ASK")) {
    return { ok: false, reason: "the template must be a SELECT or ASK query (read-only)" };
  }
  const problems = new Set<string>();
  const order: string[] = [];
  mapIris(parsed.where ?? [], (term, position) => {
    const id = slotIdOf(term.value);
    if (id) {
      if (!order.includes(id)) order.push(id);
      if (id.startsWith("r") && position !== "predicate") problems.add(`relation slot <${id}> is used as a subject or object; relation slots are predicates`);
      if (id.startsWith("e") && position === "predicate") problems.add(`entity slot <${id}> is used as a predicate; use a relation slot <rN> there`);
    } else if (term.value.startsWith(SLOT_BASE)) {
      problems.add(`<${term.value.slice(SLOT_BASE.length)}> is not a slot: write entity slots <e0>, <e1>… and relation slots <r0>, <r1>…`);
    } else if (!ALLOWED_NAMESPACES.some((ns) => term.value.startsWith(ns))) {
      problems.add(`the template names the IRI <${term.value}>: replace it with a slot (<eN> for an entity, <rN> for a relation) and say in "slots" what it stands for`);
    }
    return term;
  });
  if (JSON.stringify(parsed.where ?? []).includes('"type":"service"')) problems.add("SERVICE (a query to another endpoint) is not allowed");
  if (problems.size) return { ok: false, reason: [...problems].join("; ") };
  const bySlotNumber = (a: string, b: string) => Number(a.slice(1)) - Number(b.slice(1));
  return {
    ok: true,
    value: {
      text: displayTemplate(parsed),
      kind: parsed.queryType,
      ast: parsed as Sparql.SelectQuery | Sparql.AskQuery,
      entitySlots: order.filter((s) => s.startsWith("e")).sort(bySlotNumber),
      relationSlots: order.filter((s) => s.startsWith("r")).sort(bySlotNumber),
    },
  };
}

export type SlotFiller = { kind: "iri"; iri: string } | { kind: "literal"; value: string } | { kind: "predicate"; iri: string; reversed: boolean; covers?: string[] };

/** The predicate, or `(p|sub1|sub2…)` for a parent property that covers its sub-properties. */
const predicateTerm = (f: { iri: string; covers?: string[] }) =>
  f.covers && f.covers.length > 1 ? { type: "path", pathType: "|", items: f.covers.map((c) => namedNode(c)) } : namedNode(f.iri);
const inverse = (f: { iri: string; covers?: string[] }) => ({ type: "path", pathType: "^", items: [predicateTerm(f)] });

/**
 * The runnable query for one choice of fillers: entity slots become IRIs (or plain literals), relation slots predicates
 * (a reversed one swaps its triple's ends, or becomes ^p inside a property path); a SELECT gets at most `rowLimit` rows.
 * A filler that is not a usable IRI throws AppError("bad_request") (namedNode refuses it).
 */
export function fillTemplate(template: ParsedTemplate, fillers: Record<string, SlotFiller>, rowLimit: number): string {
  const onIri = (term: Term, _position: Position, inPath: boolean) => {
    const id = slotIdOf(term.value);
    const f = id ? fillers[id] : undefined;
    if (!id) return term;
    if (!f) throw new Error(`no filler for slot ${id}`);
    if (f.kind === "literal") return literal(f.value);
    if (f.kind === "predicate" && f.reversed && inPath) return inverse(f);
    if (f.kind === "predicate") return predicateTerm(f);
    return namedNode(f.iri);
  };
  const onTriple = (t: Sparql.Triple, original: Sparql.Triple): Sparql.Triple => {
    const p = original.predicate as Term;
    const id = isTerm(p) ? slotIdOf(p.value) : undefined;
    const f = id ? fillers[id] : undefined;
    return f?.kind === "predicate" && f.reversed ? { ...t, subject: t.object, object: t.subject } as Sparql.Triple : t;
  };
  const where = mapIris(template.ast.where ?? [], onIri, onTriple) as Sparql.Pattern[];
  const rest = mapIris({ ...template.ast, where: undefined }, onIri, onTriple) as Sparql.SparqlQuery;
  const query = { ...rest, where, prefixes: {}, base: undefined } as Sparql.SelectQuery | Sparql.AskQuery;
  if (query.queryType === "SELECT" && (query.limit === undefined || query.limit > rowLimit)) query.limit = rowLimit;
  return stringify(query);
}
