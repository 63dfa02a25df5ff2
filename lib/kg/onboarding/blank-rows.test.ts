// Table-style KGs: rows that are blank nodes (no IRI) are described, asked about by their values and joined typed;
// rows with key=value IRIs but no naming column are never asked about by IRI, and their joins are typed too.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/kennels.ttl");
const rows = async (sparql: string) => {
  const r = await fx.kg.query(sparql);
  return r.kind === "SELECT" ? r.results.bindings.length : -1;
};

describe("rows that are blank nodes", () => {
  it("are described: the class's predicates with their roles", () => {
    const kennel = fx.prepared.profile?.classes.find((c) => c.iri.endsWith("/kennel"));
    expect(kennel?.blankNodes).toBe(true);
    expect(kennel?.predicates.map((p) => p.name).sort()).toEqual(["capacity", "kennel name", "town"]);
    const stay = fx.prepared.profile?.classes.find((c) => c.iri.endsWith("/stay"));
    expect(stay?.predicates.find((p) => p.name === "ref kennel")?.role).toBe("object");
  });

  it("are asked about by their values, and every such query answers from the KG", async () => {
    const byKey = fx.prepared.examples.find((e) => /^What is the capacity of the kennel whose kennel name is [\w ]+\?$/.test(e.question));
    expect(byKey).toBeDefined();
    expect(await rows(byKey?.sparql ?? "")).toBe(1);
    expect(fx.prepared.examples.some((e) => e.frame.kind === "superlative" && /^What is the name of the kennel with the (highest|lowest) capacity\?$/.test(e.question))).toBe(true);
    // a blank node is never written into a query or a question
    expect(fx.prepared.examples.filter((e) => /_:/.test(e.sparql) || /_:/.test(e.question))).toEqual([]);
  });

  it("are joined through links to other blank rows, the linked rows typed as the table's queries are", async () => {
    const join = fx.prepared.examples.find((e) => e.frame.kind === "join-count" && /ref_kennel/.test(e.sparql));
    expect(join?.question).toMatch(/^How many stays have a ref kennel whose (town|kennel name) is [\w ]+\?$/);
    expect(join?.sparql).toMatch(/ref_kennel \?(\w+) \. \?\1 a \w+:kennel \./);
    expect(await rows(join?.sparql ?? "")).toBe(1);
  });
});

describe("rows with key=value IRIs and no naming column", () => {
  it("are not asked about by IRI, and their joins are typed", () => {
    const checkups = fx.prepared.examples.filter((e) => /\w+:checkup\b/.test(e.sparql));
    expect(checkups.length).toBeGreaterThan(5);
    expect(checkups.filter((e) => e.frame.kind === "value-of" || e.frame.kind === "yes-no" || /checkup_id=/.test(e.sparql))).toEqual([]);
    const join = checkups.find((e) => e.frame.kind === "join-count");
    expect(join?.sparql).toMatch(/ref_checked_dog \?(\w+) \. \?\1 a \w+:dog_record \./);
  });
});

describe("counts per the linked thing's attribute", () => {
  it("counts, ranks and filters groups across a link, and lists an attribute beside the linked one's", async () => {
    const cases: [RegExp, RegExp, number][] = [
      [/^How many stays are there for each kennel (town|name)\?$/, /GROUP BY \?\w+$/, 2],
      [/^Which dog (name|breed) has the most stays\?$/, /ORDER BY DESC\(\?count\) LIMIT 1$/, 1],
      [/^Which kennel (towns|names) have more than 1 stay\?$/, /HAVING \(COUNT\(DISTINCT \?stay\) > 1\)$/, 2],
      [/^List the (nights|stay status) of each stay and its (kennel|dog) [\w ]+\.$/, /SELECT \?(nights|stay_status) \?\w+ WHERE/, 6],
    ];
    for (const [question, sparql, n] of cases) {
      const e = fx.prepared.examples.find((x) => question.test(x.question));
      expect(e, String(question)).toBeDefined();
      expect(e?.sparql).toMatch(sparql);
      expect(await rows(e?.sparql ?? "")).toBeGreaterThanOrEqual(n);
    }
  });
});

describe("key columns (a row's own key or the key of the row it links to)", () => {
  it("are listed and looked up by, never summed, ranked, sorted or compared; measures still are", () => {
    const onKey = (e: { sparql: string }) => /(AVG|SUM|MIN|MAX)\(\?(checkup_id|checked_dog_id)|ORDER BY (DESC\(|ASC\()?\?(checkup_id|checked_dog_id)|FILTER\(\?(checkup_id|checked_dog_id)\w* [<>]/.test(e.sparql);
    expect(fx.prepared.examples.filter(onKey).map((e) => e.question)).toEqual([]);
    expect(fx.prepared.examples.some((e) => /^What is the fee of the checkup whose checkup id is \d\?$/.test(e.question))).toBe(true);
    expect(fx.prepared.examples.some((e) => /^List the checked dog id of all checkups\.$/.test(e.question))).toBe(true);
    expect(fx.prepared.examples.some((e) => /AVG\(\?fee\)/.test(e.sparql))).toBe(true);
  });
});

describe("a category left out, a measure over a category, a range", () => {
  it("asks each kind in words and answers it from the KG", async () => {
    const cases: [RegExp, RegExp, number][] = [
      [/^What is the [\w ]+ of the kennels whose town is not (Tarnfield|Quenby)\?$/, /FILTER\(\?town != "\w+"\)/, 2],
      [/^What is the average capacity of the kennels whose town is (Tarnfield|Quenby)\?$/, /SELECT \(AVG\(\?capacity\) AS \?avg\)/, 1],
      [/^How many kennels have a capacity between \d+ and \d+\?$/, /FILTER\(\?capacity >= \d+ && \?capacity <= \d+\)/, 1],
      [/^What is the kennel name of each kennel with a capacity between \d+ and \d+\?$/, /FILTER\(\?capacity >= \d+ && \?capacity <= \d+\)/, 2],
    ];
    for (const [question, sparql, n] of cases) {
      const e = fx.prepared.examples.find((x) => question.test(x.question));
      expect(e, String(question)).toBeDefined();
      expect(e?.sparql).toMatch(sparql);
      expect(await rows(e?.sparql ?? "")).toBeGreaterThanOrEqual(n);
    }
  });
});

describe("a linked row's long text", () => {
  it("is neither grouped by nor listed beside each thing (only short values are)", () => {
    const kinds = new Set(["join-count-per-group", "join-group-most", "join-group-having", "join-list-two"]);
    expect(fx.prepared.examples.filter((e) => kinds.has(e.frame.kind) && e.frame.q === "vet notes").map((e) => e.question)).toEqual([]);
    expect(fx.prepared.examples.some((e) => kinds.has(e.frame.kind) && e.frame.q === "owner town")).toBe(true);
  });
});
