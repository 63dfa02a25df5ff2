// A row's value looked up by its name, on a table whose e-mails mostly hold the person's name (quarries fixture,
// inspectors): the example asks about the row whose e-mail does not repeat its name — an answer that repeats the
// question is rejected, and with it the only example of that structure.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/quarries.ttl");

describe("a row's value by its name", () => {
  it("asks about a row whose value is not its name again", async () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "value-of-by-key" && x.frame.key === "inspector name" && x.frame.p === "inspector email" && !x.frame.q);
    expect(e?.question).toBe("What is the inspector email of the inspector whose inspector name is Dell Price?");
    const r = await fx.kg.query(e?.sparql ?? "");
    expect(r.kind === "SELECT" && r.results.bindings.map((b) => b[r.head.vars[0]]?.value)).toEqual(["office.north@quarries.example"]);
  });
});
