// Stream chunk routing: each data part becomes one reducer action for its turn; other chunks are ignored.
import { describe, expect, it } from "vitest";
import type { UIMessageChunk } from "ai";
import { chunkToAction, errorFromThrown } from "./use-turn-stream";

describe("chunkToAction", () => {
  it("routes the four data parts and stream errors to actions for the turn key", () => {
    const turn = { conversationId: "c", turnId: "t", index: 0, question: "q", newConversation: true, title: "q" };
    expect(chunkToAction("k", { type: "data-turn", data: turn } as UIMessageChunk)).toEqual({ type: "turn", key: "k", data: turn });
    const event = { type: "stage-start", stage: "qir", at: 1 };
    expect(chunkToAction("k", { type: "data-event", data: event } as UIMessageChunk)).toEqual({ type: "event", key: "k", event });
    const res = { turnId: "t", status: "done", result: {} };
    expect(chunkToAction("k", { type: "data-result", data: res } as UIMessageChunk)).toEqual({ type: "result", key: "k", data: res });
    const err = { code: "kg_timeout", message: "slow" };
    expect(chunkToAction("k", { type: "data-error", data: err } as UIMessageChunk)).toEqual({ type: "error", key: "k", error: err });
    expect(chunkToAction("k", { type: "error", errorText: "socket closed" })).toEqual({
      type: "error",
      key: "k",
      error: { code: "stream_error", message: "socket closed" },
    });
  });

  it("ignores message framing chunks", () => {
    expect(chunkToAction("k", { type: "start" })).toBeNull();
    expect(chunkToAction("k", { type: "finish" })).toBeNull();
    expect(chunkToAction("k", { type: "text-delta", id: "1", delta: "hi" })).toBeNull();
  });
});

describe("errorFromThrown", () => {
  it("reads the API's error body out of the thrown message", () => {
    const e = new Error(JSON.stringify({ error: { code: "not_found", message: "No such KG." } }));
    expect(errorFromThrown(e)).toEqual({ code: "not_found", message: "No such KG." });
  });
  it("keeps plain text as a network error, with a default for empty text", () => {
    expect(errorFromThrown(new Error("Failed to fetch"))).toEqual({ code: "network", message: "Failed to fetch" });
    expect(errorFromThrown(new Error(""))).toEqual({ code: "network", message: "The request failed." });
  });
});
