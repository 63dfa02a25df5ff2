// What the lib/db query tests share: two sessions, a turn config, a finished turn's result and trace, and the check
// that another session gets not_found (ids do not leak across sessions).
import { expect } from "vitest";
import { isAppError } from "@/lib/errors";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";

export const ALICE = "session-alice";
export const BOB = "session-bob";
export const config = { kg: { id: "sample", name: "Sample KG" }, llm: { provider: "mock", model: "m" } };

export async function expectNotFound(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(isAppError(e, "not_found"), `expected not_found, got ${String(e)}`).toBe(true);
}

export const result: TurnResult = {
  answer: { kind: "items", items: [{ type: "uri", value: "http://example.org/Paris", label: "Paris" }] },
  source: "kg",
  standaloneQuestion: "What is the capital of France?",
  sparql: ["SELECT ?c WHERE { <http://example.org/France> <http://example.org/capital> ?c }"],
  stats: { ms: 1200, llmCalls: 4, tokensIn: 900, tokensOut: 120, queries: 3, stageMs: { qir: 300, execution: 40 } },
};
export const trace: DerivationEvent[] = [
  { type: "stage-start", stage: "qir", at: 1 },
  { type: "stage-end", stage: "qir", at: 2, ms: 1, summary: "1 triple" },
];
