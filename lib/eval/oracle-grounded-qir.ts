// The question-grounded QIR (`--llm oracle`): the gold query still decides WHAT the QIR says (its triples, classes,
// constraints: the model's reasoning), but every text in it is written from the asked question by the rules of
// oracle-grounding.ts — mentions, values and relation phrases are spans of the question (or reviewed normalisations),
// constants nothing grounds are dropped and counted, variables get neutral names (?v1, ?v2 …).
import { localName } from "@/lib/kg/profile";
import { isOpaqueIri, localNames, splitWords } from "@/lib/kg/lexicon";
import { isHelperRelation } from "@/lib/pipeline/chatty-kg/agents/qir-validator";
import { localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";
import {
  ground,
  groundConstant,
  leftoverSpans,
  misspeltSpan,
  noteDropped,
  noteGrounded,
  noteRefused,
  noteStructure,
  overlapSpan,
  questionSpan,
  type OracleLog,
} from "./oracle-grounding";
import type { OracleKgFacts } from "./oracle-llm-facts";
import type { GoldPlan, GoldTriple } from "./oracle-llm-gold";
import { isRdfType } from "./oracle-llm-gold";
import { mentionOf, type OracleQir } from "./oracle-llm";
import { nameSpan } from "./oracle-llm-names";
import { structuralFilterValue } from "./oracle-structure";

export interface GroundedQir {
  qir: OracleQir;
  /** normalised mention the QIR writes → the gold label it stands for (vertex selection still picks the gold's option) */
  aliases: Map<string, string>;
}

export interface QuestionText {
  /** the text the QIR is written from: the asked question (a dialogue turn: the dataset's standalone rewrite) */
  text: string;
  /** its language code ("en", "de", …) */
  language: string;
}

/**
 * A mention of a gold IRI's label (or a literal's text): the question's span of it, else the question's words that
 * overlap it, else a reviewed normalisation; null (refused, logged) when the question does not name it.
 */
export function groundMention(label: string, q: QuestionText, log: OracleLog, avoid: string[] = [], kg: { names?: string[]; wholeOnly?: boolean } = {}): string | null {
  // a label written as one CamelCase/snake_case word ("VoltageLimit") is read as its words, as a reader would
  const words = splitWords(label);
  const whole = questionSpan(label, q.text) ?? (words !== label ? questionSpan(words, q.text) : null) ?? (kg.names?.length ? nameSpan(kg.names, q.text) : null);
  // why: an opaque IRI's id words ("f1769624 9aeb …") overlap digits of unrelated question words
  const span = whole ?? (kg.wholeOnly ? null : (overlapSpan(label, q.text, avoid) ?? (words !== label ? overlapSpan(words, q.text, avoid) : null)));
  if (span !== null) return span;
  const g = ground(label, q.text, { language: q.language });
  if (g) return noteGrounded(log, g).text;
  // the question misspells the name: the model searches the word as the user wrote it
  const typo = kg.wholeOnly ? null : (misspeltSpan(label, q.text, avoid) ?? (words !== label ? misspeltSpan(words, q.text, avoid) : null));
  if (typo !== null) return typo;
  noteRefused(log, label, "not in the question");
  return null;
}

/** The names a predicate goes by: its KG label (also read as words), its local name in words (whole, and its member after a dot). */
const namesOf = (predicate: string, facts: OracleKgFacts, asWords = false) => {
  const label = facts.labels.get(predicate);
  const words = asWords ? [label ? splitWords(label) : undefined, ...localNames(predicate)] : [];
  return [...new Set([label, localNameWords(predicate) || localName(predicate), ...words].filter((x): x is string => !!x && x.trim() !== ""))];
};

/** How a strategy's QIR takes relation phrases: names read as words ("BaseVoltage" = "base voltage"); words it refuses. */
export interface RelationRules {
  asWords?: boolean;
  refuse?: (phrase: string) => boolean;
}

/**
 * A relation phrase for a gold predicate: the question's span of one of its names, else the question's words that
 * overlap one, else the question's content words no mention took (the words a model would call the relation).
 */
export function groundRelation(predicate: string, facts: OracleKgFacts, q: QuestionText, taken: string[], usedLeftovers: Set<string>, log: OracleLog, rules: RelationRules = {}): string | null {
  if (isRdfType(predicate)) return "type";
  const names = namesOf(predicate, facts, rules.asWords);
  const refused = rules.refuse ?? (() => false);
  for (const n of names) {
    const span = questionSpan(n, q.text);
    if (span !== null) return span;
  }
  for (const n of names) {
    const span = overlapSpan(n, q.text, taken);
    if (span !== null) return span;
  }
  // a word the QIR validator refuses ("having"): a model told so names the relation by another word
  const content = leftoverSpans(q.text, taken).filter((l) => !refused(l));
  const left = content.length ? content : leftoverSpans(q.text, taken, { functionWords: true }).filter((l) => !refused(l));
  const pick = left.find((l) => !usedLeftovers.has(l)) ?? left[0];
  if (pick !== undefined) {
    usedLeftovers.add(pick);
    return pick;
  }
  noteRefused(log, names[0] ?? predicate, "relation phrase not in the question");
  return null;
}

/** Neutral variable names in order of first appearance, so no gold variable name ("?manager") reaches the pipeline. */
function neutralVariables(qir: OracleQir): OracleQir {
  const names = new Map<string, string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (!/^\?\w+$/.test(v)) return v;
      if (!names.has(v)) names.set(v, `?v${names.size + 1}`);
      return names.get(v);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, walk(c)]));
    return v;
  };
  // the target first, so it is ?v1
  if (qir.target) walk(qir.target);
  return walk(qir) as OracleQir;
}

/**
 * The question-grounded QIR of `gold` (the gold-shape oracle's QIR, oracleQir): entities, values, classes and exclusions
 * named by question spans; relation phrases grounded per triple; filter values and LIMIT/OFFSET grounded as constants.
 * A refused mention makes its triple end a variable; a refused relation drops its triple; each counted on `log`.
 */
export function groundQir(gold: OracleQir, plan: GoldPlan, facts: OracleKgFacts, q: QuestionText, log: OracleLog): GroundedQir {
  const aliases = new Map<string, string>();
  const entityText = new Map<string, string | null>();
  const taken: string[] = [];
  // the gold IRI a label stands for (its KG names and whether it is opaque help find the question's span of it)
  const iriOf = new Map(plan.entityIris.map((i) => [mentionOf(i, facts), i]));
  // the class of a named entity (⟨X, type, C⟩) is said only when the question says it: a few overlapping words
  // ("gates … kind" for a gate-logic-kind class) would be linked as a vertex of their own
  const typeOfNamed = new Set(plan.triples.filter((t) => isRdfType(t.predicate) && t.subject.kind === "iri" && t.object.kind === "iri").map((t) => mentionOf(t.object.value, facts)));
  const mention = (label: string) => {
    if (!entityText.has(label)) {
      const iri = iriOf.get(label);
      const wholeOnly = typeOfNamed.has(label) || (!!iri && !facts.labels.has(iri) && isOpaqueIri(iri));
      const m = groundMention(label, q, log, taken, { ...(iri ? { names: facts.names?.get(iri) } : {}), wholeOnly });
      entityText.set(label, m);
      if (m !== null) {
        aliases.set(normalizeLabel(m), label);
        taken.push(m);
      } else noteDropped(log, `entity ${JSON.stringify(label)}`);
    }
    return entityText.get(label) ?? null;
  };
  const valueTexts = new Set((gold.values ?? []).map((v) => v.text));
  const valueText = new Map<string, string | null>();
  const value = (text: string, type: string) => {
    if (!valueText.has(text)) {
      const g = groundConstant({ kind: type === "number" ? "number" : "literal", value: text }, { question: q.text, language: q.language });
      const t = g ? noteGrounded(log, g).text : null;
      valueText.set(text, t);
      if (t !== null) {
        aliases.set(normalizeLabel(t), text);
        taken.push(t);
      } else noteDropped(log, `literal ${JSON.stringify(text)}`);
    }
    return valueText.get(text) ?? null;
  };
  // mentions first (entities, classes, values), so the relation phrases come from the words left
  for (const e of gold.entities) mention(e);
  const classes = (gold.classes ?? []).flatMap((c) => {
    const m = mention(c.class);
    return m === null ? [] : [{ var: c.var, class: m }];
  });
  for (const v of gold.values ?? []) value(v.text, v.type);

  let fresh = 0;
  const missing = new Map<string, string>();
  const end = (t: string) => {
    if (t.startsWith("?")) return t;
    const text = valueTexts.has(t) ? valueText.get(t) : entityText.has(t) ? entityText.get(t) : mention(t);
    if (text !== null && text !== undefined) return text;
    if (!missing.has(t)) missing.set(t, `?unnamed${++fresh}`);
    return missing.get(t) as string;
  };
  const used = new Set<string>();
  // the words a question opens with are its request ("Identify …", "Provide details of …"), not a relation
  const opensQuestion = (l: string) => q.text.trimStart().toLowerCase().startsWith(l.toLowerCase());
  const relationTriples = (triples: [string, string, string][], goldTriples: GoldTriple[]) =>
    triples.flatMap((t, i) => {
      const r = groundRelation(goldTriples[i].predicate, facts, q, taken, used, log, { asWords: true, refuse: (l) => isHelperRelation(l) || opensQuestion(l) });
      if (r === null) {
        noteDropped(log, `triple ${JSON.stringify(t.join(" "))} (no relation phrase)`);
        return [];
      }
      return [[end(t[0]), r, end(t[2])] as [string, string, string]];
    });
  const triples = relationTriples(gold.triples, plan.triples);
  const negated = relationTriples(gold.not ?? [], plan.negated);

  const out: OracleQir = {
    entities: [...new Set(gold.entities.map((e) => entityText.get(e)).filter((x): x is string => !!x))],
    unknowns: [...new Set([...gold.unknowns, ...missing.values()])],
    relations: [...new Set([...triples, ...negated].map((t) => t[1]))],
    triples,
    target: gold.target,
    question_type: gold.question_type,
  };
  const values = (gold.values ?? []).flatMap((v) => {
    const t = valueText.get(v.text);
    return t ? [{ text: t, type: v.type }] : [];
  });
  if (values.length) out.values = values;
  if (classes.length) out.classes = classes;
  const filters = (gold.filters ?? []).flatMap((f) => {
    if (!f.value) return [f];
    const list = Array.isArray(f.value) ? f.value : [f.value];
    const countVar = (gold.aggregates ?? []).some((a) => a.as === f.var && a.fn.toLowerCase() === "count");
    const kept = list.flatMap((v) => {
      const structure = structuralFilterValue(f.op, v, countVar, q.text);
      if (structure) {
        noteStructure(log, structure, v.text);
        return [v];
      }
      const g = groundConstant({ kind: v.type === "number" ? "number" : "literal", value: v.text }, { question: q.text, language: q.language });
      if (g) return [{ text: noteGrounded(log, g).text, type: v.type }];
      noteDropped(log, `${v.type === "number" ? "number" : "literal"} ${v.type === "number" ? v.text : JSON.stringify(v.text)}`);
      return [];
    });
    if (!kept.length) return [];
    return [{ ...f, value: Array.isArray(f.value) ? kept : kept[0] }];
  });
  if (filters.length) out.filters = filters;
  if (negated.length) out.not = negated;
  if (gold.exclude) {
    const entities = gold.exclude.entities.map(mention).filter((x): x is string => x !== null);
    if (entities.length) out.exclude = { var: gold.exclude.var, entities };
  }
  if (gold.aggregates) out.aggregates = gold.aggregates;
  if (gold.group_by) out.group_by = gold.group_by;
  if (gold.order_by) out.order_by = gold.order_by;
  for (const k of ["limit", "offset"] as const) {
    const n = gold[k];
    if (n === undefined) continue;
    const g = groundConstant({ kind: "number", value: String(n) }, { question: q.text, language: q.language });
    if (g) {
      noteGrounded(log, g);
      out[k] = n;
    } else noteDropped(log, `${k.toUpperCase()} ${n}`);
  }
  if (gold.columns) out.columns = gold.columns;
  return { qir: neutralVariables(out), aliases };
}
