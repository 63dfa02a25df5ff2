// The shapes people ask of a table beyond one column: three columns of every row, two columns of the top row, a column
// beside its sort key, the category with the fewest rows, categories shared by at least two, two figures at once,
// a total per group, the rows below the average, the rows whose name contains a word — each executed on a fixture KG and answered from it.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/depots.nt");

async function answerOf(question: RegExp): Promise<string[][]> {
  const e = fx.prepared.examples.find((x) => question.test(x.question));
  expect(e, `${question}\n${fx.prepared.examples.map((x) => x.question).join("\n")}`).toBeDefined();
  const r = await fx.kg.query(e?.sparql ?? "");
  if (r.kind !== "SELECT") throw new Error(`not a SELECT: ${e?.sparql}`);
  return r.results.bindings.map((b) => r.head.vars.map((v) => b[v]?.value ?? ""));
}

describe("examples over several columns of a table", () => {
  it("three columns of every row", async () => {
    const rows = await answerOf(/^List the (plate|status|load tonnes|depot id), (plate|status|load tonnes|depot id) and (plate|status|load tonnes|depot id) of every truck\.$/);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toHaveLength(3);
  });

  it("two columns of the row with the highest value", async () => {
    const rows = await answerOf(/^What are the [\w ]+ and [\w ]+ of the truck with the highest load tonnes\?$/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveLength(2);
  });

  it("a column beside its sort key, sorted", async () => {
    const rows = await answerOf(/^List the [\w ]+ and load tonnes of all trucks sorted by load tonnes\.$/);
    const loads = rows.map((r) => Number(r[1]));
    expect(loads).toEqual([...loads].sort((a, b) => a - b));
  });

  it("the category with the fewest rows, and those shared by at least two", async () => {
    expect(await answerOf(/^Which city has the fewest depots\?$/)).toEqual([["Dunhallow", "1"]]);
    expect((await answerOf(/^Which status values are shared by at least 2 trucks\?$/)).map((r) => r[0]).sort()).toEqual(["idle", "loading", "on route"]);
  });

  it("two figures at once, a total per group, the rows below the average", async () => {
    const [avgMax] = await answerOf(/^What are the average and highest load tonnes of all trucks\?$/);
    expect(avgMax.map(Number).sort((a, b) => a - b)).toEqual([68 / 7, 15].sort((a, b) => a - b));
    const totals = await answerOf(/^What is the total load tonnes of the trucks for each status\?$/);
    expect(Object.fromEntries(totals)).toEqual({ loading: "18", idle: "27", "on route": "23" });
    const below = await answerOf(/^What are the names of the trucks with a load tonnes below the average\?$/);
    expect(below.map((r) => r[0]).sort()).toEqual(["DS-508", "KT-104", "KT-733", "RM-331"]);
  });

  it("the rows whose name contains a word (the answer holds the word), and another column of them", async () => {
    const named = fx.prepared.examples.find((x) => /^Which depot name of the depots contains "\w+"\?$/.test(x.question));
    const word = named?.question.match(/"(\w+)"/)?.[1] ?? "";
    const rows = await answerOf(/^Which depot name of the depots contains "\w+"\?$/);
    expect(rows).toHaveLength(1);
    // one depot name holds the word and is more than the word (an echo of the word alone would be dropped)
    expect(rows[0][0]).toContain(word);
    expect(rows[0][0]).not.toBe(word);
    const city = await answerOf(new RegExp(`^What is the city of the depots whose depot name contains "${word}"\\?$`));
    expect(city).toHaveLength(1);
  });
});
