// Strategy registry: Chatty-KG is registered under its id; unknown ids are a clear bad_request.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { chattyKgStrategy } from "./chatty-kg/strategy";
import { getStrategy, STRATEGIES } from "./registry";
import { STRATEGY_IDS } from "./types";

describe("strategy registry", () => {
  it("finds Chatty-KG by id and lists each strategy once", () => {
    expect(getStrategy("chatty-kg")).toBe(chattyKgStrategy);
    expect(new Set(STRATEGIES.map((s) => s.id)).size).toBe(STRATEGIES.length);
  });

  it("registers every id of STRATEGY_IDS", () => {
    expect(STRATEGIES.map((s) => s.id).sort()).toEqual([...STRATEGY_IDS].sort());
    expect(getStrategy("ragonite").label).toBe("RAGONITE");
  });

  it("names the available strategies when asked for an unknown one", () => {
    let caught: unknown;
    try {
      getStrategy("no-such-strategy");
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught, "bad_request")).toBe(true);
    expect((caught as Error).message).toContain("chatty-kg");
  });
});
