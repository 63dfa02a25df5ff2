// The shared state of one Chatty-KG turn (the paper's AgentState). Agents read it and return only what they change.
import type { Term } from "@/lib/kg/types";
import type { Answer, AnswerItem, DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";
import type { ExecutedQuery } from "@/lib/pipeline/common/state";
import type { StageFailure } from "@/lib/pipeline/common/stage-runner";

export type { ExecutedQuery, StageFailure };

/** ⟨subject, relation, object⟩ where subject/object are entity mentions or variables ("?film"). */
export interface QirTriple {
  subject: string;
  relation: string;
  object: string;
}

export type QuestionType = "factoid" | "count" | "boolean";

/** The type of a literal the question states: compared and written into queries typed (numbers and dates are not text). */
export type ValueType = "string" | "number" | "date";

/** A literal the question states ("Alfama", "KS-0042", 18): a triple end that is a KG value, not a vertex. */
export interface QirValue {
  text: string;
  type: ValueType;
}

/** "?hotel is a hotel": the class of an unknown (rdf:type, or the profile's type predicate). */
export interface QirClass {
  variable: string;
  /** the class as the question words it ("hotels"), linked to a KG class later */
  mention: string;
}

export type ComparisonOp = "=" | "!=" | "<" | "<=" | ">" | ">=" | "between" | "in" | "contains";

/** A FILTER on a variable (or, when `variable` is an aggregate's alias, a HAVING). */
export interface QirComparison {
  variable: string;
  op: ComparisonOp;
  /** one value; two for "between" (low, high); one or more for "in" */
  values: QirValue[];
  /** compare with another variable instead of values ("longer than wide": ?length > ?breadth) */
  other?: string;
}

export type AggregateFn = "count" | "sum" | "avg" | "min" | "max";

export interface QirAggregate {
  fn: AggregateFn;
  variable: string;
  /** the result's variable name ("?avg_price"): usable in columns, order and comparisons (HAVING) */
  alias: string;
}

export interface QirOrder {
  /** a variable of the triples or an aggregate's alias */
  variable: string;
  direction: "asc" | "desc";
  /** order by how many distinct values `variable` has per answer ("the neighbourhood with the most hotels") */
  count?: boolean;
}

/** "what else", "other than X": answers to leave out. */
export interface QirExclusion {
  variable: string;
  /** entity mentions to leave out (linked like the other entities) */
  entities: string[];
  /** leave out the entities earlier answers of the dialogue named */
  earlierAnswers: boolean;
}

/** "Which of A and B …": the answer is one of the named entities (a comparison between them). */
export interface QirAmong {
  variable: string;
  /** entity mentions the variable ranges over (linked like the other entities) */
  entities: string[];
}

/**
 * Question Intermediate Representation (paper Def. 3.2): QIR = (E, U, R, RF) plus what the answer should be, and the
 * constraints a basic graph pattern cannot say (all optional: a plain question has none of them).
 */
export interface Qir {
  entities: string[];
  unknowns: string[];
  relations: string[];
  triples: QirTriple[];
  /** the variable the question asks for (must be in `unknowns` unless boolean) */
  target?: string;
  questionType: QuestionType;
  /** literal triple ends (by their text in the triples) */
  values?: QirValue[];
  classes?: QirClass[];
  comparisons?: QirComparison[];
  /** triples that must NOT hold (FILTER NOT EXISTS); connected ones form one group */
  negated?: QirTriple[];
  exclude?: QirExclusion;
  among?: QirAmong;
  aggregates?: QirAggregate[];
  groupBy?: string[];
  order?: QirOrder[];
  limit?: number;
  offset?: number;
  /** further variables to show beside the target (a table: "name, rating and opening date") */
  columns?: string[];
  /**
   * the question needs more than the fields above say (two aggregates or entities compared, a ratio, "both / either /
   * neither / except" over several rows, a comparison with an average): after linking, the query writer writes the
   * query from what was linked (agents/query-writer.ts) instead of the generator
   */
  compose?: boolean;
}

export interface LinkedVertex {
  mention: string;
  iri: string;
  label: string;
  /** how many candidates the retriever returned */
  candidates: number;
  /**
   * how the vertex was chosen: single candidate, unique exact label, by the LLM, or "context": the mention is the label
   * of an entity a previous answer of this dialogue named (the user refers to what they were just told), or "user":
   * the user chose it when correcting an earlier attempt (rerun.ts)
   */
  how: "single" | "exact" | "llm" | "context" | "user";
}

/** A QIR value (or an entity mention that is a value in the KG) linked to the literals the KG holds. */
export interface LinkedLiteral {
  mention: string;
  type: ValueType;
  /** the KG's terms equal to it, most used first; empty when a number or date is not stored as such (compared instead) */
  terms: Term[];
  /** predicates carrying it, most used first */
  carriers: string[];
  how: "value-search" | "llm" | "typed";
}

/** The class of a QIR unknown, linked to a KG class. */
export interface LinkedClass {
  variable: string;
  mention: string;
  iri: string;
  label: string;
  how: "exact" | "single" | "llm";
  /** the class has subclasses: instances are matched through rdf:type/rdfs:subClassOf* */
  subclasses: boolean;
}

export interface RankedPredicate {
  iri: string;
  label: string;
  score: number;
  /** "out": the linked vertex is the subject (vertex ?p ?x); "in": it is the object (?x ?p vertex) */
  direction: "out" | "in";
  /** IRI of the linked vertex the predicate was found around */
  vertex: string;
}

export interface CandidateQuery {
  id: number;
  sparql: string;
  kind: "SELECT" | "ASK" | "COUNT";
  /** predicate IRIs used (Pred(ψ) in Algorithm 3) */
  predicates: string[];
  /** mean similarity of its predicates */
  score: number;
  /** identity of its graph pattern: the COUNT and the plain SELECT of one pattern share it (optional: older traces) */
  wiring?: string;
  /** QIR triples it places against their subject → object reading (0 = every edge as the QIR states it) */
  reversed?: number;
  /** the QIR's constraints the query carries (ORDER BY, FILTER, NOT EXISTS, …), as short phrases */
  modifiers?: string[];
  /** written by the query writer from the linked vertices and predicates (a composed question), not generated */
  written?: boolean;
}

export interface ChattyState {
  /** the user's question as typed */
  question: string;
  dialogue: DialogueTurn[];
  config: PipelineConfig;

  /** Chat agent decision: run the KG pipeline, or answer about the conversation */
  route?: "kg" | "reply";
  reply?: Extract<Answer, { kind: "chat" | "clarify" }>;
  /** BCP-47-ish code of the user's language, e.g. "en", "de" */
  language?: string;
  /** the question in English (= question when already English) */
  englishQuestion?: string;
  /** set when the Chat agent already classified/rephrased in its tool call (batched context) */
  contextDependent?: boolean;
  standaloneQuestion?: string;

  /** batched QIR: the Chat agent's draft from its tool call, unchecked until the QIR agent validates it */
  qirDraft?: Record<string, unknown>;
  qir?: Qir;
  /** where the QIR came from: the Chat agent's validated draft, or the QIR agent's own call */
  qirSource?: "chat" | "agent";
  vertices?: Record<string, LinkedVertex>;
  /** QIR values (and entity mentions that are values in the KG), by mention */
  literals?: Record<string, LinkedLiteral>;
  /** classes of unknowns, by variable */
  classes?: Record<string, LinkedClass>;
  /** IRIs the QIR's exclusion leaves out ("what else", "other than X"): the named ones as linked, then earlier answers' */
  excluded?: { variable: string; iris: string[]; named?: LinkedVertex[]; fromEarlierAnswers?: number };
  /** the QIR's "among": the IRIs its variable ranges over, as linked */
  among?: { variable: string; iris: string[]; named: LinkedVertex[] };
  relationPredicates?: Record<string, RankedPredicate[]>;
  candidates?: CandidateQuery[];
  selectedPredicates?: string[];
  executed?: ExecutedQuery[];

  answer?: Answer;
  answerItems?: AnswerItem[];
  naturalAnswer?: string;
  failure?: StageFailure;
}

/** An agent: a small function of state returning only what it changes. */
export type Agent<C> = (state: ChattyState, ctx: C) => Promise<Partial<ChattyState>>;
