// The SSE response reads back with the AI SDK's own parser; parts are batched; a failure or a departed client is handled.
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { uiMessageSseResponse } from "./sse";

async function readChunks(res: Response): Promise<string[]> {
  const out: string[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(decoder.decode(value));
  }
}

async function parsedParts(res: Response): Promise<UIMessageChunk[]> {
  const parts: UIMessageChunk[] = [];
  const reader = parseJsonEventStream({ stream: res.body!, schema: uiMessageChunkSchema }).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    if (!value.success) throw value.error;
    parts.push(value.value);
  }
}

const PARTS: UIMessageChunk[] = [
  { type: "start", messageId: "t1" },
  { type: "data-turn", id: "turn-t1", data: { index: 0, title: "Ünïcode \"quoted\"\nline" } },
  { type: "data-event", data: { type: "stage-start", stage: "qir", at: 1 } },
  { type: "finish" },
];

describe("uiMessageSseResponse", () => {
  it("speaks the AI SDK's UI message stream protocol: its parser reads back every part, and a UI message builds", async () => {
    const res = uiMessageSseResponse(async (write) => PARTS.forEach(write), { onError: () => "x" });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(await parsedParts(res)).toEqual(PARTS);

    const again = uiMessageSseResponse(async (write) => PARTS.forEach(write), { onError: () => "x" });
    const parts = parseJsonEventStream({ stream: again.body!, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream({ transform: (p, c) => void (p.success && c.enqueue(p.value)) }),
    );
    let last;
    for await (const message of readUIMessageStream({ stream: parts })) last = message;
    expect(last?.id).toBe("t1");
    expect(last?.parts).toContainEqual({ type: "data-turn", id: "turn-t1", data: { index: 0, title: "Ünïcode \"quoted\"\nline" } });
  });

  it("sends the parts of one moment as one chunk, later parts in the next, and ends with [DONE]", async () => {
    const res = uiMessageSseResponse(
      async (write) => {
        write(PARTS[0]);
        write(PARTS[1]);
        await new Promise((r) => setTimeout(r, 50));
        write(PARTS[2]);
        write(PARTS[3]);
      },
      { onError: () => "x", batchMs: 10 },
    );
    const chunks = await readChunks(res);
    expect(chunks.map((c) => c.match(/^data: /gm)?.length)).toEqual([2, 3]);
    expect(chunks.at(-1)).toMatch(/data: \[DONE\]\n\n$/);
  });

  it("a failing run ends with an error part carrying onError's text", async () => {
    const res = uiMessageSseResponse(
      async (write) => {
        write(PARTS[0]);
        throw new Error("secret details");
      },
      { onError: () => "The turn failed." },
    );
    expect(await parsedParts(res)).toEqual([PARTS[0], { type: "error", errorText: "The turn failed." }]);
  });

  it("keeps running when the client goes away (what it records still completes), dropping the writes", async () => {
    let finished = false;
    const res = uiMessageSseResponse(
      async (write) => {
        write(PARTS[0]);
        await new Promise((r) => setTimeout(r, 40));
        write(PARTS[1]);
        finished = true;
      },
      { onError: () => "x" },
    );
    await res.body!.cancel();
    await new Promise((r) => setTimeout(r, 80));
    expect(finished).toBe(true);
  });
});
