// The stages a turn can pass through, shared by the strategy interface (types.ts) and the corrections (corrections.ts).

/** Stages, in pipeline order; used for timing bars and failure attribution (paper Fig. 3, 4). */
export const STAGES = [
  "chat",
  "translate",
  "classify",
  "rephrase",
  "qir",
  // explorer: a plan, then tool calls that explore the KG and end with a final query
  "plan",
  "explore",
  "entity-linking",
  "relation-linking",
  "query-generation",
  "query-selection",
  "execution",
  // RAGONITE: the database and passage index induced from the KG, then the rounds of SQL and fact search
  "induction",
  "retrieval",
  "answer",
] as const;
export type Stage = (typeof STAGES)[number];
