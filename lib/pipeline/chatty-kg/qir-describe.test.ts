import { describe, expect, it } from "vitest";
import { describeConstraints } from "./qir-describe";
import type { Qir } from "./state";

const base: Qir = { entities: [], unknowns: ["?h", "?r", "?c"], relations: ["rooms", "city"], triples: [], target: "?c", questionType: "factoid" };

describe("describeConstraints", () => {
  it("says nothing for a plain QIR", () => {
    expect(describeConstraints(base)).toEqual([]);
  });

  it("renders every constraint as a short phrase, in a fixed order", () => {
    const qir: Qir = {
      ...base,
      values: [{ text: "Lisbon", type: "string" }],
      classes: [{ variable: "?h", mention: "hotel" }],
      comparisons: [
        { variable: "?r", op: "between", values: [{ text: "10", type: "number" }, { text: "20", type: "number" }] },
        { variable: "?c", op: "in", values: [{ text: "Porto", type: "string" }, { text: "Braga", type: "string" }] },
        { variable: "?w", op: ">", values: [], other: "?t" },
      ],
      negated: [{ subject: "?h", relation: "restaurant", object: "?x" }],
      exclude: { variable: "?h", entities: ["Casa Azul"], earlierAnswers: true },
      aggregates: [{ fn: "avg", variable: "?r", alias: "?avg_r" }],
      groupBy: ["?c"],
      order: [{ variable: "?h", direction: "desc", count: true }],
      limit: 3,
      offset: 5,
      columns: ["?avg_r"],
    };
    expect(describeConstraints(qir)).toEqual([
      '"Lisbon" is a string value',
      "?h is a hotel",
      "?r between 10 and 20",
      '?c in ("Porto", "Braga")',
      "?w > ?t",
      "not ⟨?h, restaurant, ?x⟩",
      '?h other than "Casa Azul", earlier answers',
      "?avg_r = avg(?r)",
      "per ?c",
      "order by count(?h) desc",
      "limit 3",
      "offset 5",
      "show ?c, ?avg_r",
    ]);
  });
});
