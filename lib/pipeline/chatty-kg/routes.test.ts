import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { afterChat, answeredEarly, needsClassification, needsRephrasing, needsTranslation, workingQuestion } from "./routes";
import type { ChattyState } from "./state";

const base: ChattyState = { question: "Wann wurde er geboren?", dialogue: [], config: DEFAULT_CONFIG };
const followUp: ChattyState = { ...base, dialogue: [{ question: "Who played Harry Potter?", answer: { kind: "count", count: 1 } }] };

describe("routes", () => {
  it("routes to the KG unless the Chat agent produced a reply", () => {
    expect(afterChat({ ...base, route: "kg" })).toBe("kg");
    expect(afterChat({ ...base, route: "reply", reply: { kind: "chat", text: "Hi!" } })).toBe("reply");
    expect(afterChat({ ...base, route: "reply" })).toBe("kg");
  });

  it("skips the classifier on the first turn, in single-turn mode, and when already classified", () => {
    expect(needsClassification(base)).toBe(false);
    expect(needsClassification(followUp)).toBe(true);
    expect(needsClassification({ ...followUp, config: { ...DEFAULT_CONFIG, mode: "single" } })).toBe(false);
    expect(needsClassification({ ...followUp, contextDependent: false })).toBe(false);
  });

  it("rephrases only dependent questions without a standalone form", () => {
    expect(needsRephrasing({ ...followUp, contextDependent: true })).toBe(true);
    expect(needsRephrasing({ ...followUp, contextDependent: true, standaloneQuestion: "When was Daniel Radcliffe born?" })).toBe(false);
    expect(needsRephrasing({ ...followUp, contextDependent: false })).toBe(false);
  });

  it("works on the most processed form of the question", () => {
    expect(needsTranslation(base)).toBe(true);
    expect(workingQuestion({ ...base, englishQuestion: "When was he born?" })).toBe("When was he born?");
    expect(workingQuestion({ ...base, englishQuestion: "When was he born?", standaloneQuestion: "When was Daniel Radcliffe born?" })).toBe(
      "When was Daniel Radcliffe born?",
    );
  });

  it("skips the remaining answer steps once an agent has answered (no predicate fits → none)", () => {
    expect(answeredEarly(base)).toBe(false);
    expect(answeredEarly({ ...base, answer: { kind: "none", reason: "The KG has no \"mayor\" for Hogsmeade." } })).toBe(true);
  });
});
