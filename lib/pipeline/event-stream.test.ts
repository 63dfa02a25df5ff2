import { describe, expect, it } from "vitest";
import { streamEvents } from "./event-stream";

async function drain<E, R>(gen: AsyncGenerator<E, R, void>): Promise<{ events: E[]; result: R }> {
  const events: E[] = [];
  while (true) {
    const next = await gen.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

describe("streamEvents", () => {
  it("yields events in order, including ones emitted across awaits, then returns the result", async () => {
    const { events, result } = await drain(
      streamEvents<number, string>(async (emit) => {
        emit(1);
        await new Promise((r) => setTimeout(r, 5));
        emit(2);
        emit(3);
        return "done";
      }),
    );
    expect(events).toEqual([1, 2, 3]);
    expect(result).toBe("done");
  });

  it("delivers events emitted before a failure, then rethrows it", async () => {
    const gen = streamEvents<string, void>(async (emit) => {
      emit("started");
      throw new Error("boom");
    });
    expect(await gen.next()).toEqual({ done: false, value: "started" });
    await expect(gen.next()).rejects.toThrow("boom");
  });
});
