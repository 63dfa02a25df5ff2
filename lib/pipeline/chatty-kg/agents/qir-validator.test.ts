import { describe, expect, it } from "vitest";
import { normalizeTerm, qirOutputSchema, validateQir, validateQirJson, type QirOutput } from "./qir-validator";

const out = (o: Partial<QirOutput> & { triples: string[][] }): QirOutput =>
  qirOutputSchema.parse({ entities: [], unknowns: [], relations: [], question_type: "factoid", ...o });

describe("validateQir — the paper's assertions", () => {
  it("(1) rejects a reply that is not a JSON object of the QIR format", () => {
    expect(validateQirJson([["a", "b", "c"]])).toMatchObject({ ok: false, reason: expect.stringMatching(/^\(1\)/) });
    expect(validateQirJson({ triples: [["a", "b", "c"]] })).toMatchObject({ ok: false, reason: expect.stringContaining("question_type") });
  });

  it("(2) rejects a triple without three non-empty parts, naming the triple", () => {
    const two = validateQir(out({ entities: ["Harry Potter"], triples: [["Harry Potter", "author"]] }));
    expect(two).toMatchObject({ ok: false, reason: expect.stringContaining("triple 1") });
    const empty = validateQir(out({ entities: ["Harry Potter"], triples: [["Harry Potter", " ", "?author"]] }));
    expect(empty).toMatchObject({ ok: false, reason: expect.stringContaining("empty relation") });
    expect(validateQir(out({ entities: ["X"], triples: [] }))).toMatchObject({ ok: false });
  });

  it("(3) rejects triples that mention none of the listed entities", () => {
    const r = validateQir(out({ entities: ["Harry Potter"], triples: [["?book", "author", "?person"]] }));
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/^\(3\).*"Harry Potter"/) });
    expect(validateQir(out({ entities: [], triples: [["Harry Potter", "author", "?a"]] }))).toMatchObject({ ok: false, reason: expect.stringMatching(/^\(3\)/) });
  });

  it("(4) rejects a non-boolean question without a variable, but accepts a grounded yes/no question", () => {
    const grounded = [["Hermione Granger", "friend of", "Harry Potter"]];
    expect(validateQir(out({ entities: ["Hermione Granger", "Harry Potter"], triples: grounded }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^\(4\)/),
    });
    const ask = validateQir(out({ entities: ["Hermione Granger", "Harry Potter"], triples: grounded, question_type: "boolean" }));
    expect(ask).toEqual({
      ok: true,
      value: {
        entities: ["Hermione Granger", "Harry Potter"],
        unknowns: [],
        relations: ["friend of"],
        triples: [{ subject: "Hermione Granger", relation: "friend of", object: "Harry Potter" }],
        target: undefined,
        questionType: "boolean",
      },
    });
  });
});

describe("validateQir — consistency checks and normalisation", () => {
  it("rejects a bare helper verb as relation, a variable relation, and a self-loop", () => {
    expect(validateQir(out({ entities: ["Hogwarts"], triples: [["Hogwarts", "has", "?ghost"]] }))).toMatchObject({ ok: false, reason: expect.stringContaining("helper word") });
    expect(validateQir(out({ entities: ["Hogwarts"], triples: [["Hogwarts", "?r", "?x"]] }))).toMatchObject({ ok: false, reason: expect.stringContaining("not a variable") });
    expect(validateQir(out({ entities: ["Hogwarts"], triples: [["Hogwarts", "part of", "Hogwarts"]] }))).toMatchObject({ ok: false });
  });

  it("accepts relation phrases that merely contain a helper word", () => {
    expect(validateQir(out({ entities: ["Harry Potter"], triples: [["?a", "is author of", "Harry Potter"]], target: "?a" })).ok).toBe(true);
  });

  it("requires the target to be a variable used in the triples; fills it in when there is only one", () => {
    const twoVars = [["?film", "directed by", "Christopher Nolan"], ["?actor", "starred in", "?film"]];
    expect(validateQir(out({ entities: ["Christopher Nolan"], triples: twoVars }))).toMatchObject({ ok: false, reason: expect.stringContaining('"target" is missing') });
    expect(validateQir(out({ entities: ["Christopher Nolan"], triples: twoVars, target: "?year" }))).toMatchObject({ ok: false, reason: expect.stringContaining("?year") });
    const one = validateQir(out({ entities: ["Marie Curie"], triples: [["Marie Curie", "child", "?child"]], question_type: "count" }));
    expect(one).toMatchObject({ ok: true, value: { target: "?child", questionType: "count" } });
  });

  it("normalises variables and quotes, turns numbers into text, and drops duplicate triples", () => {
    const raw = qirOutputSchema.parse({
      entities: ['"Harry Potter and the Philosopher\'s Stone"', 2001],
      unknowns: ["first film"],
      relations: [],
      triples: [
        ["$first film", "release_year", 2001],
        ["?first_film", "based on", "'Harry Potter and the Philosopher's Stone'"],
        ["?first-film", "release year", "2001"],
      ],
      target: "first film",
      question_type: "Factoid",
    });
    const r = validateQir(raw);
    expect(r).toEqual({
      ok: true,
      value: {
        entities: ["2001", "Harry Potter and the Philosopher's Stone"],
        unknowns: ["?first_film"],
        relations: ["release year", "based on"],
        triples: [
          { subject: "?first_film", relation: "release year", object: "2001" },
          { subject: "?first_film", relation: "based on", object: "Harry Potter and the Philosopher's Stone" },
        ],
        target: "?first_film",
        questionType: "factoid",
      },
    });
  });

  it("normalizeTerm keeps entity names and cleans variables", () => {
    expect(normalizeTerm("  “J. K. Rowling” ")).toBe("J. K. Rowling");
    expect(normalizeTerm("?")).toBe("?x");
    expect(normalizeTerm("$birth place")).toBe("?birth_place");
  });
});
