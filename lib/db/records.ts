// What the query functions return: conversations, turns and their attempts, KG sources, experience items.
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";
import type { AttemptChange, KgSourceKind, TurnConfig, TurnError, TurnSource, TurnStatus } from "./json";

export interface ConversationSummary {
  id: string;
  title: string;
  kgId: string;
  createdAt: Date;
  updatedAt: Date;
  turnCount: number;
}

/** One attempt of a turn: the outcome columns of a run (the first, or a re-run after a user's correction). */
export interface AttemptRecord {
  /** 1-based */
  attempt: number;
  /** what the user corrected to start it; null for the first attempt */
  change: AttemptChange | null;
  status: TurnStatus;
  answer: TurnResult["answer"] | null;
  naturalAnswer: string | null;
  source: TurnSource | null;
  standaloneQuestion: string | null;
  error: TurnError | null;
  trace: DerivationEvent[];
  stats: TurnResult["stats"] | null;
  config: TurnConfig;
  sparql: string[];
  feedback: 1 | -1 | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A turn: its question and its latest attempt (the columns above), with the earlier attempts, oldest first. */
export interface TurnRecord extends AttemptRecord {
  id: string;
  conversationId: string;
  index: number;
  question: string;
  /** attempts before the latest one (empty until the user re-runs the turn from a correction) */
  attempts: AttemptRecord[];
}

/** What a re-run starts from: an attempt's snapshot, trace and config. */
export interface AttemptBase {
  attempt: number;
  status: TurnStatus;
  snapshot: Record<string, unknown> | null;
  trace: DerivationEvent[];
  config: TurnConfig;
  /** the question as that attempt understood it (standalone English), when it derived one */
  standaloneQuestion: string | null;
}

export interface ConversationRecord extends Omit<ConversationSummary, "turnCount"> {
  turns: TurnRecord[];
}

/** What a new turn needs from its conversation: the title and the earlier turns' questions and answers (no traces). */
export interface DialogueRecord {
  id: string;
  title: string;
  turns: Pick<TurnRecord, "index" | "question" | "status" | "answer">[];
}

export interface KgSourceRecord {
  id: string;
  name: string;
  kind: KgSourceKind;
  spec: Record<string, unknown>;
  createdAt: Date;
}

/** A solved question of the experience pool (explorer examples), with where it came from. */
export interface ExperienceRecord {
  id: string;
  kgKey: string;
  question: string;
  sparql: string;
  source: "feedback" | "import" | "generated";
  dataset: string | null;
  itemId: string | null;
  split: string | null;
  createdAt: Date;
}
