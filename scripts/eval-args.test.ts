// The eval CLI's scoring and replay flags: defaults per dataset, bad values named, the published evaluation found.
import { describe, expect, it } from "vitest";
import { EVAL_ROW_LIMIT, officialEvalBeside, parseScoringArgs } from "./eval-args";

const FX = "test/fixtures/eval";

describe("parseScoringArgs", () => {
  it("defaults: the official scoring for ck25/text2sparql, items elsewhere; exact values; the eval row limit", () => {
    expect(parseScoringArgs({}, "ck25")).toEqual({ scoring: "text2sparql", valueComparison: "exact", rowLimit: EVAL_ROW_LIMIT });
    expect(parseScoringArgs({}, "text2sparql").scoring).toBe("text2sparql");
    expect(parseScoringArgs({}, "qald").scoring).toBe("items");
    expect(parseScoringArgs({ scoring: "items" }, "ck25").scoring).toBe("items");
    expect(EVAL_ROW_LIMIT).toBeGreaterThan(1647 * 100);
  });

  it("takes --value-comparison, --row-limit and --queries, finding <prefix>_eval.json beside <prefix>_answers.json", () => {
    const a = parseScoringArgs({ "value-comparison": "numeric", "row-limit": "5000", queries: `${FX}/official/team_answers.json` }, "ck25");
    expect(a).toEqual({ scoring: "text2sparql", valueComparison: "numeric", rowLimit: 5000, queries: `${FX}/official/team_answers.json`, officialEval: `${FX}/official/team_eval.json` });
    expect(parseScoringArgs({ queries: `${FX}/queries/plain.json` }, "ck25").officialEval).toBeUndefined();
    expect(officialEvalBeside(`${FX}/queries/answers.json`)).toBeUndefined();
  });

  it("refuses bad values naming the flag", () => {
    expect(() => parseScoringArgs({ scoring: "f1" }, "ck25")).toThrow(/--scoring must be items or text2sparql \(got "f1"\)/);
    expect(() => parseScoringArgs({ "value-comparison": "fuzzy" }, "ck25")).toThrow(/--value-comparison must be exact or numeric/);
    expect(() => parseScoringArgs({ "value-comparison": "numeric" }, "qald")).toThrow(/applies to --scoring text2sparql only/);
    expect(() => parseScoringArgs({ "row-limit": "0" }, "ck25")).toThrow(/--row-limit must be an integer/);
    expect(() => parseScoringArgs({ "row-limit": "1e3x" }, "ck25")).toThrow(/--row-limit must be an integer/);
    expect(() => parseScoringArgs({ queries: `${FX}/nope.json` }, "ck25")).toThrow(/Queries file not found: .*nope\.json/);
    expect(() => parseScoringArgs({ "official-eval": `${FX}/official/team_eval.json` }, "ck25")).toThrow(/--official-eval needs --queries/);
  });
});
