import { describe, expect, it } from "vitest";
import { validateModelAnswer } from "./model-answer";

describe("validateModelAnswer", () => {
  it("rejects sentences and empty entries", () => {
    expect(validateModelAnswer({ answers: [""], type: "list" }).ok).toBe(false);
    expect(validateModelAnswer({ answers: ["x".repeat(400)], type: "list" }).ok).toBe(false);
    expect(validateModelAnswer({ answers: ["1,234"], type: "count" })).toEqual({ ok: true, value: { kind: "count", count: 1234 } });
  });

  it("reads yes/no, keeps list entries once, and an empty list is 'none', never a guess", () => {
    expect(validateModelAnswer({ answers: ["Yes."], type: "boolean" })).toEqual({ ok: true, value: { kind: "boolean", value: true } });
    expect(validateModelAnswer({ answers: ["maybe"], type: "boolean" }).ok).toBe(false);
    expect(validateModelAnswer({ answers: ["Oslo", "Oslo", 1912], type: "list" })).toEqual({
      ok: true,
      value: { kind: "items", items: [{ type: "literal", value: "Oslo" }, { type: "literal", value: "1912" }] },
    });
    expect(validateModelAnswer({ answers: [], type: "list" })).toMatchObject({ ok: true, value: { kind: "none" } });
  });
});
