// The strategies' parameters as the Advanced sheet explains them: a plain label, one sentence on what it changes, the
// paper's symbol where there is one, its bounds (the pipeline schema's) and which strategies read it. Defaults come from
// DEFAULT_CONFIG, so the sheet and the server never disagree.
import { DEFAULT_CONFIG, type PipelineConfig, type StrategyId } from "@/lib/pipeline/types";

type NumberKey = { [K in keyof PipelineConfig]: PipelineConfig[K] extends number ? K : never }[keyof PipelineConfig];
type BooleanKey = { [K in keyof PipelineConfig]: PipelineConfig[K] extends boolean ? K : never }[keyof PipelineConfig];

interface Common {
  label: string;
  /** what changing it does, in one sentence a user can act on */
  sentence: string;
  /** the paper's name for it (θ, L, vlimit, …), shown after the label */
  symbol?: string;
  /** the strategies that read it ("all": every strategy that queries the KG) */
  strategies: readonly StrategyId[] | "all";
}

export type ParameterInfo =
  | (Common & { kind: "number"; key: NumberKey; min: number; max: number; unit?: string })
  | (Common & { kind: "boolean"; key: BooleanKey });

export const PARAMETERS: readonly ParameterInfo[] = [
  {
    kind: "number",
    key: "theta",
    symbol: "θ",
    label: "Attempts per checked model step",
    sentence: "How often a model reply that fails its check is asked for again before the step gives up. More attempts: fewer failed turns, more LLM calls.",
    min: 1,
    max: 10,
    strategies: "all",
  },
  {
    kind: "number",
    key: "answerLimit",
    symbol: "L",
    label: "Answer items remembered per earlier turn",
    sentence: "In multi-turn mode, how many items of each earlier answer a follow-up question sees as context. Fewer: shorter prompts, but a follow-up about a long list may miss items.",
    min: 0,
    max: 10_000,
    strategies: "all",
  },
  {
    kind: "number",
    key: "queryTimeoutMs",
    label: "Time limit per SPARQL query",
    sentence: "How long one query may run on the KG before it is stopped. Raise it for slow endpoints; the turn as a whole still has the server's budget.",
    min: 100,
    max: 600_000,
    unit: "ms",
    strategies: "all",
  },
  {
    kind: "boolean",
    key: "allowModelKnowledge",
    label: "Answer from the model's own knowledge",
    sentence: "When the KG has no answer, let the model answer from what it knows; such answers are labelled “not from the KG”. Off: the chat says the KG has no answer.",
    strategies: ["triad"],
  },
  {
    kind: "number",
    key: "vlimit",
    symbol: "vlimit",
    label: "Candidate entities per name",
    sentence: "How many KG entities the label search returns for each name in the question before one is chosen. More: rarer matches are found, entity linking is slower.",
    min: 1,
    max: 10_000,
    strategies: ["chatty-kg", "triad"],
  },
  {
    kind: "number",
    key: "queryNum",
    symbol: "query_num",
    label: "Candidate queries kept",
    sentence: "How many generated SPARQL candidates are kept and may be run. More: more chances to find an answer, more queries on the KG.",
    min: 1,
    max: 1000,
    strategies: ["chatty-kg", "triad"],
  },
  {
    kind: "number",
    key: "topPredicates",
    symbol: "k",
    label: "Predicates offered per relation",
    sentence: "How many KG predicates, ranked by similarity to a relation in the question, are offered for it. More: fewer missed relations, longer prompts.",
    min: 1,
    max: 100,
    strategies: ["chatty-kg", "one-call"],
  },
  {
    kind: "boolean",
    key: "batchContext",
    label: "Understand the question in one call",
    sentence: "The Chat agent's call also classifies, rephrases and translates the question (one LLM call instead of up to three). Off: separate calls, as in the paper.",
    strategies: ["chatty-kg"],
  },
  {
    kind: "boolean",
    key: "batchQir",
    label: "Draft the question graph in the same call",
    sentence: "The same call also drafts the question graph, which is checked and only rebuilt when invalid. Needs the setting above; off: a separate QIR call.",
    strategies: ["chatty-kg"],
  },
  {
    kind: "number",
    key: "triadExamples",
    symbol: "N",
    label: "Examples shown to the G-agent",
    sentence: "How many solved examples the G-agent sees when it writes the query template. More: better templates for unusual questions, longer prompts.",
    min: 0,
    max: 20,
    strategies: ["triad"],
  },
  {
    kind: "number",
    key: "triadEntityCandidates",
    symbol: "K",
    label: "Entity candidates per slot",
    sentence: "How many KG entities are kept for each entity slot of the template. More: the right one is kept more often, more candidate queries.",
    min: 1,
    max: 20,
    strategies: ["triad"],
  },
  {
    kind: "number",
    key: "triadRelationCandidates",
    symbol: "K",
    label: "Relation candidates per slot",
    sentence: "How many KG predicates are kept for each relation slot of the template. More: the right one is kept more often, more candidate queries.",
    min: 1,
    max: 20,
    strategies: ["triad"],
  },
  {
    kind: "number",
    key: "triadRetries",
    symbol: "T",
    label: "Retries when no query returns rows",
    sentence: "How often the A-agent sends the G- and D-agent back when no candidate query returns rows. 0: the first result stands.",
    min: 0,
    max: 10,
    strategies: ["triad"],
  },
  {
    kind: "number",
    key: "ragoniteRounds",
    label: "Retrieval rounds",
    sentence: "How many rounds of SQL and fact search the agent may run before it answers. More: harder questions can be answered, each round costs time.",
    min: 1,
    max: 10,
    strategies: ["ragonite"],
  },
  {
    kind: "number",
    key: "explorerMaxSteps",
    label: "Tool calls per question",
    sentence: "How many times the model may call a KG tool for one question. When they run out the turn ends and says so, never with a guess.",
    min: 1,
    max: 200,
    strategies: ["explorer"],
  },
  {
    kind: "number",
    key: "explorerMaxTokens",
    label: "Token budget per question",
    sentence: "How many LLM tokens (prompt and reply) one question may use while exploring. Same rule as the tool calls: the turn ends and says so.",
    min: 1_000,
    max: 10_000_000,
    strategies: ["explorer"],
  },
  {
    kind: "number",
    key: "oneCallExamples",
    label: "Solved examples in the prompt",
    sentence: "How many solved questions of this KG (its experience pool) the model sees. More: better queries when similar questions were solved before.",
    min: 0,
    max: 20,
    strategies: ["one-call"],
  },
  {
    kind: "number",
    key: "oneCallAimedExamples",
    label: "Examples made for the question",
    sentence: "How many solved examples are generated from the KG for this very question (over the classes it names), beside the stored ones. 0: the stored examples only; each costs a few small queries.",
    min: 0,
    max: 10,
    strategies: ["one-call"],
  },
  {
    kind: "number",
    key: "oneCallRepairs",
    label: "Repairs after the first query",
    sentence: "How often a query the validator finds problems in is sent back to the model with those problems. 0: the first query stands.",
    min: 0,
    max: 10,
    strategies: ["one-call"],
  },
  {
    kind: "number",
    key: "oneCallCardTokens",
    label: "Room for schema cards",
    sentence: "About how many tokens of the prompt the KG's schema cards (classes and their predicates) may take. More: more of the schema is shown, longer prompts.",
    min: 200,
    max: 100_000,
    unit: "tokens",
    strategies: ["one-call"],
  },
  {
    kind: "number",
    key: "oneCallCardPredicates",
    label: "Predicates per schema card",
    sentence: "How many predicates each schema card lists, most frequent first.",
    min: 1,
    max: 200,
    strategies: ["one-call"],
  },
];

/** The parameters a strategy reads, its own first, then those every strategy shares. */
export function parametersFor(strategy: StrategyId): { own: ParameterInfo[]; shared: ParameterInfo[] } {
  // the LLM-only baseline never queries the KG: no query time limit
  const shared = PARAMETERS.filter((p) => p.strategies === "all" && !(strategy === "llm-only" && p.key === "queryTimeoutMs"));
  return { own: PARAMETERS.filter((p) => p.strategies !== "all" && p.strategies.includes(strategy)), shared };
}

export function defaultOf(p: ParameterInfo): number | boolean {
  return DEFAULT_CONFIG[p.key];
}

/** A value as the sheet shows it: numbers grouped ("20,000 ms"), switches as on/off. */
export function formatValue(p: ParameterInfo, v: number | boolean): string {
  if (p.kind === "boolean") return v ? "on" : "off";
  return `${(v as number).toLocaleString("en")}${p.unit ? ` ${p.unit}` : ""}`;
}

/** The parameters of `strategy` whose value differs from the default (the header says how many). */
export function changedParameters(config: PipelineConfig): ParameterInfo[] {
  const { own, shared } = parametersFor(config.strategy);
  return [...own, ...shared].filter((p) => config[p.key] !== defaultOf(p));
}
