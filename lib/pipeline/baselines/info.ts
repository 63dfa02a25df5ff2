// Names and one-line descriptions of the benchmark baselines (client-safe: no server imports), for the registry and the UI.

export const BASELINE_INFO = {
  "llm-only": {
    label: "LLM only",
    description: "Baseline: the model answers from its own knowledge in one call; the KG is never queried (the paper's GPT-4o rows).",
  },
  "one-shot-sparql": {
    label: "One-shot SPARQL",
    description:
      "Baseline: the model sees a schema summary of the KG and writes one SPARQL query (retried with the error on failure), like LangChain's GraphSparqlQAChain.",
  },
} as const;
