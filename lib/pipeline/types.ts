// The strategy interface: (question, dialogue, config, dependencies) -> stream of derivation events -> turn result.
// Chatty-KG is one strategy; RAGONITE, mKGQAgent, Triad and the benchmark baselines plug in beside it.
import { z } from "zod";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmCallRecord, LlmGateway } from "@/lib/llm/types";
import type { Similarity } from "@/lib/embeddings/types";
import type { Correction, CorrectionKind } from "./corrections";
import type { Stage } from "./stages";
import type { KgOnboardingProfile } from "@/lib/kg/onboarding/types";

// one id per line: strategies are added by different people
export const STRATEGY_IDS = [
  "chatty-kg",
  "llm-only",
  "one-shot-sparql",
  "triad",
  "ragonite",
  "explorer",
  "one-call",
] as const;
export type StrategyId = (typeof STRATEGY_IDS)[number];

/** Per-request parameters (paper §6: θ, L, vlimit, query_num). */
export const pipelineConfigSchema = z.object({
  strategy: z.enum(STRATEGY_IDS).default("chatty-kg"),
  /** multi-turn: use the dialogue as context; single-turn: every question stands alone */
  mode: z.enum(["multi", "single"]).default("multi"),
  /** θ: attempts per validated LLM step */
  theta: z.number().int().min(1).max(10).default(3),
  /** L: answer items kept per previous turn in the context Cq */
  answerLimit: z.number().int().min(0).max(10_000).default(100),
  /** vlimit: candidate vertices retrieved per entity mention */
  vlimit: z.number().int().min(1).max(10_000).default(600),
  /** query_num: candidate queries kept after generation */
  queryNum: z.number().int().min(1).max(1000).default(40),
  /** k: predicates kept per relation after similarity ranking */
  topPredicates: z.number().int().min(1).max(100).default(5),
  /**
   * let the Chat agent's tool call carry the classification, the standalone rewrite and the English translation
   * (one LLM call instead of up to three); off = separate Classifier, Rephraser and translator calls as in the paper
   */
  batchContext: z.boolean().default(true),
  /**
   * let the Chat agent's tool call also carry the QIR draft (entities, unknowns, relations, triples); the QIR agent checks
   * it with the Triples validator and only makes its own call when the draft is missing or invalid. Needs batchContext
   * (the draft is of the Chat agent's own standalone rewrite); off = a separate QIR call as in the paper
   */
  batchQir: z.boolean().default(true),
  /** rephrase the KG answer as a sentence (FA) */
  naturalAnswer: z.boolean().default(false),
  /**
   * rows a generated or model-written SELECT may return (a LIMIT is added or lowered to it); reaching it is reported as
   * a "row-limit" warning. The app keeps 1000 (answers are shown, not streamed); evaluation runs raise it far above any gold
   */
  rowLimit: z.number().int().min(1).max(100_000_000).default(1000),
  /** ms per SPARQL query */
  queryTimeoutMs: z.number().int().min(100).max(600_000).default(20_000),
  /**
   * the turn's KG budget: queries (label searches included) and ms of KG time all its steps may use together; a query
   * runs with at most the time left, and once the budget is spent steps go on with what they found (shown as a warning)
   */
  kgQueryBudget: z.number().int().min(1).max(100_000).default(500),
  kgTimeBudgetMs: z.number().int().min(100).max(3_600_000).default(120_000),
  /**
   * answer from the model's own knowledge when the KG has no answer (Triad's last resort). Off by default; such an
   * answer has source "llm" and is labelled "not from the KG" everywhere it is shown, exported or scored
   */
  allowModelKnowledge: z.boolean().default(false),
  // Explorer (an agent that explores the KG with tools and writes the query itself)
  /** tool calls per turn; the turn ends clearly (never with a guess) when they run out */
  explorerMaxSteps: z.number().int().min(1).max(200).default(20),
  /** LLM tokens (in + out) per turn; same rule as the step budget */
  explorerMaxTokens: z.number().int().min(1_000).max(10_000_000).default(200_000),
  // Triad (G-, D- and A-agent with SPARQL templates)
  /** N: few-shot examples for the G-agent */
  triadExamples: z.number().int().min(0).max(20).default(3),
  /** K: candidate entities kept per entity slot */
  triadEntityCandidates: z.number().int().min(1).max(20).default(2),
  /** K: candidate relations kept per relation slot */
  triadRelationCandidates: z.number().int().min(1).max(20).default(2),
  /** T: A-agent retries of earlier phases when no candidate query returns rows */
  triadRetries: z.number().int().min(0).max(10).default(3),
  // RAGONITE (SQL over a database induced from the KG + search over verbalized facts)
  /** retrieval rounds of the tool-calling agent */
  ragoniteRounds: z.number().int().min(1).max(10).default(3),
  // One call (retrieved solved examples + schema cards → one query; validated, repaired with the problems)
  /** solved examples from the KG's experience pool shown to the model */
  oneCallExamples: z.number().int().min(0).max(20).default(5),
  /** examples generated for the question at turn time beside the pool's (lib/kg/onboarding/aimed.ts); 0: none */
  oneCallAimedExamples: z.number().int().min(0).max(10).default(5),
  /** repairs after the first query (each: one call with the concrete problems) */
  oneCallRepairs: z.number().int().min(0).max(10).default(3),
  /** ≈ tokens the schema cards may take in the prompt */
  oneCallCardTokens: z.number().int().min(200).max(100_000).default(3000),
  /** predicates shown per schema card (most frequent first) */
  oneCallCardPredicates: z.number().int().min(1).max(200).default(20),
});
export type PipelineConfig = z.infer<typeof pipelineConfigSchema>;
export const DEFAULT_CONFIG: PipelineConfig = pipelineConfigSchema.parse({});

/** One item of an answer: an entity (with its label when known) or a literal; `cite`: ids of the citations it rests on. */
export type AnswerItem =
  | { type: "uri"; value: string; label?: string; cite?: string[] }
  | { type: "literal"; value: string; datatype?: string; lang?: string; cite?: string[] };

/**
 * Evidence an answer cites (RAGONITE): an SQL query's result over the database induced from the KG ("S1"), one of its
 * rows ("S1.3"), or a passage of verbalized KG facts ("P12"); `iris` link to the KG entities it is about.
 */
export interface Citation {
  id: string;
  kind: "sql" | "sql-row" | "passage";
  text: string;
  iris: string[];
  /** the SQL (kinds sql and sql-row) */
  query?: string;
}

export type Answer =
  | { kind: "items"; items: AnswerItem[]; citations?: Citation[] }
  /** a SELECT with several projected variables: columns in the query's projection order, null = unbound cell */
  | { kind: "table"; columns: string[]; rows: (AnswerItem | null)[][]; citations?: Citation[] }
  | { kind: "count"; count: number; citations?: Citation[] }
  | { kind: "boolean"; value: boolean; citations?: Citation[] }
  /** the KG holds no answer: never replaced by a guess */
  | { kind: "none"; reason: string; citations?: Citation[] }
  /** the Chat agent answered about the conversation itself (greeting, capabilities, recap) */
  | { kind: "chat"; text: string }
  /** the Chat agent needs the user to say which entity they mean */
  | { kind: "clarify"; text: string };

/** A previous turn as the Chat agent keeps it (D in the paper). */
export interface DialogueTurn {
  question: string;
  answer: Answer | null;
}

// the stage list lives in its own module so corrections.ts can name stages without importing this file (no cycle)
export { STAGES, type Stage } from "./stages";

/** What the UI shows as the turn runs. Every event is plain JSON (it is streamed and stored). */
export type DerivationEvent =
  | { type: "stage-start"; stage: Stage; at: number; input?: unknown }
  | { type: "stage-end"; stage: Stage; at: number; ms: number; summary: string; output?: unknown; skipped?: boolean }
  | { type: "llm-call"; stage: Stage; call: LlmCallRecord }
  | { type: "tool-call"; stage: Stage; tool: string; input: unknown; output?: unknown; error?: string; ms?: number }
  | {
      type: "sparql";
      stage: Stage;
      purpose: string;
      query: string;
      ms: number;
      rows: number;
      error?: string;
    }
  /**
   * code "row-limit": a SELECT returned as many rows as it was allowed, so its answer may be cut; "budget": a KG call of
   * the step was stopped by its timeout or refused because the turn's KG budget was spent (common/kg-budget.ts);
   * "setup": about the installation, not this question (an embedding model that could not be loaded): the chat shows
   * it once in its settings, not on every turn
   */
  | { type: "warning"; stage: Stage; message: string; code?: "row-limit" | "budget" | "setup" }
  /** a long step reporting how far it got (e.g. inducing a database from the KG on first use) */
  | { type: "progress"; stage: Stage; message: string; done?: number; total?: number };

export interface TurnStats {
  ms: number;
  llmCalls: number;
  tokensIn: number;
  tokensOut: number;
  queries: number;
  stageMs: Partial<Record<Stage, number>>;
  /** tool calls the model made exploring the KG (explorer); absent for strategies without them */
  toolCalls?: number;
}

export interface TurnResult {
  answer: Answer;
  /** where the answer came from ("llm": the model's own knowledge, no KG; a baseline); "failed" carries `error` */
  source: "kg" | "llm" | "none" | "conversation" | "failed";
  /** the question as processed (translated and/or rephrased standalone English) */
  standaloneQuestion?: string;
  /** natural-language answer in the user's language, when enabled */
  naturalAnswer?: string;
  /** the queries whose rows formed the answer */
  sparql: string[];
  /** the SQL queries (over a database induced from the KG) the answer cites (RAGONITE); also in the answer's citations */
  sql?: string[];
  error?: { code: string; message: string; stage?: Stage };
  stats: TurnStats;
  /**
   * the strategy's state at the end (plain JSON), stored with the attempt so a user's correction can re-run the turn
   * from one step with the earlier steps kept (Strategy.rerun); not sent to the browser
   */
  snapshot?: unknown;
}

export interface StrategyInput {
  question: string;
  dialogue: DialogueTurn[];
  config: PipelineConfig;
  signal?: AbortSignal;
}

/** A re-run of an earlier attempt of a turn from the step the user corrected (lib/pipeline/corrections.ts). */
export interface RerunInput extends StrategyInput {
  correction: Correction;
  /** TurnResult.snapshot of the attempt the user corrected, as stored (unchecked JSON: the strategy validates it) */
  snapshot: unknown;
  /** that attempt's derivation events: the steps the re-run keeps are shown again */
  baseTrace: DerivationEvent[];
}

/** A solved question of a KG: what was asked and the SPARQL that answered it (mKGQAgent's experience pool). */
export interface ExperienceExample {
  id: string;
  question: string;
  sparql: string;
  /** a user marked the answer helpful, someone imported a benchmark's training item, or the KG's onboarding generated it */
  source: "feedback" | "import" | "generated";
}

/** Where a strategy finds solved questions of the KG it runs on (app: the database; eval: the pool without the test items). */
export interface ExperienceSource {
  examples(kgId: string, options?: { signal?: AbortSignal }): Promise<ExperienceExample[]>;
  /** the profile the KG's onboarding read (classes, predicates): what examples for one question are generated from */
  profile?(kgId: string, options?: { signal?: AbortSignal }): Promise<KgOnboardingProfile | undefined>;
}

/** Short notes about a KG (derived by its onboarding, or the user's own text) that strategies put into their prompts. */
export interface KgNotesSource {
  notes(kgId: string, options?: { signal?: AbortSignal }): Promise<string | undefined>;
}

export interface StrategyDeps {
  kg: KnowledgeGraph;
  llm: LlmGateway;
  similarity: Similarity;
  /** solved questions to show as examples (strategies that use them: explorer); absent = none */
  experience?: ExperienceSource;
  /** the KG's notes (lib/kg/onboarding); absent = none */
  kgNotes?: KgNotesSource;
  /** injectable clock for tests */
  now?: () => number;
}

export interface Strategy {
  readonly id: StrategyId;
  readonly label: string;
  readonly description: string;
  /** Yields derivation events while it runs; returns the turn result. Never throws for expected failures. */
  run(input: StrategyInput, deps: StrategyDeps): AsyncGenerator<DerivationEvent, TurnResult, void>;
  /**
   * Re-runs a turn from the step a user corrected. Absent: only an edited final query can re-run such a turn
   * (lib/pipeline/common/final-query-rerun.ts).
   */
  readonly rerun?: StrategyRerun;
}

/** How a strategy re-runs a turn from a corrected step: the earlier steps' state kept, no LLM call for what the user decided. */
export interface StrategyRerun {
  /** the corrections it accepts */
  readonly kinds: readonly CorrectionKind[];
  /** Throws AppError("bad_request") when the correction does not fit the snapshot; called before a new attempt is stored. */
  check(input: Omit<RerunInput, "signal" | "baseTrace">): void | Promise<void>;
  run(input: RerunInput, deps: StrategyDeps): AsyncGenerator<DerivationEvent, TurnResult, void>;
}
