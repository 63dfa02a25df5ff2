// Startup sweep: turns a previous server left running are marked interrupted, except in the extra server processes.
import { afterEach, describe, expect, it, vi } from "vitest";

const markInterruptedTurns = vi.fn(async () => 2);
vi.mock("@/lib/db/queries", () => ({ getQueries: () => ({ markInterruptedTurns }) }));

describe("register()", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    markInterruptedTurns.mockClear();
  });

  it("marks unfinished turns interrupted in the (first) server process", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    const { register } = await import("@/instrumentation");
    await register();
    expect(markInterruptedTurns).toHaveBeenCalledTimes(1);
  });

  it("leaves them alone in the other processes of scripts/serve.mjs (their siblings may be running them)", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("CHATTY_STARTUP_SWEEP", "0");
    const { register } = await import("@/instrumentation");
    await register();
    expect(markInterruptedTurns).not.toHaveBeenCalled();
  });
});
