// The shared state of one Triad turn. Each role's step reads it and returns only what it changes.
import type { QueryResult } from "@/lib/kg/types";
import type { Answer, DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";
import type { StageFailure } from "@/lib/pipeline/common/stage-runner";
import type { ParsedTemplate } from "./template";

/** The G-agent's answer-type classes: what the question wants back (shapes the fallback answer too). */
export const ANSWER_TYPES = ["entities", "value", "count", "boolean"] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

/** The G-agent's reading of the question: triplets, the SPARQL template with slots, the slots' mentions, the answer type. */
export interface Generalist {
  triplets: [string, string, string][];
  template: ParsedTemplate;
  /** slot id ("e0", "r0") → the words of the question it stands for */
  mentions: Record<string, string>;
  answerType: AnswerType;
}

/** A filler for an entity slot: a KG vertex, or — when the KG names it in a value rather than a vertex — the mention as a literal. */
export type EntityFiller = { kind: "iri"; iri: string; label: string } | { kind: "literal"; value: string };

/** A filler for a relation slot: a predicate, read as the template wrote the triple or reversed. */
export interface RelationFiller {
  iri: string;
  label: string;
  reversed: boolean;
  /** a parent property in the KG's schema: it and its sub-properties (rdfs:subPropertyOf), any of which the query may follow */
  covers?: string[];
}

export interface SlotCandidates<F> {
  /** how many were found before the choice */
  found: number;
  /** the chosen fillers, best first (at most K) */
  chosen: F[];
  /** chosen without a model call (no more candidates than K) */
  auto: boolean;
}

/** One filled template: a runnable query and what filled it. */
export interface CandidateQuery {
  id: number;
  sparql: string;
  fillers: Record<string, EntityFiller | RelationFiller>;
  /** sum of the fillers' ranks (0 = every slot's first choice) */
  rank: number;
}

export interface ExecutedCandidate {
  id: number;
  rows: number;
  ms: number;
  /** ASK: its answer (false counts as "no rows" for the choice, but can still be the answer) */
  boolean?: boolean;
  error?: string;
  /** a few answer values, for the D-agent's choice */
  preview?: string[];
  /** identical results share a signature (no model call needed to choose between them) */
  signature?: string;
}

/** Why an attempt found no KG answer: told to the G-agent on the next attempt, shown in the derivation. */
export interface Miss {
  attempt: number;
  template: string;
  reason: string;
}

export interface TriadState {
  question: string;
  dialogue: DialogueTurn[];
  config: PipelineConfig;

  /** the Chat agent's decision */
  route?: "kg" | "reply";
  reply?: Extract<Answer, { kind: "chat" | "clarify" }>;
  language?: string;
  /** the standalone English question the roles work on */
  standaloneQuestion?: string;

  /** 1-based attempt of the G → D → A phases (the A-agent's retries add attempts) */
  attempt: number;
  misses: Miss[];
  generalist?: Generalist;
  entities?: Record<string, SlotCandidates<EntityFiller>>;
  relations?: Record<string, SlotCandidates<RelationFiller>>;
  candidates?: CandidateQuery[];
  executed?: ExecutedCandidate[];
  /** what each executed candidate returned (by candidate id): the A-agent answers from the chosen one's rows */
  results?: Record<number, QueryResult>;
  chosen?: CandidateQuery;
  /** the current attempt ended without a KG answer (the A-agent decides: retry, fallback, or "none") */
  miss?: string;
  /** what the A-agent made of the attempt */
  decision?: "answer" | "retry" | "model-knowledge" | "none" | "failed";

  answer?: Answer;
  /** where the answer came from: rows of the chosen query, or the model's own knowledge (only with allowModelKnowledge) */
  answerSource?: "kg" | "llm";
  failure?: StageFailure;
}
