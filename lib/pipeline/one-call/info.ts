// Name and one-line description of the one-call strategy (client-safe: no server imports), for the registry and the UI.
export const ONE_CALL_INFO = {
  label: "One call",
  description:
    "Solved examples from the experience pool and schema cards of the KG in one model call; the query is validated against the KG and repaired with the concrete problems (TEXT2SPARQL'26 winner's recipe).",
} as const;
