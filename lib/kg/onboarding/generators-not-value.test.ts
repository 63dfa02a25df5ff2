// The rows whose text column is not a value, on a fixture KG of kilns: by a text that never repeats (a village) as
// well as by a category (a fuel), asking for the name, or the name and another column at once; each answers from the
// KG without the rows that have the value.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/kilns.ttl");

async function rows(sparql: string): Promise<Record<string, string>[]> {
  const r = await fx.kg.query(sparql);
  if (r.kind !== "SELECT") throw new Error("not a SELECT");
  return r.results.bindings.map((b) => Object.fromEntries(Object.entries(b).map(([k, t]) => [k, t?.value ?? ""])));
}

describe("the rows whose text is not a value", () => {
  it("leaves out one row by a text that never repeats, asking for the rows' names", async () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "attribute-not-value" && x.frame.key === "village");
    expect(e?.question).toMatch(/^What is the kiln name of the kilns whose village is not [A-Z][\w ]+\?$/);
    const village = e?.frame.value ?? "";
    const names = (await rows(e?.sparql ?? "")).map((r) => Object.values(r)[0]);
    const left = (await rows(`SELECT ?n WHERE { ?k <http://example.org/kilns/village> "${village}" ; <http://example.org/kilns/kiln_name> ?n }`)).map((r) => r.n);
    expect(left).toHaveLength(1);
    expect(names).toHaveLength(7);
    expect(names).not.toContain(left[0]);
  });

  it("asks for the name and another column of the rows outside a category", async () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "pair-not-value");
    expect(e?.question).toMatch(/^What are the kiln name and [\w ]+ of the kilns whose fuel is not (wood|gas|oil)\?$/);
    expect(e?.sparql).toMatch(/SELECT \?kiln_name \?\w+ WHERE/);
    const answer = await rows(e?.sparql ?? "");
    const all = await rows(`SELECT ?k WHERE { ?k <http://example.org/kilns/fuel> ?f . FILTER(?f != "${e?.frame.value}") }`);
    expect(answer.length).toBeGreaterThan(0);
    expect(answer).toHaveLength(all.length);
    expect(answer.every((r) => Object.keys(r).length === 2)).toBe(true);
  });
});
