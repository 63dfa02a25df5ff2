// The explorer's oracles: play the model from the item's gold SPARQL to measure the ceiling of the explorer's tools.
// Both read what the tools returned and finish with the gold query in which every IRI or string literal that no tool
// (nor the schema summary) returned is replaced by a fresh variable. The gold-shape kind searches with a gold term's
// KG label / local name and keeps the gold's numbers; the question-grounded kind (`--llm oracle`) searches and plans
// only with spans of the asked question (or reviewed normalisations), and grounds every number, literal and
// LIMIT/OFFSET of its final query too (oracle-query-constants.ts).
import type { SparqlQuery } from "sparqljs";
import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import { AppError } from "@/lib/errors";
import { NS } from "@/lib/kg/profile";
import { type PlainMessage, type ReplyRequest, type ReplyValue, type Responder } from "@/lib/llm/testing/replies";
import { localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { portableGoldSparql } from "./gold";
import { dialogueTexts } from "./oracle-dialogue-texts";
import { groundMention, groundRelation, type QuestionText } from "./oracle-grounded-qir";
import { createOracleLog, ground, noteDropped, noteGrounded, noteRefused, type OracleLog } from "./oracle-grounding";
import { firstLookAlikes } from "./oracle-look-alikes";
import { createOracleResponder, fetchOracleFacts, goldPlanOf, oracleQir, withOracleLog, type OracleGateway, type OracleKgFacts } from "./oracle-llm";
import { groundQir } from "./oracle-grounded-qir";
import { lexiconNamesOf } from "./oracle-lexicon-names";
import { splitHiddenPaths } from "./oracle-paths";
import { groundQueryConstants } from "./oracle-query-constants";
import { structuralLiterals } from "./oracle-structure";
import type { BenchmarkItem } from "./types";

const STANDARD = [NS.rdf, NS.rdfs, NS.xsd, NS.owl];
const RDF_TYPE = `${NS.rdf}type`;
const SUBCLASS = `${NS.rdfs}subClassOf`;
const STRING_TYPES = new Set([`${NS.xsd}string`, `${NS.rdf}langString`]);
/** functions whose string argument only has to occur inside a stored value */
const SUBSTRING_FUNCTIONS = new Set(["contains", "strstarts", "strends", "regex"]);

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;

/** A term of the gold query the explorer must surface with its tools. */
export interface GoldTerm {
  kind: "instance" | "schema" | "literal";
  value: string;
  /** literals: an exact stored value, or a substring (CONTAINS, REGEX, …) */
  match?: "exact" | "substring";
  /** literals in a triple: the predicate that holds them (narrows the value search) */
  predicate?: string;
}

/** The IRIs (instances vs classes/properties) and string literals of a gold query, in order of appearance. */
export function goldTerms(ast: SparqlQuery, structural?: Map<object, string>): GoldTerm[] {
  const out = new Map<string, GoldTerm>();
  const add = (t: GoldTerm) => {
    const key = `${t.kind === "literal" ? "L" : "I"} ${t.value}`;
    const prev = out.get(key);
    // an IRI seen both as an instance and in a schema position stays a schema term (the summary lists it)
    if (!prev || (prev.kind === "instance" && t.kind === "schema") || (prev.match === "substring" && t.match === "exact")) out.set(key, t);
  };
  const iriOf = (v: unknown) => (isObj(v) && v.termType === "NamedNode" && typeof v.value === "string" ? v.value : undefined);
  // a structural literal (REGEX flags, IF outputs, …: lib/eval/oracle-structure.ts) is no term to search for
  const literalOf = (v: unknown) =>
    isObj(v) && v.termType === "Literal" && typeof v.value === "string" && !structural?.has(v) && (!isObj(v.datatype) || STRING_TYPES.has(String(v.datatype.value)) || v.language) ? v.value : undefined;
  const pathIris = (p: unknown, acc = new Set<string>()): Set<string> => {
    const i = iriOf(p);
    if (i) acc.add(i);
    else if (isObj(p) && Array.isArray(p.items)) p.items.forEach((x) => pathIris(x, acc));
    return acc;
  };
  const visitPath = (p: unknown) => {
    const i = iriOf(p);
    if (i) return void add({ kind: "schema", value: i });
    if (isObj(p) && Array.isArray(p.items)) p.items.forEach(visitPath);
  };
  const walk = (v: unknown, inSubstring = false): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, inSubstring));
    if (!isObj(v)) return;
    if ("subject" in v && "predicate" in v && "object" in v) {
      const p = iriOf(v.predicate);
      const onPath = pathIris(v.predicate);
      visitPath(v.predicate);
      // classes: both ends of rdfs:subClassOf, the object of rdf:type (also along a path through them)
      const schemaEnd = (end: unknown) => onPath.has(SUBCLASS) || (onPath.has(RDF_TYPE) && end === v.object);
      for (const end of [v.subject, v.object]) {
        const i = iriOf(end);
        if (i) add({ kind: schemaEnd(end) ? "schema" : "instance", value: i });
        const l = literalOf(end);
        if (l !== undefined) add({ kind: "literal", value: l, match: "exact", ...(p ? { predicate: p } : {}) });
        if (isObj(end) && !iriOf(end) && l === undefined) walk(end, inSubstring);
      }
      return;
    }
    const i = iriOf(v);
    if (i) return void add({ kind: "instance", value: i });
    const l = literalOf(v);
    if (l !== undefined) return void add({ kind: "literal", value: l, match: inSubstring ? "substring" : "exact" });
    if (v.termType === "Literal") return;
    const sub = v.type === "operation" && typeof v.operator === "string" && SUBSTRING_FUNCTIONS.has(v.operator.toLowerCase());
    for (const [k, child] of Object.entries(v)) if (k !== "prefixes" && k !== "datatype") walk(child, inSubstring || sub);
  };
  walk((ast as { where?: unknown }).where);
  walk((ast as { variables?: unknown }).variables);
  walk((ast as { having?: unknown }).having);
  walk((ast as { order?: unknown }).order);
  return [...out.values()].filter((t) => t.kind === "literal" || !STANDARD.some((ns) => t.value.startsWith(ns)));
}

/** What the conversation so far shows: IRIs and literals the tools (and the schema summary) returned, searches done. */
export interface Seen {
  iris: Set<string>;
  /** prefixes the summary and the tool outputs declared */
  prefixes: Record<string, string>;
  literals: string[];
  searches: Set<string>;
  toolTexts: string[];
}

const SEARCH_HEADERS = [/^Entities for "(.*)"/, /^No entity matches "(.*?)"/, /^Values for "(.*?)"/, /^No literal value matches "(.*?)"/, /^Schema terms for "(.*?)"/];

/** Reads the tool results (and the system prompt's schema summary) of the conversation. */
export function readSeen(messages: PlainMessage[]): Seen {
  const system = messages.filter((m) => m.role === "system").map((m) => m.text);
  const toolTexts = messages.filter((m) => m.role === "tool").map((m) => m.text);
  const texts = [...system, ...toolTexts];
  const prefixes: Record<string, string> = {};
  for (const t of system) for (const m of t.matchAll(/^PREFIX ([A-Za-z][\w.-]*)?: <([^<>\s]+)>$/gm)) prefixes[m[1] ?? ""] = m[2];
  // a tool output that writes IRIs with a prefix the summary did not declare names it in a "(prefixes: …)" line
  for (const t of toolTexts) for (const line of t.matchAll(/^\(prefixes: (.*)\)$/gm)) for (const m of line[1].matchAll(/([A-Za-z][\w.-]*): <([^<>\s]+)>/g)) prefixes[m[1]] = m[2];
  const iris = new Set<string>();
  const literals: string[] = [];
  for (const raw of texts) {
    // prefix declarations name namespaces, not terms
    const t = raw.replace(/^PREFIX .*$|^\(prefixes: .*\)$/gm, "");
    for (const m of t.matchAll(/<([a-z][\w+.-]*:[^<>"{}|^`\\\s]+)>/gi)) iris.add(m[1]);
    for (const m of t.matchAll(/(?<![\w<])([A-Za-z][\w.-]*)?:([\p{L}\p{N}_][\p{L}\p{N}_.%-]*)/gu)) {
      const ns = prefixes[m[1] ?? ""];
      if (ns !== undefined) iris.add(`${ns}${m[2].replace(/\.+$/, "")}`);
    }
    for (const m of t.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
      try {
        literals.push(JSON.parse(`"${m[1]}"`) as string);
      } catch {
        literals.push(m[1]);
      }
    }
  }
  const searches = new Set<string>();
  for (const t of toolTexts) {
    const first = t.split("\n")[0];
    for (const re of SEARCH_HEADERS) {
      const m = re.exec(first);
      if (m) searches.add(normalizeLabel(m[1].replace(/" (of|for) .*$/, "")));
    }
  }
  return { iris, prefixes, literals, searches, toolTexts };
}

function surfaced(t: GoldTerm, seen: Seen): boolean {
  if (t.kind !== "literal") return seen.iris.has(t.value);
  const want = t.value.toLowerCase();
  return t.match === "substring" ? seen.literals.some((l) => l.toLowerCase().includes(want)) : seen.literals.some((l) => l === t.value);
}

/** The words the gold-shape oracle searches a gold term with: its KG label, its local name's words (a literal: its own text). */
function searchWords(t: GoldTerm, facts: OracleKgFacts): string[] {
  if (t.kind === "literal") return [t.value];
  return [...new Set([facts.labels.get(t.value), localNameWords(t.value)].filter((w): w is string => !!w && w.trim().length > 0))];
}

/**
 * The words the question-grounded oracle searches a gold term with: spans of the question only — the question's words
 * for the term's label or local name, a reviewed normalisation, or (classes and properties) the question's words no
 * other term took. A term the question does not name gets no search: only what other searches surface can find it.
 */
function groundedSearchWords(t: GoldTerm, facts: OracleKgFacts, q: QuestionText, log: OracleLog, taken: string[], kgNames: string[] = []): string[] {
  if (t.kind === "literal") {
    const g = ground(t.value, q.text, { language: q.language });
    return g ? [noteGrounded(log, g).text] : [];
  }
  // the KG's own names of the term (a name predicate, an id) choose the span too: a thing with no label is still named
  const names = [...new Set([...searchWords(t, facts), ...kgNames])];
  const scratch = createOracleLog(log.kind); // a name not in the question is simply not searched for
  // a one-character overlap ("f" of an id) is no mention of the thing
  const out = names.map((n) => groundMention(n, q, scratch, taken)).filter((x): x is string => x !== null && x.trim().length > 1);
  // an IRI or id the question writes whole or shortened ("urn:uuid:…", "7825e759"): the question's own word
  if (t.kind === "instance") out.unshift(...idWordsFor(t.value, kgNames, q.text));
  if (t.kind === "schema") {
    const r = groundRelation(t.value, facts, q, taken, new Set(), scratch);
    if (r !== null && r !== "type") out.push(r);
  }
  for (const n of scratch.normalisations) if (!log.normalisations.includes(n)) log.normalisations.push(n);
  return [...new Set(out)];
}

/** An IRI as a tool output wrote it (`<…>` or `prefix:local`), in full. */
function expandWritten(written: string, prefixes: Record<string, string>): string | undefined {
  const b = /^<([^<>\s]+)>$/.exec(written);
  if (b) return b[1];
  const c = /^([A-Za-z][\w.-]*)?:(\S*)$/.exec(written);
  return c && prefixes[c[1] ?? ""] !== undefined ? `${prefixes[c[1] ?? ""]}${c[2]}` : undefined;
}

/** The query with some IRIs replaced by others. */
function replaceIris(ast: SparqlQuery, by: Map<string, string>): SparqlQuery {
  const map = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(map);
    if (!isObj(v)) return v;
    if (v.termType === "NamedNode" && by.has(String(v.value))) return { termType: "NamedNode", value: by.get(String(v.value)) };
    if (v.termType) return v;
    return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, k === "prefixes" ? c : map(c)]));
  };
  return map(ast) as SparqlQuery;
}

/** The question's words (6+ characters with a digit) that are the IRI, or start its last segment or one of its names. */
function idWordsFor(value: string, names: string[], question: string): string[] {
  const last = value.slice(Math.max(value.lastIndexOf("/"), value.lastIndexOf("#"), value.lastIndexOf(":")) + 1).toLowerCase();
  const words = question.split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}<]+|[^\p{L}\p{N}>]+$/gu, "").replace(/^<(.*)>$/, "$1"));
  return [...new Set(words.filter((w) => w.length >= 6 && /\d/.test(w) && (w === value || [last, ...names.map((n) => n.toLowerCase())].some((n) => n.startsWith(w.toLowerCase())))))];
}

/** The gold query with every term no tool surfaced replaced by a fresh variable (what the explorer could not find). */
export function withoutMissing(ast: SparqlQuery, missing: GoldTerm[]): string {
  const iris = new Set(missing.filter((m) => m.kind !== "literal").map((m) => m.value));
  const literals = new Set(missing.filter((m) => m.kind === "literal").map((m) => m.value));
  let n = 0;
  const fresh = new Map<string, Node>();
  const variableFor = (key: string): Node => {
    let v = fresh.get(key);
    if (!v) {
      v = { termType: "Variable", value: `oracle_missing_${++n}` };
      fresh.set(key, v);
    }
    return v;
  };
  const map = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(map);
    if (!isObj(v)) return v;
    if (v.termType === "NamedNode" && iris.has(String(v.value))) return variableFor(`I ${String(v.value)}`);
    if (v.termType === "Literal" && literals.has(String(v.value))) return variableFor(`L ${String(v.value)}`);
    if (v.termType) return v;
    return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, k === "prefixes" ? c : map(c)]));
  };
  // a path cannot hold a variable: a path through a missing IRI is first split into plain triples
  return stringifySparql(map(splitHiddenPaths(ast, (i) => iris.has(i))) as SparqlQuery);
}

/** What execute_sparql (and the finish check) answer: rows of a query the oracle wrote, or a refusal. */
const RAN = /^(\d+ rows?,|more than \d+ rows|0 rows|ASK → |The query failed|The query was not run)/;
const EXECUTED = new RegExp(`${RAN.source}|^Not accepted:`);
/** What describe_entity answers: `<iri> "name": 3 outgoing triples, 2 incoming triples` */
const DESCRIBED = /^(<[^<>\s]+>|\S+)( ".*")?: \d+ (outgoing|incoming) triples?/;

const toolCall = (name: string, input: Record<string, unknown>): ReplyValue => ({ toolCall: { name, input } });

/**
 * The explorer role's replies for one item: a plan, one search per gold term still hidden (label words first, then
 * local-name words), then execute_sparql and finish with the gold query minus what stayed hidden. A refused empty
 * result is finished again (the KG has no answer); any other refusal ends with cannot_answer, giving the reason.
 */
export function createExplorerOracle(goldSparql: string, facts: OracleKgFacts, grounded?: GroundedExplorer): (request: ReplyRequest) => ReplyValue {
  const sparql = portableGoldSparql(goldSparql);
  let ast: SparqlQuery;
  try {
    ast = parseSparql(sparql);
  } catch (e) {
    throw new AppError("bad_request", `Oracle: the gold SPARQL cannot be parsed (${(e as Error).message.split("\n")[0]}).`);
  }
  const terms = goldTerms(ast, grounded ? structuralLiterals(ast, grounded.question.text) : undefined);
  const words = new Map<GoldTerm, string[]>();
  if (grounded) {
    const taken: string[] = [];
    // instances and values first: the relation words are what they leave
    for (const t of [...terms.filter((x) => x.kind !== "schema"), ...terms.filter((x) => x.kind === "schema")]) {
      const w = groundedSearchWords(t, facts, grounded.question, grounded.log, taken, grounded.kgNames?.get(t.value));
      if (t.kind !== "schema") taken.push(...w);
      words.set(t, w);
    }
  }
  const wordsOf = (t: GoldTerm) => (grounded ? (words.get(t) ?? []) : searchWords(t, facts));
  const describedIris = new Set<string>();
  const valueSearched = new Set<string>();
  return ({ messages }) => {
    const all = readSeen(messages);
    // the question-grounded kind never reads the rows of the query it ran (they are the gold's answer): what it may
    // write comes from the searches and the schema summary
    const unexecuted = messages.filter((m) => !(m.role === "tool" && EXECUTED.test(m.text)));
    // it describes found things only to see their properties: the IRIs and values a description shows are not taken
    const described = grounded ? readSeen(unexecuted) : all;
    const seen = grounded ? readSeen(unexecuted.filter((m) => !(m.role === "tool" && DESCRIBED.test(m.text)))) : all;
    for (const t of terms) if (t.kind === "schema" && described.iris.has(t.value)) seen.iris.add(t.value);
    if (all.toolTexts.length === 0) {
      const find = grounded
        ? terms.filter((t) => t.kind !== "schema").flatMap((t) => (wordsOf(t)[0] ? [`"${wordsOf(t)[0]}"`] : []))
        : terms.filter((t) => t.kind !== "schema").map((t) => (t.kind === "literal" ? `the value "${t.value}"` : `"${searchWords(t, facts)[0] ?? t.value}"`));
      return toolCall("plan", { steps: [...(find.length ? [`find ${find.join(", ")}`] : []), "write the query, test it, finish"] });
    }
    for (const t of terms) {
      if (surfaced(t, seen)) continue;
      const next = wordsOf(t).find((w) => !seen.searches.has(normalizeLabel(w)));
      // a thing no entity search found may be named by a value (a code in a predicate no lexicon reads as a name)
      const asValue = grounded && t.kind === "instance" && !next ? wordsOf(t).find((w) => !valueSearched.has(w)) : undefined;
      if (asValue !== undefined) {
        valueSearched.add(asValue);
        return toolCall("search_values", { query: asValue });
      }
      if (!next) continue; // searched every allowed way: missing
      if (t.kind === "instance") return toolCall("search_entities", { query: next });
      if (t.kind === "schema") return toolCall("search_schema", { query: next });
      return toolCall("search_values", { query: next, ...(t.predicate && seen.iris.has(t.predicate) ? { property: `<${t.predicate}>` } : {}) });
    }
    // properties no search found: described found things show theirs (what a model explores next)
    if (grounded && terms.some((t) => t.kind === "schema" && !surfaced(t, seen))) {
      const next = terms.find((t) => t.kind === "instance" && surfaced(t, seen) && !describedIris.has(t.value));
      if (next) {
        describedIris.add(next.value);
        return toolCall("describe_entity", { iri: `<${next.value}>` });
      }
    }
    const missing = terms.filter((t) => !surfaced(t, seen));
    // same-named options the outputs cannot tell apart: the first listed stands in for the gold's (question-grounded)
    const alike = grounded ? firstLookAlikes(terms.filter((t) => t.kind === "instance" && surfaced(t, seen)).map((t) => t.value), seen.toolTexts, (w) => expandWritten(w, seen.prefixes)) : new Map();
    for (const [gold, a] of alike) noteRefused(grounded!.log, gold, `${a.alike} options of its types bear its name or the searched one; the first listed, <${a.first}>, was taken`);
    const chosen = alike.size ? replaceIris(ast, new Map([...alike].map(([g, a]) => [g, a.first]))) : ast;
    let final = missing.length ? withoutMissing(chosen, missing) : alike.size ? stringifySparql(chosen) : sparql;
    if (grounded) {
      const log = createOracleLog(grounded.log.kind); // counted once, on the query it finishes with
      for (const m of missing) noteDropped(log, m.kind === "literal" ? `literal ${JSON.stringify(m.value)}` : `iri <${m.value}>`);
      const g = groundQueryConstants(final, { question: grounded.question.text, language: grounded.question.language, iris: seen.iris, texts: seen.literals }, log, (i) => seen.iris.has(i));
      final = g.sparql;
      grounded.log.dropped.splice(0, grounded.log.dropped.length, ...log.dropped);
      for (const n of log.normalisations) if (!grounded.log.normalisations.includes(n)) grounded.log.normalisations.push(n);
    }
    const last = all.toolTexts[all.toolTexts.length - 1] ?? "";
    const executed = all.toolTexts.some((t) => RAN.test(t));
    if (!executed) return toolCall("execute_sparql", { sparql: final });
    if (/^Not accepted:/.test(last)) {
      if (/returned no rows/.test(last) && !all.toolTexts.slice(0, -1).some((t) => /returned no rows/.test(t))) return toolCall("finish", { sparql: final });
      return toolCall("cannot_answer", { reason: `oracle: the gold query (minus ${missing.length} term(s) no tool returned) was refused: ${last.slice(0, 300)}` });
    }
    return toolCall("finish", { sparql: final });
  };
}

/** The question-grounded kind's inputs: the asked question, its log, and the KG's names of the gold's IRIs. */
export interface GroundedExplorer {
  question: QuestionText;
  log: OracleLog;
  kgNames?: Map<string, string[]>;
}

/** Wraps a responder for the other roles so the explorer role is played from the gold. */
export function withExplorerOracle(goldSparql: string, facts: OracleKgFacts, others: Responder, grounded?: GroundedExplorer): Responder {
  const explorer = createExplorerOracle(goldSparql, facts, grounded);
  return (request) => (request.role === "explorer" ? explorer(request) : others(request));
}

/** The gold query's non-standard IRIs (none when it does not parse: the oracle reports that itself). */
function goldIris(goldSparql: string): string[] {
  try {
    return goldTerms(parseSparql(portableGoldSparql(goldSparql))).flatMap((t) => (t.kind === "literal" ? [] : [t.value]));
  } catch {
    return [];
  }
}

/** A fresh scripted LLM for one item (gold-shape kind): the Chat agent as Chatty-KG's oracle plays it, the explorer from the gold. */
export async function createExplorerOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, signal?: AbortSignal): Promise<OracleGateway> {
  const plan = goldPlanOf(item);
  const facts = await fetchOracleFacts(kg, plan, signal);
  const log = createOracleLog("gold-shape");
  const fallback = withExplorerOracle(item.goldSparql ?? "", facts, createOracleResponder(item, facts, plan, { log }));
  return withOracleLog(createScriptedLlm({}, { fallback }).gateway, log);
}

/** The question-grounded kind (`--llm oracle`): searches, plan and final constants from the asked question and the tools. */
export async function createGroundedExplorerOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, signal?: AbortSignal): Promise<OracleGateway> {
  const plan = goldPlanOf(item);
  const facts = await fetchOracleFacts(kg, plan, signal);
  const log = createOracleLog("question-grounded");
  const texts = dialogueTexts(item, log);
  const question = { text: texts.groundOn, language: texts.groundLanguage };
  // the Chat agent's QIR draft is grounded too (the explorer does not read it, the tool call carries it)
  const grounding = groundQir(oracleQir(plan, facts), plan, facts, question, createOracleLog("question-grounded"));
  const kgNames = await lexiconNamesOf(kg, goldIris(item.goldSparql ?? ""), signal);
  const fallback = withExplorerOracle(item.goldSparql ?? "", facts, createOracleResponder(item, facts, plan, { grounding, log }), { question, log, kgNames });
  return withOracleLog(createScriptedLlm({}, { fallback }).gateway, log);
}
