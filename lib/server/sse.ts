// A UI message stream (AI SDK protocol v1) written straight as Server-Sent Events bytes, in small batches.
// Why not createUIMessageStreamResponse: it passes every part through three web streams (the part stream, JSON→SSE,
// text encoder) and Next writes each to the socket on its own; a turn sends ~30 parts, so under load that was a
// measurable share of the main thread. Here a part is serialized once and the parts of a few milliseconds go out as
// one chunk. The bytes are the same protocol: `data: <part JSON>\n\n`…, then `data: [DONE]\n\n`.
import "server-only";
import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from "ai";

/** How long parts wait to be sent together: short enough that a live derivation looks live. */
export const SSE_BATCH_MS = 10;

export interface SseOptions {
  /** text of the `error` part sent when `run` throws */
  onError: (e: unknown) => string;
  headers?: Record<string, string>;
  batchMs?: number;
}

/**
 * The response streaming what `run` writes. `run` keeps running when the client goes away (writes are then
 * dropped), so whatever it records still completes.
 */
export function uiMessageSseResponse(run: (write: (part: UIMessageChunk) => void) => Promise<void>, opts: SseOptions): Response {
  const encoder = new TextEncoder();
  const batchMs = opts.batchMs ?? SSE_BATCH_MS;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    if (!open || pending === "") return;
    const bytes = encoder.encode(pending);
    pending = "";
    try {
      controller.enqueue(bytes);
    } catch {
      open = false; // the reader is gone
    }
  };
  const write = (part: UIMessageChunk) => {
    if (!open) return;
    pending += `data: ${JSON.stringify(part)}\n\n`;
    timer ??= setTimeout(flush, batchMs);
  };
  const end = () => {
    if (timer) clearTimeout(timer);
    pending += "data: [DONE]\n\n";
    flush();
    if (!open) return;
    open = false;
    try {
      controller.close();
    } catch {
      // cancelled meanwhile
    }
  };

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      run(write).then(end, (e: unknown) => {
        write({ type: "error", errorText: opts.onError(e) });
        end();
      });
    },
    cancel() {
      open = false;
      if (timer) clearTimeout(timer);
    },
  });
  return new Response(body, { headers: { ...UI_MESSAGE_STREAM_HEADERS, ...opts.headers } });
}
