import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { advise, attemptOver, nextAttempt } from "./routes";
import type { TriadState } from "./state";

const base = (patch: Partial<TriadState> = {}, config: Partial<TriadState["config"]> = {}): TriadState => ({
  question: "q",
  dialogue: [],
  config: { ...DEFAULT_CONFIG, ...config },
  attempt: 1,
  misses: [],
  ...patch,
});
const chosen = { id: 1, sparql: "ASK {}", fillers: {}, rank: 0 };

describe("advise (the A-agent's decision)", () => {
  it("answers from the rows when a query was chosen, else retries while attempts remain (T)", () => {
    expect(advise(base({ chosen }))).toBe("answer");
    expect(advise(base({ miss: "none" }, { triadRetries: 3 }))).toBe("retry");
    expect(advise(base({ miss: "none", attempt: 4 }, { triadRetries: 3 }))).toBe("none");
    expect(advise(base({ miss: "none" }, { triadRetries: 0 }))).toBe("none");
  });

  it("uses the model's own knowledge only behind allowModelKnowledge, and never to hide a KG error", () => {
    expect(advise(base({ miss: "none" }, { triadRetries: 0, allowModelKnowledge: true }))).toBe("model-knowledge");
    const llmFailure = { stage: "qir" as const, code: "pipeline_failed", message: "no template" };
    expect(advise(base({ failure: llmFailure }, { allowModelKnowledge: true }))).toBe("model-knowledge");
    expect(advise(base({ failure: llmFailure }, { allowModelKnowledge: false }))).toBe("failed");
    const kgDown = { stage: "entity-linking" as const, code: "kg_unreachable", message: "down" };
    expect(advise(base({ failure: kgDown }, { allowModelKnowledge: true }))).toBe("failed");
  });
});

describe("attemptOver and nextAttempt", () => {
  it("skip the rest of an attempt that missed, and start the next one remembering what was tried", () => {
    expect(attemptOver(base({ miss: "x" }))).toBe(true);
    expect(attemptOver(base())).toBe(false);
    const next = nextAttempt(base({ miss: "nothing fits", chosen, decision: "retry" }));
    expect(next).toMatchObject({ attempt: 2, misses: [{ attempt: 1, template: "(no template)", reason: "nothing fits" }], chosen: undefined, miss: undefined, decision: undefined });
  });
});
