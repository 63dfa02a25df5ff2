import { describe, expect, it } from "vitest";
import { validateSlotChoices, type SlotOptions } from "./slot-choice";

const pending: SlotOptions<string>[] = [
  { slot: "e0", options: [{ n: 1, label: "Aurora", value: "a1" }, { n: 2, label: "Aurora", value: "a2" }, { n: 3, label: "Aurora Hall", value: "hall" }] },
  { slot: "r0", options: [{ n: 1, label: "performer", value: "p" }] },
];

describe("validateSlotChoices", () => {
  it("reads numbers (as numbers or text), an unambiguous label, and an empty list (nothing fits), best first", () => {
    const r = validateSlotChoices({ choices: { e0: ["3", 1], r0: [] } }, pending, 2);
    expect(r).toEqual({ ok: true, value: new Map([["e0", ["hall", "a1"]], ["r0", []]]) });
    expect(validateSlotChoices({ choices: { e0: "Aurora Hall", "<r0>": 1 } }, pending, 2)).toEqual({ ok: true, value: new Map([["e0", ["hall"]], ["r0", ["p"]]]) });
  });

  it("refuses a missing slot, more than K, an unknown option and an ambiguous label, saying which", () => {
    const r = validateSlotChoices({ choices: { e0: [1, 2, 3] } }, pending, 2);
    expect(r).toEqual({ ok: false, reason: "for e0: choose at most 2 options (got 3); no choice for r0" });
    const bad = validateSlotChoices({ choices: { e0: ["Aurora", 7], r0: [1] } }, pending, 2);
    expect(bad.ok ? "" : bad.reason).toBe('for e0: "Aurora" is not one of its option numbers; for e0: "7" is not one of its option numbers');
  });
});
