// The state of one RAGONITE turn. Agents read it and return only what they change.
import type { Answer, DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";
import type { StageFailure } from "@/lib/pipeline/common/stage-runner";
import type { Evidence } from "./evidence";

export interface KnowledgeInfo {
  tables: number;
  linkTables: number;
  rows: number;
  passages: number;
  /** "bm25" or "bm25+embeddings" */
  search: string;
  /** the embedding model, or why there is none */
  searchNote: string;
  /** the database and index were ready from an earlier turn */
  cached: boolean;
  /** the database file was reused from an earlier induction of the same content */
  reused: boolean;
  ms: number;
}

export interface RagoniteState {
  question: string;
  dialogue: DialogueTurn[];
  config: PipelineConfig;

  /** Chat agent decision */
  route?: "kg" | "reply";
  reply?: Extract<Answer, { kind: "chat" | "clarify" }>;
  language?: string;
  /** the standalone English question the Chat agent's tool call carried (else the question as typed) */
  standaloneQuestion?: string;

  knowledge?: KnowledgeInfo;
  /** retrieval rounds the agent used */
  rounds?: number;
  evidence?: Evidence;

  answer?: Answer;
  naturalAnswer?: string;
  failure?: StageFailure;
}
