// `--llm oracle`: plays every LLM role from the item's GOLD SPARQL (no model), to measure the ceiling of the non-LLM parts.
import { AppError } from "@/lib/errors";
import { compactIri, localName } from "@/lib/kg/profile";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { lastUserText, type ReplyRequest, type ReplyValue, type Responder } from "@/lib/llm/testing/replies";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { LlmGateway } from "@/lib/llm/types";
import { localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";
import { fetchOracleFacts, type OracleKgFacts } from "./oracle-llm-facts";
import { isRdfType, parseGold, type GoldPlan, type GoldTerm, type GoldTriple } from "./oracle-llm-gold";
import { valueOf, type GoldValue } from "./oracle-llm-gold-constraints";
import { dialogueTexts } from "./oracle-dialogue-texts";
import { createOracleLog, ORACLE_KIND_LABELS, type OracleLog } from "./oracle-grounding";
import type { BenchmarkItem } from "./types";

export { fetchOracleFacts, type OracleKgFacts } from "./oracle-llm-facts";
export { GOLD_SHAPES, parseGold, type GoldPlan, type GoldShape } from "./oracle-llm-gold";

/** What results record for a gold-shape oracle run (`--llm oracle-gold-shape`): never a model, labelled with its kind. */
export const ORACLE_LLM_INFO = { provider: "oracle", model: `gold-sparql — ${ORACLE_KIND_LABELS["gold-shape"]}` } as const;

/** An oracle's gateway for one question, with its log (what it grounded, dropped, normalised) for the question's record. */
export type OracleGateway = LlmGateway & { oracleLog: OracleLog };
export const withOracleLog = (gateway: LlmGateway, oracleLog: OracleLog): OracleGateway => Object.assign(gateway, { oracleLog });
/** Feature tag prefix carrying the gold query's shape (summary.byFeature breaks down by it). */
export const GOLD_SHAPE_TAG = "gold_shape:";

const KG_TOOL = "ask_knowledge_graph";
const HINT_SEPARATOR = " — ";

export interface OracleQir {
  entities: string[];
  unknowns: string[];
  relations: string[];
  triples: [string, string, string][];
  target: string | null;
  question_type: "factoid" | "count" | "boolean";
  values?: { text: string; type: string }[];
  classes?: { var: string; class: string }[];
  filters?: { var: string; op: string; value?: { text: string; type: string } | { text: string; type: string }[]; var2?: string }[];
  not?: [string, string, string][];
  exclude?: { var: string; entities: string[] };
  aggregates?: { fn: string; var: string; as: string }[];
  group_by?: string[];
  order_by?: { var: string; dir: string; count?: boolean }[];
  limit?: number;
  offset?: number;
  columns?: string[];
  compose?: boolean;
}

/** The text a gold IRI is mentioned by: its KG label, else the words of its local name. */
export function mentionOf(iri: string, facts: OracleKgFacts): string {
  return facts.labels.get(iri) ?? (localNameWords(iri) || localName(iri));
}

/** The relation phrase of a gold predicate: its local name split into words ("recordLabel" → "record label"). */
export function relationOf(predicate: string): string {
  if (isRdfType(predicate)) return "type";
  return localNameWords(predicate) || localName(predicate);
}

/**
 * The QIR the gold query implies: IRIs named by their labels, variables kept, the target and question type, and the
 * constraints a perfect QIR agent would state (classes, values, filters, negation, exclusion, aggregates, groups,
 * order, limit/offset, columns).
 */
export function oracleQir(plan: GoldPlan, facts: OracleKgFacts): OracleQir {
  const named = (t: GoldTerm) => (t.kind === "iri" ? mentionOf(t.value, facts) : t.value);
  const all = [...plan.triples, ...plan.negated];
  const taken = new Set(all.flatMap((t) => [t.subject, t.object]).filter((t) => t.kind !== "var").map((t) => named(t).toLowerCase()));
  // why: the QIR validator reads an entity spelled like a variable's name ("Service" vs ?service) as that variable
  const rename = (v: string) => {
    let name = v;
    while (taken.has(name.slice(1).toLowerCase())) name = `${name}_x`;
    return name;
  };
  const text = (t: GoldTerm) => (t.kind === "var" ? rename(t.value) : named(t));
  const asTriple = (t: GoldTriple): [string, string, string] => [text(t.subject), relationOf(t.predicate), text(t.object)];
  const triples = plan.triples.map(asTriple);
  const negated = plan.negated.map(asTriple);
  const grounded = all.flatMap((t) => [t.subject, t.object]).filter((t) => t.kind === "iri");
  const literals = all.flatMap((t) => [t.subject, t.object]).filter((t): t is Extract<GoldTerm, { kind: "literal" }> => t.kind === "literal");
  const unknowns = [...plan.triples, ...plan.negated].flatMap((t) => [t.subject, t.object]).filter((t) => t.kind === "var").map(text);
  const value = (v: GoldValue) => ({ text: v.text, type: v.type });
  // a constraint on a computed variable (BIND, arithmetic) cannot be said in the QIR: left out, like the computation
  const tripleVars = new Set([...all.flatMap((t) => [t.subject, t.object]).filter((t) => t.kind === "var").map((t) => t.value), ...plan.classes.map((c) => c.variable)]);
  const aggregates = plan.aggregates.filter((a) => tripleVars.has(a.variable));
  const known = new Set([...tripleVars, ...aggregates.map((a) => a.alias)]);
  const sayable = <T extends { variable: string; other?: string }>(c: T) => known.has(c.variable) && (!c.other || known.has(c.other));
  const qir: OracleQir = {
    entities: [...new Set(grounded.map(text))],
    unknowns: [...new Set(unknowns)],
    relations: [...new Set([...triples, ...negated].map((t) => t[1]))],
    triples,
    target: plan.questionType === "boolean" || !plan.target ? null : rename(plan.target),
    question_type: plan.questionType,
  };
  if (literals.length) qir.values = [...new Map(literals.map((l) => [l.value, value(valueOf(l.datatype, l.value))])).values()];
  if (plan.classes.length) qir.classes = plan.classes.map((c) => ({ var: rename(c.variable), class: mentionOf(c.iri, facts) }));
  const comparisons = plan.comparisons.filter(sayable);
  if (comparisons.length) {
    qir.filters = comparisons.map((c) =>
      c.other ? { var: rename(c.variable), op: c.op, var2: rename(c.other) } : { var: rename(c.variable), op: c.op, value: c.op === "in" ? c.values.map(value) : value(c.values[0]) },
    );
  }
  if (negated.length) qir.not = negated;
  const excluded = plan.excluded[0];
  if (excluded) qir.exclude = { var: rename(excluded.variable), entities: excluded.iris.map((i) => mentionOf(i, facts)) };
  if (aggregates.length) qir.aggregates = aggregates.map((a) => ({ fn: a.fn, var: rename(a.variable), as: rename(a.alias) }));
  if (plan.groupBy.length) qir.group_by = plan.groupBy.map(rename);
  const order = plan.order.filter(sayable);
  if (order.length) qir.order_by = order.map((o) => ({ var: rename(o.variable), dir: o.direction, ...(o.count ? { count: true } : {}) }));
  // a window over an order the QIR cannot say (a computed key) would pick arbitrary rows: left out with it
  const windowed = order.length > 0 || plan.order.length === 0;
  if (plan.limit !== undefined && windowed) qir.limit = plan.limit;
  if (plan.offset !== undefined && windowed) qir.offset = plan.offset;
  const columns = (plan.columns ?? []).filter((c) => known.has(c));
  if (columns.length) qir.columns = columns.map(rename);
  return qir;
}

interface VertexBlock {
  mention: string;
  options: { n: number; text: string }[];
}

/** The mentions and numbered options of a vertex-selection prompt (`Mention: "…"` then `N. label — hint` lines). */
export function parseVertexPrompt(text: string): VertexBlock[] {
  const blocks: VertexBlock[] = [];
  let current: VertexBlock | undefined;
  for (const line of text.split("\n")) {
    const m = /^Mention: (".*")$/.exec(line);
    if (m) {
      current = { mention: JSON.parse(m[1]) as string, options: [] };
      blocks.push(current);
      continue;
    }
    const o = /^(\d+)\. (.*)$/.exec(line);
    if (current && o) current.options.push({ n: Number(o[1]), text: o[2] });
    else if (current && line.trim() === "") current = undefined;
  }
  return blocks;
}

/** The option's hint after its label, when the label (normalised) is `label`; undefined when the label differs. */
function hintAfter(optionText: string, label: string): string | undefined {
  const wanted = normalizeLabel(label);
  if (normalizeLabel(optionText) === wanted) return "";
  for (let i = optionText.indexOf(HINT_SEPARATOR); i >= 0; i = optionText.indexOf(HINT_SEPARATOR, i + 1)) {
    if (normalizeLabel(optionText.slice(0, i)) === wanted) return optionText.slice(i + HINT_SEPARATOR.length);
  }
  return undefined;
}

/** A type name as words ("TopologicalNode" = "topological node"), as hints and labels may spell it either way. */
const typeWords = (t: string) => normalizeLabel(t.replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2").replace(/[_\-.]+/g, " "));
const hintTypes = (hint: string) => (/^type: ([^;]*)/.exec(hint)?.[1] ?? "").split(", ").map(typeWords).filter(Boolean);

/** What kind an option line is, by the hint vertex selection writes after it (vertex-selection.ts optionHint). */
function optionKind(text: string): "value" | "class" | "unlabelled" | "vertex" {
  if (/^".*" — a (text|number|date) value/.test(text)) return "value";
  if (/ — a class( \(\S+\))?$/.test(text)) return "class";
  if (/ — no label \(named by its IRI\)( \(\S+\))?$/.test(text)) return "unlabelled";
  return "vertex";
}

const MATCHED = / matched ("(?:[^"\\]|\\.)*") via /;

/** Vertex options shown by one of `names`, or whose "matched … via …" note is one of them; with their hints. */
function byOtherNames(options: { n: number; text: string }[], names: string[]): { n: number; hint: string }[] {
  if (names.length === 0) return [];
  const wanted = new Set(names.map(normalizeLabel));
  return options.flatMap((o) => {
    if (optionKind(o.text) === "value" || optionKind(o.text) === "class") return [];
    const at = o.text.indexOf(HINT_SEPARATOR);
    const shown = at < 0 ? o.text : o.text.slice(0, at);
    const hint = at < 0 ? "" : o.text.slice(at + HINT_SEPARATOR.length);
    const m = MATCHED.exec(hint);
    let matched: string | undefined;
    try {
      matched = m ? (JSON.parse(m[1]) as string) : undefined;
    } catch {
      matched = undefined;
    }
    return wanted.has(normalizeLabel(shown)) || (matched !== undefined && wanted.has(normalizeLabel(matched))) ? [{ n: o.n, hint }] : [];
  });
}

/**
 * Vertex choices: per mention, what the gold query names with it — an IRI (the option whose label equals the IRI's
 * label; among same-labelled options the one whose type hint names a type of the gold IRI; an IRI without a label
 * picks the unlabelled option of its local name), a literal (the value option of that text), or a class (the class
 * option of that label). No unique option → no choice for that mention (the run records it).
 */
export function oracleVertexChoices(prompt: string, plan: GoldPlan, facts: OracleKgFacts, aliases?: Map<string, string>): Record<string, number> {
  const choices: Record<string, number> = {};
  const literalTexts = [...plan.triples, ...plan.negated].flatMap((t) => [t.subject, t.object]).filter((x) => x.kind === "literal").map((x) => x.value);
  for (const block of parseVertexPrompt(prompt)) {
    // a question-grounded mention stands for the gold label it was grounded from
    // a mention asked twice (two variables of one class) is shown with its key: "orders (class: ?v6)"
    const said = block.mention.replace(/ \((class|exclude|among): [^)]*\)$/, "");
    const wanted = normalizeLabel(aliases?.get(normalizeLabel(said)) ?? said);
    const pick = (kind: ReturnType<typeof optionKind>, label: string) =>
      block.options.flatMap((o) => {
        if (optionKind(o.text) !== kind) return [];
        const shown = kind === "value" ? o.text.replace(/ — a (text|number|date) value.*$/, "") : o.text;
        const hint = hintAfter(shown, label);
        return hint === undefined ? [] : [{ n: o.n, hint }];
      });
    const classes = (plan.classes ?? []).filter((c) => normalizeLabel(mentionOf(c.iri, facts)) === wanted);
    if (classes.length >= 1) {
      const same = pick("class", mentionOf(classes[0].iri, facts));
      // same-named classes show their compact IRI: then the IRI decides
      const byIri = same.filter((o) => o.hint.endsWith(`(${compactIri(classes[0].iri, facts.prefixes)})`));
      // a label search shows a class as a vertex typed "class" (beside properties of the same name)
      const asVertex = pick("vertex", mentionOf(classes[0].iri, facts)).filter((o) => hintTypes(o.hint).includes("class"));
      if (same.length === 1) choices[block.mention] = same[0].n;
      else if (byIri.length === 1) choices[block.mention] = byIri[0].n;
      else if (same.length === 0 && asVertex.length === 1) choices[block.mention] = asVertex[0].n;
      else if (same.length === 0 && asVertex.length > 1) {
        const twin = asVertex.filter((o) => o.hint.endsWith(`(${compactIri(classes[0].iri, facts.prefixes)})`));
        if (twin.length === 1) choices[block.mention] = twin[0].n;
      } else if (same.length === 0 && asVertex.length === 0) {
        // found by its IRI's local name (no type hint): the one option of the class's name
        const named = pick("vertex", mentionOf(classes[0].iri, facts));
        if (named.length === 1) choices[block.mention] = named[0].n;
      }
      continue;
    }
    const iris = plan.entityIris.filter((i) => normalizeLabel(mentionOf(i, facts)) === wanted);
    if (iris.length === 1) {
      const label = mentionOf(iris[0], facts);
      let same = facts.labels.has(iris[0]) ? pick("vertex", label) : [...pick("unlabelled", label), ...pick("vertex", label)];
      // an option shown by another of the IRI's KG names (a name literal), or saying which of its names matched (an id)
      if (same.length === 0) same = byOtherNames(block.options, facts.names?.get(iris[0]) ?? []);
      // the class of a named entity, offered as class options (⟨X, type, C⟩): by name, then by the compact IRI shown
      if (same.length === 0) {
        const asClass = pick("class", label);
        const byIri = asClass.filter((o) => o.hint.endsWith(`(${compactIri(iris[0], facts.prefixes)})`));
        if (asClass.length === 1) choices[block.mention] = asClass[0].n;
        else if (byIri.length === 1) choices[block.mention] = byIri[0].n;
        continue;
      }
      if (same.length === 1) choices[block.mention] = same[0].n;
      else if (same.length > 1) {
        const types = new Set((facts.types.get(iris[0]) ?? []).map(typeWords));
        const typed = same.filter((o) => hintTypes(o.hint).some((t) => types.has(t)));
        // with inferred types every option shares the general ones: the option whose types are all the gold's
        const exact = typed.filter((o) => hintTypes(o.hint).every((t) => types.has(t)));
        // same-named classes of two vocabularies show their compact IRIs: then the IRI decides
        const byIri = same.filter((o) => o.hint.endsWith(`(${compactIri(iris[0], facts.prefixes)})`));
        if (typed.length === 1) choices[block.mention] = typed[0].n;
        else if (exact.length === 1) choices[block.mention] = exact[0].n;
        else if (byIri.length === 1) choices[block.mention] = byIri[0].n;
      }
      continue;
    }
    const literal = literalTexts.find((l) => normalizeLabel(l) === wanted);
    if (iris.length === 0 && literal !== undefined) {
      const values = pick("value", literal);
      // a literal the KG holds as some vertex's label only: the vertex option of that label
      const same = values.length ? values : pick("vertex", literal);
      if (same.length === 1) choices[block.mention] = same[0].n;
    }
  }
  return choices;
}

/** Predicate options of a predicate-selection prompt: `N. label` or `N. label (prefix:local)` lines after "Predicates:". */
export function parsePredicatePrompt(text: string): { n: number; text: string }[] {
  const at = text.indexOf("\nPredicates:\n");
  if (at < 0) return [];
  const out: { n: number; text: string }[] = [];
  for (const line of text.slice(at + "\nPredicates:\n".length).split("\n")) {
    const o = /^(\d+)\. (.*)$/.exec(line);
    if (o) out.push({ n: Number(o[1]), text: o[2] });
    else if (out.length) break;
  }
  return out;
}

/** The option numbers whose label (or shown compact IRI) is that of a gold predicate. */
export function oraclePredicateChoices(prompt: string, plan: GoldPlan, facts: OracleKgFacts): number[] {
  const names = new Set(plan.predicateIris.flatMap((p) => [facts.labels.get(p), localNameWords(p), localName(p)].filter((x): x is string => !!x).map(normalizeLabel)));
  const shown = new Set(plan.predicateIris.flatMap((p) => [compactIri(p, facts.prefixes), `<${p}>`]));
  const picked: number[] = [];
  for (const o of parsePredicatePrompt(prompt)) {
    const twin = /^(.*) \((\S+)\)$/.exec(o.text);
    // same-labelled predicates show their compact IRI: then the IRI decides
    if (twin && (twin[2].includes(":") || twin[2].startsWith("<"))) {
      if (shown.has(twin[2])) picked.push(o.n);
      continue;
    }
    if (names.has(normalizeLabel(o.text))) picked.push(o.n);
  }
  return picked;
}

/** What the question-grounded kind hands the responder instead of the gold-shape QIR. */
export interface ResponderGrounding {
  qir: OracleQir;
  /** normalised grounded mention → the gold label it stands for */
  aliases: Map<string, string>;
}

/**
 * A Responder (for createScriptedLlm's fallback) that answers every Chatty-KG role from the item's gold SPARQL.
 * `facts` are the labels/types fetched once per item before the run (fetchOracleFacts). Without `grounding` the QIR
 * is the gold shape's (labels and local names: the gold-shape kind); with it, the question-grounded QIR.
 */
export function createOracleResponder(
  item: BenchmarkItem,
  facts: OracleKgFacts,
  plan: GoldPlan = goldPlanOf(item),
  options: { grounding?: ResponderGrounding; log?: OracleLog; writer?: (prompt: string) => string | null } = {},
): Responder {
  const qir = options.grounding?.qir ?? oracleQir(plan, facts);
  const aliases = options.grounding?.aliases;
  const texts = dialogueTexts(item, options.log);
  const standalone = texts.standalone;
  const reasoning = "oracle: derived from the gold SPARQL, no model";
  return (request: ReplyRequest): ReplyValue => {
    const prompt = lastUserText(request.messages);
    switch (request.role) {
      case "chat":
        if (!request.tools.includes(KG_TOOL)) throw new AppError("llm_bad_output", `Oracle: the chat call offers no ${KG_TOOL} tool.`);
        // `qir` rides along when the tool takes it; an older tool schema simply drops the extra field
        return { toolCall: { name: KG_TOOL, input: { question: texts.chatQuestion, language: texts.language, context_dependent: standalone !== item.question, qir } } };
      case "qir":
        return { json: { reasoning, ...qir } };
      case "vertex":
        return { json: { choices: oracleVertexChoices(prompt, plan, facts, aliases) } };
      case "predicates": {
        const predicates = oraclePredicateChoices(prompt, plan, facts);
        return { json: { reasoning, predicates, none_fit: predicates.length === 0 } };
      }
      case "query-writer":
        // the question-grounded kind writes a composed question's query (oracle-query-writer.ts); without it, declines
        return { json: { reasoning, sparql: options.writer ? options.writer(prompt) : null } };
      case "translator":
        return { json: { language: texts.language, english: texts.english } };
      case "classifier":
        return { json: { dependent: standalone !== item.question } };
      case "rephraser":
        return { json: { question: standalone } };
      default:
        throw new AppError("llm_bad_output", `Oracle: the role "${request.role}" cannot be played from the gold SPARQL.`);
    }
  };
}

/** The item's gold plan, or AppError("bad_request") when it has no gold SPARQL. */
export function goldPlanOf(item: BenchmarkItem): GoldPlan {
  if (!item.goldSparql) throw new AppError("bad_request", `Oracle: question ${item.id} has no gold SPARQL.`);
  return parseGold(item.goldSparql);
}

/** The item's gold shape tag ("gold_shape:bgp", …), or "gold_shape:none" without a parsable gold query. */
export function goldShapeTag(item: BenchmarkItem): string {
  try {
    return `${GOLD_SHAPE_TAG}${goldPlanOf(item).shape}`;
  } catch {
    return `${GOLD_SHAPE_TAG}none`;
  }
}

/** Items with their gold shape added to `features`, for the per-shape breakdown. */
export function withGoldShape(items: BenchmarkItem[]): BenchmarkItem[] {
  return items.map((i) => ({ ...i, features: [...(i.features ?? []).filter((f) => !f.startsWith(GOLD_SHAPE_TAG)), goldShapeTag(i)] }));
}

/** A fresh scripted LLM for one item (gold-shape kind): the gold is parsed and its labels fetched from the KG before the run. */
export async function createOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, signal?: AbortSignal): Promise<OracleGateway> {
  const plan = goldPlanOf(item);
  const facts = await fetchOracleFacts(kg, plan, signal);
  const log = createOracleLog("gold-shape");
  return withOracleLog(createScriptedLlm({}, { fallback: createOracleResponder(item, facts, plan, { log }) }).gateway, log);
}
