// The benchmark run result file (result.json, version 1) and checkpoint lines: the stable contract the app's runs page reads.
import { z } from "zod";
import { answerSchema, statsSchema, turnErrorSchema } from "@/lib/db/json";
import { pipelineConfigSchema } from "@/lib/pipeline/types";
import { FAILURE_REASONS } from "./metrics";
import { SCORINGS } from "./scoring";
import { VALUE_COMPARISONS } from "./text2sparql-metrics";
import { goldAnswerSchema, QUESTION_TYPES } from "./types";

export const RESULT_VERSION = 1;

export const RUN_MODES = ["single", "dialogue", "standalone"] as const;
export type RunMode = (typeof RUN_MODES)[number];

export const questionScoreSchema = z.object({
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
  answered: z.boolean(),
  p1: z.number(),
  rr: z.number(),
  hit5: z.number(),
  /** text2sparql scoring, questions whose order matters (RESULT_ORDER_MATTERS): trec_eval ndcg */
  ndcg: z.number().optional(),
});

/** An oracle run's log of one question (lib/eval/oracle-grounding.ts OracleLog). */
export const oracleLogSchema = z.object({
  kind: z.enum(["question-grounded", "gold-shape"]),
  normalisations: z.array(z.string()),
  dropped: z.array(z.string()),
  refused: z.array(z.string()),
  datasetTexts: z.array(z.string()),
});

/** One question as run: what was asked, what came back, the gold, its scores and a trace summary. */
export const questionRecordSchema = z.object({
  /** `<mode>:<item id>`: unique in the run (an item may run in dialogue and standalone mode) */
  key: z.string(),
  id: z.string(),
  mode: z.enum(RUN_MODES),
  dialogueId: z.string().optional(),
  turn: z.number().int().optional(),
  /** the text sent to the strategy */
  question: z.string(),
  /** asked per language (--question-lang): the question's language; the id ends in `-<lang>` */
  lang: z.string().optional(),
  /** the strategy's standalone English reading of it */
  understoodAs: z.string().optional(),
  type: z.enum(QUESTION_TYPES),
  features: z.array(z.string()).default([]),
  goldSparql: z.string().optional(),
  gold: goldAnswerSchema.nullable(),
  /** why there is no gold (gold query failed, none in the dataset); such questions are not scored */
  goldError: z.string().optional(),
  answer: answerSchema.nullable(),
  source: z.enum(["kg", "llm", "none", "conversation", "failed"]),
  sparql: z.array(z.string()),
  /** null when not scored (no gold) */
  metrics: questionScoreSchema.nullable(),
  failure: z.enum(FAILURE_REASONS).nullable(),
  trace: statsSchema.and(z.object({ error: turnErrorSchema.optional() })),
  /** a query returned as many rows as config.pipeline.rowLimit allowed: the answer may be cut (the warning's text) */
  rowLimit: z.string().optional(),
  /** KG calls of the turn stopped by their timeout or refused by the turn's KG budget ("<stage>: <warning>") */
  kgCuts: z.array(z.string()).optional(),
  /** oracle runs: what the oracle grounded, dropped and normalised, and which dataset texts it used */
  oracle: oracleLogSchema.optional(),
  finishedAt: z.string(),
});
export type QuestionRecord = z.infer<typeof questionRecordSchema>;

const macroScoresSchema = z.object({
  n: z.number(),
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
  qaldF1: z.number(),
  p1: z.number(),
  mrr: z.number(),
  hit5: z.number(),
  /** text2sparql scoring: mean ndcg over the questions that have one; the official set_F_ndcg */
  ndcg: z.number().optional(),
  f1Ndcg: z.number().optional(),
});
export const macroSummarySchema = z.object({ all: macroScoresSchema, answeredOnly: macroScoresSchema });

export const costSummarySchema = z.object({
  questions: z.number(),
  totalMs: z.number(),
  meanMs: z.number(),
  meanStageGroupMs: z.record(z.string(), z.number()),
  meanStageMs: z.record(z.string(), z.number()),
  llmCalls: z.number(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  meanLlmCalls: z.number(),
  meanTokensIn: z.number(),
  meanTokensOut: z.number(),
  cost: z.number().nullable(),
  queries: z.number(),
  meanQueries: z.number(),
});

/** One language's averages as the official TEXT2SPARQL client prints them (lib/eval/text2sparql-languages.ts). */
const officialLanguageSchema = z.object({
  n: z.number(),
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
  ndcg: z.number().optional(),
  f1Ndcg: z.number().optional(),
});

export const modeSummarySchema = z.object({
  mode: z.enum(RUN_MODES),
  questions: z.number(),
  scored: z.number(),
  answered: z.number(),
  macro: macroSummarySchema,
  byType: z.record(z.string(), macroSummarySchema),
  byFeature: z.record(z.string(), macroSummarySchema),
  /** asked per language: each language's own questions (absent when the run was not) */
  byLanguage: z.record(z.string(), macroSummarySchema).optional(),
  /** a suite run: each KG's own questions (`<db>` of the manifest) */
  byKg: z.record(z.string(), macroSummarySchema).optional(),
  /** asked per language: the official client's per-language averages, quirks included */
  officialByLanguage: z.record(z.string(), officialLanguageSchema).optional(),
  cost: costSummarySchema,
  failures: z.record(z.string(), z.number()),
  /** answers from the model's own knowledge (source "llm", not from the KG), scored apart; absent when there are none */
  modelKnowledge: z.object({ questions: z.number(), macro: macroSummarySchema }).optional(),
  /** oracle runs: final queries equal to the gold query (normalised), constants dropped as ungrounded, normalisations used */
  oracle: z
    .object({
      kind: z.enum(["question-grounded", "gold-shape"]),
      questions: z.number(),
      equalToGold: z.number(),
      dropped: z.number(),
      questionsWithDropped: z.number(),
      normalisations: z.number(),
      refused: z.number(),
      datasetTexts: z.array(z.string()),
    })
    .optional(),
});
export type ModeSummary = z.infer<typeof modeSummarySchema>;

/** The CLI's KG-profile flags as given (scripts/kg-profile-args.ts); a flag not given is absent. */
export const kgProfileFlagsSchema = z.object({
  profile: z.string().optional(),
  "label-predicates": z.string().optional(),
  lang: z.string().optional(),
  "label-search": z.string().optional(),
});
export type KgProfileFlags = z.infer<typeof kgProfileFlagsSchema>;

/** What the run's KG answered label searches with: the flags and the profile they resolved to (defaults, URL preset, flags). */
export const runKgProfileSchema = z.object({
  flags: kgProfileFlagsSchema,
  effective: z.object({
    labelPredicates: z.array(z.string()),
    language: z.string(),
    prefixes: z.record(z.string(), z.string()),
    labelSearch: z.string(),
    typePredicates: z.array(z.string()),
    descriptionPredicates: z.array(z.string()),
    entitySearchUrl: z.string().optional(),
  }),
});
export type RunKgProfile = z.infer<typeof runKgProfileSchema>;

/** What loading the dataset did: records left out, gold queries given their well-known prefixes, the language asked. */
export const runLoadSchema = z.object({
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
  goldPrefixesDeclared: z.number().int(),
  /** --question-lang as given ("all" or a code) and the languages asked */
  questionLang: z.string().optional(),
  languages: z.array(z.string()).optional(),
});
export type RunLoad = z.infer<typeof runLoadSchema>;

/** Which solved examples the strategies were shown (--experience, --generated-pool); absent: none. */
export const runExperienceSchema = z.object({
  /** the imported pool of the KG (npm run experience) */
  imported: z.object({ pool: z.string(), entries: z.number().int(), excludeTestSplit: z.boolean() }).optional(),
  /** the KG onboarded in memory first: its generated examples and KG notes */
  generated: z.object({ examples: z.number().int(), ms: z.number(), status: z.string(), notes: z.boolean() }).optional(),
});
export type RunExperience = z.infer<typeof runExperienceSchema>;

export const runConfigSchema = z.object({
  dataset: z.string(),
  file: z.string(),
  kg: z.string(),
  modes: z.array(z.enum(RUN_MODES)),
  limit: z.number().int().nullable(),
  concurrency: z.number().int(),
  goldSource: z.enum(["auto", "dataset", "kg"]),
  prices: z.object({ inputPerMTok: z.number(), outputPerMTok: z.number() }).nullable(),
  pipeline: pipelineConfigSchema,
  /** absent in results written before it was recorded (still version 1: an optional addition) */
  kgProfile: runKgProfileSchema.optional(),
  /** the KG the gold SPARQL ran on when it was not `kg` (--gold-kg); absent: `kg` */
  goldKg: z.string().optional(),
  /** how answers were scored; absent (older results) = "items" */
  scoring: z.enum(SCORINGS).optional(),
  /** text2sparql scoring: how value strings were compared */
  valueComparison: z.enum(VALUE_COMPARISONS).optional(),
  /** a replay: the SPARQL of this file ran per question instead of a strategy */
  queries: z.object({ file: z.string(), count: z.number().int() }).optional(),
  /** absent in results written before it was recorded */
  load: runLoadSchema.optional(),
  /** solved examples shown to the strategies; absent: none (or a result written before it was recorded) */
  experience: runExperienceSchema.optional(),
});
export type RunConfig = z.infer<typeof runConfigSchema>;

const officialScoresSchema = z.object({
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
  ndcg: z.number().optional(),
  f1Ndcg: z.number().optional(),
});

/** A suite run (`--suite`): the manifest and each KG's part (its own run in `kgs/<db>/` beside result.json). */
export const suiteSchema = z.object({
  manifest: z.string(),
  kgs: z.array(
    z.object({
      db: z.string(),
      kg: z.string(),
      questions: z.string(),
      dataset: z.string(),
      domain: z.string().optional(),
      runId: z.string().optional(),
      kgName: z.string().optional(),
      complete: z.boolean(),
      cost: costSummarySchema.optional(),
      /** why the KG did not run (its KG or questions could not be loaded) */
      error: z.string().optional(),
    }),
  ),
});

export const runResultSchema = z.object({
  version: z.literal(RESULT_VERSION),
  runId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** false when the run was interrupted; `questions` then holds what finished */
  complete: z.boolean(),
  config: runConfigSchema,
  strategy: z.object({ id: z.string(), label: z.string() }),
  llm: z.object({ provider: z.string(), model: z.string() }),
  kg: z.object({ id: z.string(), name: z.string(), kind: z.string() }),
  summary: z.object({
    modes: z.array(modeSummarySchema),
    /** dialogue F1 / standalone F1 (macro over all questions), when both modes ran */
    retention: z.number().nullable(),
  }),
  questions: z.array(questionRecordSchema),
  /** a replay scored against the system's published evaluation (e.g. ck25_eval.json): per-question agreement */
  comparison: z
    .object({
      file: z.string(),
      compared: z.number().int(),
      equal: z.number().int(),
      differing: z.array(z.object({ id: z.string(), official: officialScoresSchema, ours: officialScoresSchema.nullable() })),
      officialAverage: officialScoresSchema.optional(),
      /** the published per-language averages ("average-<lang>"), when the evaluation has them */
      languageAverages: z.record(z.string(), officialScoresSchema).optional(),
    })
    .optional(),
  /** a suite run: several KGs as one result (question ids `<db>/<id>`) */
  suite: suiteSchema.optional(),
});
export type RunResult = z.infer<typeof runResultSchema>;
