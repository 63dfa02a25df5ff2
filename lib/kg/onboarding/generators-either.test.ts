// The rows whose category is one of two values, on the fixture KG of kilns (fuel: a category several kilns share):
// counted the way a person writes it, with the two values in the question, and answered from the KG.
import { describe, expect, it } from "vitest";
import { answersOf, exampleLike, usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { twoValues } from "./generators-either";
import type { Seed } from "./seeds";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/kilns.ttl");
const K = "http://example.org/kilns/";

describe("how many rows have one of two values", () => {
  it("counts the kilns of either of two fuels, naming both in the question", async () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "count-either" && x.frame.p === "fuel");
    expect(e?.question).toMatch(/^How many kilns have fuel (wood|gas|oil) or (wood|gas|oil)\?$/);
    const [a, b] = [e?.frame.value, e?.frame.value2];
    expect(a).not.toBe(b);
    const like = exampleLike(fx, `SELECT (COUNT(?k) AS ?n) WHERE { ?k <${K}fuel> ?f FILTER(?f = "${a}" || ?f = "${b}") }`);
    expect(like?.id).toBe(e?.id);
    const either = await answersOf(fx, `SELECT ?k WHERE { ?k <${K}fuel> ?f FILTER(?f IN ("${a}", "${b}")) }`);
    expect(await answersOf(fx, e?.sparql ?? "")).toEqual([String(either.length)]);
  });

  it("takes the two most shared values of a sample, and none from a column without two", () => {
    const seed = (values: string[]) => ({ pairs: values.map((v, i) => ({ s: `r${i}`, o: { type: "literal", value: v } })) }) as unknown as Seed;
    expect(twoValues(seed(["oil", "wood", "gas", "wood", "gas", "wood"]))?.map((t) => t.value)).toEqual(["wood", "gas"]);
    expect(twoValues(seed(["oil", "oil"]))).toBeUndefined();
    expect(twoValues(seed(["oil", "wood, gas", "oil and gas", "gas"]))?.map((t) => t.value)).toEqual(["oil", "gas"]);
  });
});
