// Triad's oracles: the G-agent's template is the item's GOLD query with its IRIs replaced by slots; the D-agent's
// choices are made from the candidates the pipeline really surfaced, by label (as the Chatty-KG oracle chooses
// vertices and predicates). The gold-shape kind names slots by their gold labels and keeps every constant; the
// question-grounded kind (`--llm oracle`) writes slot descriptions and triplets as spans of the asked question and
// makes every entity, literal, number or LIMIT/OFFSET the question does not ground a variable (or drops it).
import { AppError } from "@/lib/errors";
import { compactIri, localName } from "@/lib/kg/profile";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { lastUserText, type ReplyRequest, type ReplyValue, type Responder } from "@/lib/llm/testing/replies";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { oracleLexicon } from "./oracle-lexicon-names";
import { localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";
import { answerTypeOf } from "@/lib/pipeline/triad/examples";
import { templateFromQuery, type TemplateOfQuery } from "@/lib/pipeline/triad/template-from-query";
import { nodeText, templateTriples } from "@/lib/pipeline/triad/template-triples";
import { portableGoldSparql } from "./gold";
import { fetchOracleFacts, type OracleKgFacts } from "./oracle-llm-facts";
import { goldPlanOf } from "./oracle-llm";
import { dialogueTexts } from "./oracle-dialogue-texts";
import { groundMention, groundRelation } from "./oracle-grounded-qir";
import { createOracleLog, type OracleLog } from "./oracle-grounding";
import { groundQueryConstants } from "./oracle-query-constants";
import { withOracleLog, type OracleGateway } from "./oracle-llm";
import type { BenchmarkItem } from "./types";

/** The words a gold IRI is mentioned by: its KG label, else its local name in words. */
function wordsOf(iri: string, facts: OracleKgFacts): string {
  return facts.labels.get(iri) ?? (localNameWords(iri) || localName(iri));
}

/** A name as words for comparison: CamelCase and separators read as word breaks ("GateLogicKind" = "gate logic kind"). */
const asWords = (text: string) => normalizeLabel(text.replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").replace(/[_\-.]+/g, " "));

/** The oracle's facts plus, per gold IRI, the names the KG lexicon gives it (names in the KG's own predicates). */
export type TriadOracleFacts = OracleKgFacts & { names?: Map<string, string[]> };

/** Every name a gold IRI goes by: its label (else local-name words), then its lexicon names. */
export function namesOfIri(iri: string, facts: TriadOracleFacts): string[] {
  // the IRI's local name as written ("2751922a-47e7-…") last: a question may quote an id's first part
  return [...new Set([wordsOf(iri, facts), ...(facts.names?.get(iri) ?? []), localName(iri)])].filter((n) => n.trim() !== "");
}

/**
 * The names the KG lexicon gives gold IRIs (a name in the KG's own predicate, e.g. a `…name` literal): the pipeline
 * shows such vertices by that name, so the oracle must know them by it too. Local names are already in `wordsOf`.
 */
export async function withOracleLexiconNames(facts: OracleKgFacts, kg: KnowledgeGraph, iris: string[], signal?: AbortSignal): Promise<TriadOracleFacts> {
  const lexicon = await oracleLexicon(kg, signal);
  const names = new Map<string, string[]>();
  for (const i of new Set(iris)) {
    const own = lexicon.namesOf(i).filter((n) => n.source.kind === "predicate").map((n) => n.text);
    if (own.length) names.set(i, own);
  }
  return { ...facts, names };
}

/** The span is whole words of the question: not cut inside a word ("2751922" of "2751922a"). */
function wordComplete(span: string, question: string): boolean {
  const lower = question.toLowerCase();
  const at = lower.indexOf(span.toLowerCase());
  if (at < 0) return true;
  const before = at > 0 ? lower[at - 1] : " ";
  const after = lower[at + span.length] ?? " ";
  return !/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after);
}

/**
 * The question's span for one of the IRI's names: a name the question writes whole first (an id's local name read as
 * words overlaps a question in stray letters and digits: "f" of "f17695da"), else a span of whole question words
 * (not "2751922" cut from "2751922a"), else the first that grounds at all; the first name's refusal is logged otherwise.
 */
export function groundAnyName(names: string[], q: { text: string; language: string }, log: OracleLog, taken: string[]): string | null {
  const spans = names.map((name) => ({ name, span: groundMention(name, q, createOracleLog("question-grounded"), taken) }));
  const grounded = spans.filter((x): x is { name: string; span: string } => x.span !== null);
  const pick =
    grounded.find((x) => asWords(x.span) === asWords(x.name)) ?? grounded.find((x) => wordComplete(x.span, q.text)) ?? grounded[0];
  const span = groundMention(pick?.name ?? names[0], q, log, taken);
  if (span === null) return null;
  const whole = wordComplete(span, q.text) ? span : (wholeWordOf(span, q.text, names) ?? span);
  return idWordOf(whole, names) ?? whole;
}

const compactText = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/**
 * An id the question quotes by its first part, out of a span of several words that overlapped the IRI's id words
 * ("793fb1c9 and the stage trigger dcca331c" → "793fb1c9"): the word (with a digit, 6+ characters) that begins a name.
 */
function idWordOf(span: string, names: string[]): string | null {
  const words = span.split(/\s+/);
  if (words.length < 2) return null;
  return words.find((w) => /\d/.test(w) && compactText(w).length >= 6 && names.some((n) => compactText(n).startsWith(compactText(w)))) ?? null;
}

/** The question's whole word around a cut span, when that word begins one of the names (an id quoted by its first part). */
function wholeWordOf(span: string, question: string, names: string[]): string | null {
  const at = question.toLowerCase().indexOf(span.toLowerCase());
  if (at < 0) return null;
  let i = at;
  let j = at + span.length;
  while (i > 0 && /[\p{L}\p{N}]/u.test(question[i - 1])) i--;
  while (j < question.length && /[\p{L}\p{N}]/u.test(question[j])) j++;
  const word = question.slice(i, j);
  return names.some((n) => compactText(n).startsWith(compactText(word))) ? word : null;
}

/** The G-agent's reply: the gold template, each slot named by the label of the IRI it replaced (or by `describe`). */
export function oracleGeneralist(gold: TemplateOfQuery, facts: OracleKgFacts, describe?: (slot: string, iri: string) => string): Record<string, unknown> {
  const slots = Object.fromEntries(Object.entries(gold.slots).map(([id, iri]) => [id, describe ? describe(id, iri) : wordsOf(iri, facts)]));
  const triplets = templateTriples(gold.template.ast.where).map((t) => [
    nodeText(t.s, slots).replace(/^"(.*)"$/, "$1"),
    t.p.kind === "slot" ? slots[t.p.id] : t.p.kind === "var" ? `?${t.p.name}` : describe ? "type" : localNameWords(t.p.iri),
    nodeText(t.o, slots).replace(/^"(.*)"$/, "$1"),
  ]);
  return { triplets, template: gold.template.text, slots, answer_type: answerTypeOf(gold.template) };
}

interface Block {
  slot: string;
  options: { n: number; text: string }[];
}

/** The slot blocks of a D-agent selection prompt: `Slot e0: "…"` then `Options:` and `N. text` lines. */
export function parseSlotPrompt(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (const line of text.split("\n")) {
    const m = /^Slot ([er]\d+): /.exec(line);
    if (m) {
      current = { slot: m[1], options: [] };
      blocks.push(current);
      continue;
    }
    const o = /^(\d+)\. (.*)$/.exec(line);
    if (current && o) current.options.push({ n: Number(o[1]), text: o[2] });
  }
  return blocks;
}

const HINT = " — ";
const labelPart = (text: string) => (text.includes(HINT) ? text.slice(0, text.indexOf(HINT)) : text);
const typesIn = (text: string) => (/ — type: ([^;]*)/.exec(text)?.[1] ?? "").split(", ").map(normalizeLabel).filter(Boolean);

/** Entity slots: the options labelled as the gold IRI is (same-labelled ones narrowed by the gold IRI's types), ≤ K. */
export function oracleEntityChoices(prompt: string, gold: TemplateOfQuery, facts: TriadOracleFacts, k: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const b of parseSlotPrompt(prompt)) {
    const iri = gold.slots[b.slot];
    if (!iri) continue;
    const wanted = new Set(namesOfIri(iri, facts).map(asWords));
    const same = b.options.filter((o) => wanted.has(asWords(labelPart(o.text))));
    const types = new Set((facts.types.get(iri) ?? []).map(normalizeLabel));
    const typed = same.filter((o) => typesIn(o.text).some((t) => types.has(t)));
    out[b.slot] = (typed.length ? typed : same).slice(0, k).map((o) => o.n);
  }
  return out;
}

/** Relation slots: the options that are the gold predicate by label (or by compact IRI between same-labelled ones), as written first. */
export function oracleRelationChoices(prompt: string, gold: TemplateOfQuery, facts: OracleKgFacts, k: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const b of parseSlotPrompt(prompt)) {
    const iri = gold.slots[b.slot];
    if (!iri) continue;
    const names = new Set([facts.labels.get(iri), localNameWords(iri), localName(iri)].filter((x): x is string => !!x).map(normalizeLabel));
    const compact = compactIri(iri, facts.prefixes);
    const read = (option: string) => {
      const text = labelPart(option); // " — with its N sub-properties" (a schema parent) is a hint, not the name
      const reversed = text.endsWith(" (reversed)");
      const body = reversed ? text.slice(0, -" (reversed)".length) : text;
      const twin = /^(.*) \[(\S+)\]$/.exec(body);
      return { reversed, match: twin ? twin[2] === compact : names.has(normalizeLabel(body)) };
    };
    const matching = b.options.map((o) => ({ n: o.n, ...read(o.text) })).filter((o) => o.match);
    // the gold template's triples are written as the KG holds them: the plain reading first
    out[b.slot] = [...matching.filter((o) => !o.reversed), ...matching.filter((o) => o.reversed)].slice(0, k).map((o) => o.n);
  }
  return out;
}

/**
 * Query selection: the candidate whose fillers are the gold's by label (relations as written, not reversed), a
 * same-labelled entity decided by its type hint naming a type of the gold IRI; else the candidate with most such fillers.
 */
export function oracleQueryChoice(prompt: string, gold: TemplateOfQuery, facts: TriadOracleFacts): number | undefined {
  const candidates = [...prompt.matchAll(/^Candidate (\d+)\nFillers: (\{.*\})$/gm)].map((m) => ({ n: Number(m[1]), fillers: JSON.parse(m[2]) as Record<string, string> }));
  const score = (fillers: Record<string, string>) =>
    Object.entries(fillers).reduce((sum, [slot, text]) => {
      const iri = gold.slots[slot];
      if (!iri) return sum;
      const names = [...namesOfIri(iri, facts), localNameWords(iri)].map(asWords);
      if (!names.includes(asWords(labelPart(text)))) return sum;
      const types = new Set((facts.types.get(iri) ?? []).map(normalizeLabel));
      const hinted = typesIn(text);
      return sum + (hinted.length === 0 || hinted.some((t) => types.has(t)) ? 1 : 0);
    }, 0);
  const best = candidates.map((c) => ({ n: c.n, s: score(c.fillers) })).sort((a, b) => b.s - a.s || a.n - b.n)[0];
  return best?.n;
}

/** A Responder playing the Chat agent and Triad's G- and D-agent from the item's gold query. */
export function createTriadOracleResponder(
  item: BenchmarkItem,
  gold: TemplateOfQuery,
  facts: TriadOracleFacts,
  k: { entities: number; relations: number },
  options: { log?: OracleLog; describe?: (slot: string, iri: string) => string } = {},
): Responder {
  const texts = dialogueTexts(item, options.log);
  return (request: ReplyRequest): ReplyValue => {
    const prompt = lastUserText(request.messages);
    switch (request.role) {
      case "chat":
        if (!request.tools.includes(KG_TOOL)) throw new AppError("llm_bad_output", `Oracle: the chat call offers no ${KG_TOOL} tool.`);
        return { toolCall: { name: KG_TOOL, input: { question: texts.chatQuestion, language: texts.language, context_dependent: texts.standalone !== item.question } } };
      case "generalist":
        return { json: oracleGeneralist(gold, facts, options.describe) };
      case "decider":
        if (/^Slot e\d+: /m.test(prompt)) return { json: { choices: oracleEntityChoices(prompt, gold, facts, k.entities) } };
        if (/^Slot r\d+: /m.test(prompt)) return { json: { choices: oracleRelationChoices(prompt, gold, facts, k.relations) } };
        return { json: { choice: oracleQueryChoice(prompt, gold, facts) ?? 0 } };
      default:
        throw new AppError("llm_bad_output", `Oracle: the role "${request.role}" cannot be played from the gold SPARQL.`);
    }
  };
}

type TriadOracleOptions = { signal?: AbortSignal; k: { entities: number; relations: number } };

async function goldTemplateAndFacts(item: BenchmarkItem, kg: KnowledgeGraph, signal?: AbortSignal): Promise<{ gold: TemplateOfQuery; facts: TriadOracleFacts }> {
  const plan = goldPlanOf(item);
  const gold = templateFromQuery(portableGoldSparql(item.goldSparql!));
  const entityIris = gold.template.entitySlots.map((s) => gold.slots[s]);
  const predicateIris = gold.template.relationSlots.map((s) => gold.slots[s]);
  const facts = await fetchOracleFacts(kg, { ...plan, entityIris, predicateIris }, signal);
  return { gold, facts: await withOracleLexiconNames(facts, kg, [...entityIris, ...(plan.classes ?? []).map((c) => c.iri)], signal) };
}

/** A fresh scripted LLM for one item (gold-shape kind): the gold becomes the template; labels and types of its IRIs are fetched first. */
export async function createTriadOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, options: TriadOracleOptions): Promise<OracleGateway> {
  const { gold, facts } = await goldTemplateAndFacts(item, kg, options.signal);
  const log = createOracleLog("gold-shape");
  return withOracleLog(createScriptedLlm({}, { fallback: createTriadOracleResponder(item, gold, facts, options.k, { log }) }).gateway, log);
}

/**
 * The question-grounded kind (`--llm oracle`): entity slots the question names (its span of the IRI's label, a
 * reviewed normalisation) stay slots described by the question's words; the others, and every literal, number or
 * LIMIT/OFFSET the question does not ground, become variables (or are removed). Relation slots are described by the
 * question's words for them, else its words no entity took; none left → the predicate becomes a variable.
 */
export async function createGroundedTriadOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, options: TriadOracleOptions): Promise<OracleGateway> {
  const { gold: full, facts } = await goldTemplateAndFacts(item, kg, options.signal);
  const log = createOracleLog("question-grounded");
  const texts = dialogueTexts(item, log);
  const q = { text: texts.groundOn, language: texts.groundLanguage };
  const taken: string[] = [];
  const described = new Map<string, string>();
  for (const s of full.template.entitySlots) {
    const iri = full.slots[s];
    const m = groundAnyName(namesOfIri(iri, facts), q, log, taken);
    if (m !== null) {
      described.set(iri, m);
      taken.push(m);
    }
  }
  const used = new Set<string>();
  for (const s of full.template.relationSlots) {
    const iri = full.slots[s];
    const r = groundRelation(iri, facts, q, taken, used, log);
    if (r !== null) described.set(iri, r);
  }
  const grounded = groundQueryConstants(portableGoldSparql(item.goldSparql!), { question: q.text, language: q.language }, log, (iri) => described.has(iri), { neutralVariables: true });
  const gold = templateFromQuery(grounded.sparql);
  const describe = (_slot: string, iri: string) => described.get(iri) ?? wordsOf(iri, facts);
  return withOracleLog(createScriptedLlm({}, { fallback: createTriadOracleResponder(item, gold, facts, options.k, { log, describe }) }).gateway, log);
}
