// Reading a system's queries for a replay: both formats, language suffixes, repeats, and malformed files named clearly.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { queryForItem, readQueriesFile, splitQname } from "./queries-file";

const FX = "test/fixtures/eval/queries";

function errorOf(file: string): { code: string; message: string } {
  try {
    readQueriesFile(`${FX}/${file}`);
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error(`${file} was accepted`);
}

describe("readQueriesFile", () => {
  it("reads the TEXT2SPARQL answers format: ids without the language, English preferred, first of a repeat kept, empty queries kept", () => {
    const { queries, format } = readQueriesFile(`${FX}/answers.json`);
    expect(format).toBe("text2sparql-answers");
    expect([...queries.entries()]).toEqual([
      ["ex:1", "ASK { ?s ?p ?o }"],
      ["ex:2", "SELECT ?a ?b WHERE { ?a ?p ?b }"],
      ["ex:3", ""],
    ]);
  });

  it("reads a plain { id: sparql } object, with or without a language suffix", () => {
    const { queries, format } = readQueriesFile(`${FX}/plain.json`);
    expect(format).toBe("plain");
    expect(queries.get("ex:1")).toBe("ASK { ?s ?p ?o }");
    expect(queries.get("ex:2")).toBe("SELECT ?a WHERE { ?a ?p ?b }");
  });

  it("refuses malformed files with a message naming the file and what is wrong", () => {
    expect(errorOf("missing.json")).toMatchObject({ code: "not_found", message: expect.stringMatching(/missing\.json: no such file/) });
    expect(errorOf("truncated.json")).toMatchObject({ code: "bad_request", message: expect.stringMatching(/truncated\.json is not valid JSON/) });
    expect(errorOf("wrong-field.json").message).toMatch(/wrong-field\.json is not a TEXT2SPARQL answers file .*0\.query/);
    expect(errorOf("not-a-string.json").message).toMatch(/not-a-string\.json is not a queries file .*ex:1/);
    expect(errorOf("scalar.json").message).toMatch(/scalar\.json is not a queries file: expected a TEXT2SPARQL answers array or a JSON object/);
    expect(errorOf("empty.json").message).toMatch(/empty\.json holds no queries/);
  });

  it("splits qnames at a language suffix only", () => {
    expect(splitQname("ck25:10-en")).toEqual({ id: "ck25:10", lang: "en" });
    expect(splitQname("qald:pt_BR-x-pt_BR")).toEqual({ id: "qald:pt_BR-x", lang: "pt_BR" });
    expect(splitQname("ck25:10")).toEqual({ id: "ck25:10" });
  });

  it("asked per language, an item gets the query named <id>-<lang> (the first of a repeat), or one named without a language", () => {
    const file = readQueriesFile("test/fixtures/eval/languages/answers.json");
    expect(queryForItem(file, { id: "lx:1-de", lang: "de" })).toContain("The_Hobbit");
    expect(queryForItem(file, { id: "lx:1-en", lang: "en" })).toContain("Dune");
    expect(queryForItem(file, { id: "lx:2-de", lang: "de" })).toBeUndefined(); // the official client scores it as empty
    expect(queryForItem(file, { id: "lx:1" })).toContain("Dune");
    const plain = readQueriesFile("test/fixtures/eval/queries/plain.json");
    expect(queryForItem(plain, { id: "ex:1-de", lang: "de" })).toBe("ASK { ?s ?p ?o }");
    expect(queryForItem(plain, { id: "ex:2-de", lang: "de" })).toBeUndefined();
  });
});
