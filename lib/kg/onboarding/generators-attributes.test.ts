// Attribute-by-attribute examples on a fixture KG: one attribute of the things another attribute picks out (by a
// value, a threshold either way, the highest/lowest, an order either way), two attributes at once, and across a join.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/comets.ttl");
const find = (re: RegExp) => fx.prepared.examples.find((e) => re.test(e.question));

describe("one attribute picked out by another", () => {
  it("builds each kind from the class's own predicates, and each answers from the KG", async () => {
    const cases: [RegExp, RegExp][] = [
      [/^What is the orbit years of each comet with an estimated mass less than \d+\?$/, /FILTER\(\?estimated_mass < \d+\)/],
      [/^What is the comet code of the comet with the lowest orbit years\?$/, /ORDER BY ASC\(\?orbit_years\) LIMIT 1/],
      [/^List the comet code of all comets sorted by estimated mass, highest first\.$/, /ORDER BY DESC\(\?estimated_mass\)$/],
      [/^What are the .+ and .+ of the comets? whose tail colour is \w+\?$/, /SELECT \?\w+ \?\w+ WHERE/],
      [/^List the comet code and estimated mass of every comet\.$/, /SELECT \?comet_code \?estimated_mass/],
    ];
    for (const [question, sparql] of cases) {
      const e = find(question);
      expect(e, String(question)).toBeDefined();
      expect(e?.sparql).toMatch(sparql);
      const r = await fx.kg.query(e?.sparql ?? "");
      expect(r.kind === "SELECT" && r.results.bindings.length).toBeGreaterThan(0);
    }
  });

  it("asks across a join: an attribute of the things whose linked thing has a value", () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "join-filter" && x.frame.key);
    expect(e?.question).toMatch(/^What is the [\w ]+ of each comet that (is discovered by an observer|is in a group) whose [\w ]+ is \w+\?$/);
  });
});
