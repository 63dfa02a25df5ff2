// Which oracle played a run's LLM and how its scores are labelled: no dependencies, so the eval pages' client
// components can use it (oracle-grounding.ts, which re-exports it, loads the WordNet lexicon from disk).

/** The two oracle kinds: `--llm oracle` (question-grounded, the default) and `--llm oracle-gold-shape` (today's copy). */
export const ORACLE_KINDS = ["question-grounded", "gold-shape"] as const;
export type OracleKind = (typeof ORACLE_KINDS)[number];

/** The label every score of that kind carries (run header, summary, eval page, docs). */
export const ORACLE_KIND_LABELS: Record<OracleKind, string> = {
  "question-grounded": "oracle: question-grounded ceiling",
  "gold-shape": "oracle: gold shape copied — not a pipeline ceiling",
};

/** The oracle kind of a run's recorded LLM (results before the kinds existed were gold-shape runs); null: not an oracle. */
export function oracleKindOf(llm: { provider: string; model: string }): OracleKind | null {
  if (llm.provider !== "oracle") return null;
  return /question-grounded/.test(llm.model) ? "question-grounded" : "gold-shape";
}

/** The label to show next to a run's scores ("oracle: question-grounded ceiling"), null when no oracle played the LLM. */
export function oracleLabelOf(llm: { provider: string; model: string }): string | null {
  const kind = oracleKindOf(llm);
  return kind ? ORACLE_KIND_LABELS[kind] : null;
}
