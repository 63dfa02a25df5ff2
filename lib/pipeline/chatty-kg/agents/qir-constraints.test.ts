import { describe, expect, it } from "vitest";
import { qirOutputSchema, validateQir, validateQirJson } from "./qir-validator";

const ok = (o: Record<string, unknown>) => {
  const r = validateQirJson({ entities: [], unknowns: [], relations: [], question_type: "factoid", ...o });
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const reason = (o: Record<string, unknown>) => {
  const r = validateQirJson({ entities: [], unknowns: [], relations: [], question_type: "factoid", ...o });
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(r.value)}`);
  return r.reason;
};

describe("QIR constraints: literal values", () => {
  it("accepts a question whose only anchor is a literal value, typed, and keeps it out of the entities", () => {
    const q = ok({ triples: [["?hotel", "city", "Lisbon"]], values: [{ text: "Lisbon", type: "string" }], question_type: "count", target: "?hotel" });
    expect(q.values).toEqual([{ text: "Lisbon", type: "string" }]);
    expect(q.entities).toEqual([]);
    expect(q.questionType).toBe("count");
  });

  it("types numbers and dates (a unit is dropped from the number) and infers the type when none is given", () => {
    const q = ok({ triples: [["?b", "pages", "320"], ["?b", "published", "1999-03-01"], ["?b", "weight", "18 g"]], values: [320, "1999-03-01", { text: "18 g", type: "number" }], target: "?b", entities: [] });
    expect(q.values).toEqual([{ text: "320", type: "number" }, { text: "1999-03-01", type: "date" }, { text: "18", type: "number" }]);
    expect(q.triples[2]).toEqual({ subject: "?b", relation: "weight", object: "18" });
    expect(reason({ triples: [["?b", "weight", "?w"]], values: [{ text: "18 g", type: "number" }], classes: [{ var: "?b", class: "book" }], target: "?b" })).toMatch(/"values" "18" appear in no triple/);
  });

  it("rejects a value whose stated type does not fit, and a value no triple uses", () => {
    expect(reason({ triples: [["?h", "city", "Lisbon"]], values: [{ text: "Lisbon", type: "number" }] })).toMatch(/"values": "Lisbon" is not a number/);
    expect(reason({ triples: [["?h", "opened", "spring"]], values: [{ text: "spring", type: "date" }] })).toMatch(/not a date/);
    expect(reason({ triples: [["?h", "city", "?c"]], values: ["Lisbon"], classes: [{ var: "?h", class: "hotel" }] })).toMatch(/"values" "Lisbon" appear in no triple/);
  });
});

describe("QIR constraints: classes (questions without a named entity)", () => {
  it("accepts a class as the only anchor, and a class alone without triples", () => {
    const q = ok({ triples: [["?h", "stars", "?s"]], classes: [{ var: "?h", class: "hotels" }], target: "?h" });
    expect(q.classes).toEqual([{ variable: "?h", mention: "hotels" }]);
    const all = ok({ triples: [], classes: { "?hotel": "hotel" }, question_type: "count" });
    expect(all).toMatchObject({ triples: [], classes: [{ variable: "?hotel", mention: "hotel" }], target: "?hotel", questionType: "count" });
  });

  it("rejects a class of an unknown the triples do not use, a variable as class, and an unlisted entity", () => {
    expect(reason({ triples: [["?h", "stars", "?s"]], classes: [{ var: "?x", class: "hotel" }], target: "?h" })).toMatch(/"classes": \?x is not a variable of the triples \(\?h, \?s\)/);
    expect(reason({ triples: [["?h", "stars", "?s"]], classes: [{ var: "?h", class: "?kind" }], target: "?h" })).toMatch(/"classes": give the class of \?h as a word/);
    // an entity in the triples that "entities" does not list is still rejected; naming nothing at all is a relation-level question
    expect(reason({ triples: [["Casa Azul", "stars", "?s"]], target: "?s" })).toMatch(/^\(3\) "entities" is empty.*"classes"/);
    expect(ok({ triples: [["?h", "stars", "?s"]], target: "?h" })).toMatchObject({ entities: [], triples: [{ subject: "?h", relation: "stars", object: "?s" }] });
    expect(reason({ triples: [] })).toMatch(/^\(2\) there are no triples/);
  });
});

describe("QIR constraints: comparisons", () => {
  const base = { triples: [["?h", "stars", "?s"], ["?h", "opened", "?d"], ["?h", "name", "?n"], ["?h", "width", "?w"], ["?h", "height", "?t"]], classes: [{ var: "?h", class: "hotel" }], target: "?h" };

  it("accepts <=, between on dates, in on text, contains, and a comparison of two variables", () => {
    const q = ok({
      ...base,
      filters: [
        { var: "?s", op: "<=", value: 4 },
        { var: "?d", op: "between", value: ["1990-01-01", "1999-12-31"] },
        { var: "?n", op: "in", value: ["Alfama", "Baixa"] },
        { var: "?n", op: "contains", value: "Palace" },
        { var: "?w", op: ">", var2: "?t" },
      ],
    });
    expect(q.comparisons).toEqual([
      { variable: "?s", op: "<=", values: [{ text: "4", type: "number" }] },
      { variable: "?d", op: "between", values: [{ text: "1990-01-01", type: "date" }, { text: "1999-12-31", type: "date" }] },
      { variable: "?n", op: "in", values: [{ text: "Alfama", type: "string" }, { text: "Baixa", type: "string" }] },
      { variable: "?n", op: "contains", values: [{ text: "Palace", type: "string" }] },
      { variable: "?w", op: ">", values: [], other: "?t" },
    ]);
  });

  it("rejects an unknown operator, a variable no triple binds, between with one value, and < on text", () => {
    expect(reason({ ...base, filters: [{ var: "?s", op: "about", value: 4 }] })).toMatch(/"op" must be one of/);
    expect(reason({ ...base, filters: [{ var: "?price", op: "<", value: 4 }] })).toMatch(/\?price is not a variable of the triples .*add the triple that binds it/);
    expect(reason({ ...base, filters: [{ var: "?d", op: "between", value: ["1990-01-01"] }] })).toMatch(/"between" on \?d needs two values/);
    expect(reason({ ...base, filters: [{ var: "?n", op: "<", value: "M" }] })).toMatch(/compares numbers or dates, not text/);
    expect(reason({ ...base, filters: [{ var: "?n", op: "contains", var2: "?t" }] })).toMatch(/"contains" compares with values/);
  });

  it("a composed question (its query is written later) loses a constraint the triples cannot carry instead of a retry; its class stays", () => {
    const composed = ok({ ...base, filters: [{ var: "?price", op: "<", value: 4 }], order_by: [{ var: "?rank", dir: "desc" }], compose: true });
    expect(composed).toMatchObject({ compose: true, classes: [{ variable: "?h", mention: "hotel" }] });
    expect(composed.comparisons).toBeUndefined();
    expect(composed.order).toBeUndefined();
    // a valid constraint of a composed question is kept
    expect(ok({ ...base, filters: [{ var: "?s", op: ">=", value: 4 }], compose: true }).comparisons).toHaveLength(1);
    // a class of its own ("what share of the hotels are resorts") and an entity no triple joins stay, to be linked
    const share = ok({ ...base, classes: [{ var: "?h", class: "hotel" }, { var: "?r", class: "resort" }], entities: ["Grand Palace"], compose: true });
    expect(share.classes?.map((c) => c.variable)).toEqual(["?h", "?r"]);
    expect(share.entities).toContain("Grand Palace");
    expect(reason({ ...base, classes: [{ var: "?r", class: "resort" }] })).toMatch(/"classes": \?r is not a variable of the triples/);
  });
});

describe("QIR constraints: order, limit, offset", () => {
  const base = { triples: [["?h", "rooms", "?r"]], classes: [{ var: "?h", class: "hotel" }], target: "?h" };

  it("accepts a superlative and a ranking window", () => {
    expect(ok({ ...base, order_by: [{ var: "?r", dir: "desc" }], limit: 1 })).toMatchObject({ order: [{ variable: "?r", direction: "desc" }], limit: 1 });
    // one object instead of a list, and "6th to 10th"
    expect(ok({ ...base, order_by: { var: "?r", dir: "DESC" }, limit: 5, offset: 5 })).toMatchObject({ order: [{ variable: "?r", direction: "desc" }], limit: 5, offset: 5 });
  });

  it("rejects ordering by a variable no triple binds, a bad direction, a bad limit, and order on a yes/no question", () => {
    expect(reason({ ...base, order_by: [{ var: "?price", dir: "desc" }] })).toMatch(/"order_by": \?price is neither a variable/);
    expect(reason({ ...base, order_by: [{ var: "?r", dir: "up" }] })).toMatch(/"dir" must be "asc" or "desc"/);
    expect(reason({ ...base, limit: 0 })).toMatch(/"limit" must be a whole number ≥ 1/);
    expect(reason({ ...base, limit: 2.5 })).toMatch(/"limit" must be a whole number/);
    expect(reason({ ...base, question_type: "boolean", target: null, order_by: [{ var: "?r", dir: "desc" }] })).toMatch(/yes\/no question has no "order_by"/);
  });
});

describe("QIR constraints: aggregates and groups", () => {
  const base = { triples: [["?h", "rooms", "?r"], ["?h", "city", "?c"]], classes: [{ var: "?h", class: "hotel" }] };

  it("accepts an average per group and shows the group with its aggregate", () => {
    const q = ok({ ...base, target: "?c", aggregates: [{ fn: "avg", var: "?r", as: "?avg_rooms" }], group_by: ["?c"], columns: ["?avg_rooms"] });
    expect(q).toMatchObject({ target: "?c", aggregates: [{ fn: "avg", variable: "?r", alias: "?avg_rooms" }], groupBy: ["?c"], columns: ["?avg_rooms"] });
  });

  it("repairs what is unambiguous: the aggregated target becomes the alias; a shown variable is grouped by; count per group", () => {
    expect(ok({ ...base, target: "?r", aggregates: [{ fn: "sum", var: "?r", as: "total" }] })).toMatchObject({ target: "?total", aggregates: [{ fn: "sum", variable: "?r", alias: "?total" }] });
    expect(ok({ ...base, target: "?c", aggregates: [{ fn: "max", var: "?r", as: "?most" }] })).toMatchObject({ groupBy: ["?c"] });
    const perCity = ok({ ...base, target: "?h", question_type: "count", group_by: ["?c"] });
    expect(perCity).toMatchObject({ questionType: "factoid", target: "?c", aggregates: [{ fn: "count", variable: "?h", alias: "?count_h" }], groupBy: ["?c"] });
  });

  it("accepts a HAVING-style comparison and an order by the aggregate or by a count", () => {
    const q = ok({ ...base, target: "?c", aggregates: [{ fn: "count", var: "?h", as: "?n" }], group_by: ["?c"], filters: [{ var: "?n", op: ">", value: 5 }], order_by: [{ var: "?n", dir: "desc" }] });
    expect(q.comparisons).toEqual([{ variable: "?n", op: ">", values: [{ text: "5", type: "number" }] }]);
    const byCount = ok({ ...base, target: "?c", order_by: [{ var: "?h", dir: "desc", count: true }], limit: 1 });
    expect(byCount.order).toEqual([{ variable: "?h", direction: "desc", count: true }]);
  });

  it("rejects an unknown function, an aggregate of nothing, and aggregates on a count question", () => {
    expect(reason({ ...base, target: "?c", aggregates: [{ fn: "median", var: "?r" }] })).toMatch(/"fn" must be one of count, sum, avg, min, max/);
    expect(reason({ ...base, target: "?c", aggregates: [{ fn: "sum", var: "?price" }] })).toMatch(/sum needs a variable of the triples/);
    expect(reason({ ...base, target: "?h", question_type: "count", aggregates: [{ fn: "avg", var: "?r" }] })).toMatch(/"aggregates" need question_type "factoid"/);
    expect(reason({ ...base, target: "?c", group_by: ["?zone"] })).toMatch(/"group_by": \?zone is not a variable/);
  });
});

describe("QIR constraints: negation, exclusion, columns", () => {
  it("accepts negated triples joined to the question's variables (class inside the negation too)", () => {
    const q = ok({ triples: [], classes: [{ var: "?h", class: "hotel" }, { var: "?r", class: "restaurant" }], not: [["?r", "located in", "?h"]], question_type: "boolean" });
    expect(q.negated).toEqual([{ subject: "?r", relation: "located in", object: "?h" }]);
    expect(q.unknowns).toEqual(["?h", "?r"]);
  });

  it("rejects negated triples that share no variable with the question, or are malformed", () => {
    expect(reason({ triples: [["?h", "stars", "?s"]], classes: [{ var: "?h", class: "hotel" }], target: "?h", not: [["?a", "owner", "?b"]] })).toMatch(/"not": the negated triples must use a variable of the other triples/);
    expect(reason({ triples: [["?h", "stars", "?s"]], classes: [{ var: "?h", class: "hotel" }], target: "?h", not: [["?h", "has", "?x"]] })).toMatch(/negated triple 1: the relation "has" is a helper word/);
  });

  it("accepts 'what else' (earlier answers) and 'other than X', rejects an empty exclusion", () => {
    const base = { entities: ["Ana Lima"], triples: [["Ana Lima", "designed", "?b"]], target: "?b" };
    expect(ok({ ...base, exclude: { var: "?b", earlier_answers: true } }).exclude).toEqual({ variable: "?b", entities: [], earlierAnswers: true });
    expect(ok({ ...base, exclude: { var: "?b", entities: ["Casa Azul"] } }).exclude).toEqual({ variable: "?b", entities: ["Casa Azul"], earlierAnswers: false });
    expect(reason({ ...base, exclude: { var: "?b" } })).toMatch(/"exclude" needs "entities"/);
    expect(reason({ ...base, exclude: { var: "?x", earlier_answers: true } })).toMatch(/"exclude": \?x is not a variable/);
  });

  it("accepts columns of the triples' variables and drops the target from them; rejects an unknown column", () => {
    const q = ok({ triples: [["?h", "name", "?n"], ["?h", "phone", "?p"]], classes: [{ var: "?h", class: "hotel" }], target: "?h", columns: ["?h", "?n", "p"], unknowns: ["?h", "?n", "p"] });
    expect(q.columns).toEqual(["?n", "?p"]);
    expect(reason({ triples: [["?h", "name", "?n"]], classes: [{ var: "?h", class: "hotel" }], target: "?h", columns: ["?email"] })).toMatch(/"columns": \?email is neither/);
  });

  it("a plain question gains no constraint fields (the old shape, nothing extra to carry)", () => {
    const q = validateQir(qirOutputSchema.parse({ entities: ["Dune"], triples: [["?a", "wrote", "Dune"]], target: "?a", question_type: "factoid", values: null, filters: null }));
    expect(q).toEqual({ ok: true, value: { entities: ["Dune"], unknowns: ["?a"], relations: ["wrote"], triples: [{ subject: "?a", relation: "wrote", object: "Dune" }], target: "?a", questionType: "factoid" } });
    expect(Object.keys((q as { value: object }).value)).toEqual(["entities", "unknowns", "relations", "triples", "target", "questionType"]);
  });
});
