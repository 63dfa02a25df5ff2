import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { answerKeys } from "../metrics";
import { inferType } from "../types";
import { chattyDialogueFiles, readChattyDialogues } from "./chatty-dialogue";
import { defaultCk25File, loadDataset, readDataset } from "./index";
import { readJsonl } from "./jsonl";
import { readLcquad } from "./lcquad";
import { readQald } from "./qald";
import type { SkippedRecord } from "./records";
import { readText2SparqlQuestions, readText2SparqlResultSet, withOfficialGold } from "./text2sparql";
import { selectLanguage } from "../languages";

const FX = path.join(process.cwd(), "test/fixtures/eval");
const fx = (f: string) => path.join(FX, f);
const HERBERT = "http://example.org/eval/Herbert";

function tmpFile(name: string, text: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "eval-ds-"));
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

describe("TEXT2SPARQL questions.yml and result set", () => {
  it("reads ids as <prefix>:<id>, English question, other languages, features, gold SPARQL and type", () => {
    const items = readText2SparqlQuestions(fx("text2sparql-mini.yml"));
    expect(items.map((i) => i.id)).toEqual(["mini:1", "mini:2", "mini:3"]);
    expect(items[0]).toMatchObject({ question: "Who wrote Dune?", questions: { es: "¿Quién escribió Dune?" }, features: ["SELECT"] });
    expect(items[0].goldSparql).toContain("example.org/eval/author");
    expect(items.map((i) => inferType(i))).toEqual(["factoid", "boolean", "count"]);
  });
  it("reads the flattened result set keyed by item id: IRIs as IRIs, ASK as boolean", () => {
    const gold = readText2SparqlResultSet(fx("text2sparql-mini-results.json"));
    expect(gold.byId.get("mini:1")?.gold).toEqual({ kind: "items", items: [{ type: "uri", value: HERBERT }] });
    expect(gold.byId.get("mini:2")?.gold).toEqual({ kind: "boolean", value: false });
    expect(answerKeys(gold.byId.get("mini:3")!.gold)).toEqual(["n:2"]);
  });
  it("names the file and the problem for a malformed file; a malformed question is reported by id and the others read", () => {
    const bad = tmpFile("q.yml", "dataset: {prefix: x}\nquestions:\n  - id: 1\n    question: just text\n  - id: 2\n    question: {en: Fine?}\n");
    expect(() => readText2SparqlQuestions(bad)).toThrow(/q\.yml: record 1 cannot be read: question: .*expected record/);
    const skipped: SkippedRecord[] = [];
    expect(readText2SparqlQuestions(bad, { skipped }).map((i) => i.id)).toEqual(["x:2"]);
    expect(skipped).toEqual([{ id: "1", reason: expect.stringMatching(/^question: .*expected record/) }]);
    expect(() => readText2SparqlQuestions(tmpFile("q.yml", "a: [unclosed"))).toThrow(/not valid YAML/);
    expect(() => readText2SparqlQuestions(tmpFile("q.yml", "dataset: {}\nquestions: []"))).toThrow(/is not a TEXT2SPARQL questions file.*dataset\.prefix/);
  });
  it("reads the 2026 result-set format: order_required sets order-matters per question and language; a bad entry is reported", () => {
    const skipped: SkippedRecord[] = [];
    const set = readText2SparqlResultSet(fx("languages/result_set_2026.json"), { skipped });
    expect([...(set.orderRequired ?? [])]).toEqual(["lx:2-en", "lx:2-de"]);
    expect(set.byQname.size).toBe(5);
    expect(skipped).toEqual([{ id: "lx:9-en", reason: expect.stringMatching(/not a \{ value: number \} result/) }]);
    const { items } = selectLanguage(readText2SparqlQuestions(fx("languages/questions.yml")), "all");
    const scored = withOfficialGold(items, set);
    expect(scored.missing).toEqual([]);
    const ordered = scored.items.filter((i) => i.features?.includes("RESULT_ORDER_MATTERS")).map((i) => i.id);
    expect(ordered).toEqual(["lx:2-en", "lx:2-de"]);
    expect(scored.items.find((i) => i.id === "lx:3-en")?.goldAnswers).toEqual({ kind: "boolean", value: true });
    // without language suffixes (a default run), an id's order matters when any of its languages is listed
    const plain = withOfficialGold(readText2SparqlQuestions(fx("languages/questions.yml")), set).items;
    expect(plain.filter((i) => i.features?.includes("RESULT_ORDER_MATTERS")).map((i) => i.id)).toEqual(["lx:2"]);
    expect(() => readText2SparqlResultSet(fx("languages/result_set_2026.json"))).toThrow(/record lx:9-en cannot be read/);
  });
});

describe("QALD JSON", () => {
  it("reads multilingual questions with English first, answers as gold, answertype as type; skips textless records", () => {
    const items = readQald(fx("qald-mini.json"));
    expect(items.map((i) => i.id)).toEqual(["qald-mini:1", "qald-mini:2", "qald-mini:3"]);
    expect(items[0]).toMatchObject({ question: "Who wrote Dune?", questions: { de: "Wer schrieb Dune?", en: "Who wrote Dune?" }, type: "factoid" });
    expect(items[0].goldAnswers).toEqual({ kind: "items", items: [{ type: "uri", value: HERBERT }] });
    expect(items[1]).toMatchObject({ type: "boolean", goldAnswers: { kind: "boolean", value: true } });
    expect(items[2].type).toBe("count");
    expect(answerKeys(items[2].goldAnswers)).toEqual(["n:1"]);
  });
});

describe("LC-QuAD 1.0", () => {
  it("reads corrected questions (falling back to the intermediary one), gold SPARQL, template tags and an id filter", () => {
    const all = readLcquad(fx("lcquad-mini.json"));
    expect(all.map((i) => i.id)).toEqual(["lcquad:1501", "lcquad:1502", "lcquad:1503"]);
    expect(all[0]).toMatchObject({ question: "Who is the author of Dune?", features: ["template-2"] });
    expect(all[1]).toMatchObject({ question: "Is <Jane Austen> the <author> of <Emma>?", type: "boolean" });
    expect(all[2].type).toBe("count");
    expect(readLcquad(fx("lcquad-mini.json"), { idsFile: fx("lcquad-ids.txt") }).map((i) => i.id)).toEqual(["lcquad:1501", "lcquad:1503"]);
  });
});

describe("Chatty-KG dialogues", () => {
  const dialogues = fx("chatty/data/mini_e11_20_5_original.json");
  const goldFile = fx("chatty/files_processing/mini_e11_20_5_original_dialogue.json");
  it("finds the gold file from the dialogues file and the other way round", () => {
    expect(chattyDialogueFiles(dialogues)).toEqual({ dialogues, gold: path.normalize(goldFile) });
    expect(chattyDialogueFiles(goldFile)).toEqual({ dialogues: path.normalize(dialogues), gold: goldFile });
  });
  it("makes one item per turn with dialogue id, turn, standalone rewrite, gold SPARQL and the gold answers by running index", () => {
    const items = readChattyDialogues(dialogues);
    expect(items.map((i) => i.id)).toEqual(["mini:0.0", "mini:0.1", "mini:1.0", "mini:1.1", "mini:1.2"]);
    expect(items[1]).toMatchObject({ question: "When was he born?", standalone: "When was Frank Herbert born?", dialogueId: "mini:0", turn: 1 });
    expect(answerKeys(items[1].goldAnswers)).toEqual(["n:1920"]);
    expect(items[3].goldAnswers).toEqual({ kind: "boolean", value: false });
    expect(inferType(items[4])).toBe("count");
  });
  it("refuses a gold file that does not belong to the dialogues", () => {
    const other = tmpFile("g.json", JSON.stringify({ questions: [{ id: 0, question: "x", answers: [{ boolean: true }] }] }));
    expect(() => readChattyDialogues(dialogues, { goldFile: other })).toThrow(/has 1 answers but .* has 5 questions/);
  });
});

describe("JSONL", () => {
  it("reads questions, dialogue turns in file order, SPARQL and the answer shorthands", () => {
    const items = readJsonl(fx("dialogue.jsonl"));
    expect(items.map((i) => [i.id, i.dialogueId, i.turn])).toEqual([
      ["dune.0", "dune", 0],
      ["dune.1", "dune", 1],
      ["emma.0", "emma", 0],
      ["emma.1", "emma", 1],
    ]);
    expect(items[0].goldAnswers).toEqual({ kind: "items", items: [{ type: "uri", value: HERBERT }] });
    expect(answerKeys(items[1].goldAnswers)).toEqual(["n:1920"]);
    expect(items[3].goldAnswers).toEqual({ kind: "boolean", value: false });
    const single = readJsonl(fx("single.jsonl"));
    expect(single[0]).toMatchObject({ id: "hobbit", goldSparql: expect.stringContaining("The_Hobbit"), features: ["SELECT"] });
    expect(single[0].goldAnswers).toBeUndefined();
  });
  it("accepts {count}, SPARQL JSON and explicit literals; reports the line of a bad record", () => {
    const f = tmpFile(
      "q.jsonl",
      [
        JSON.stringify({ question: "How many?", answers: { count: 3 } }),
        JSON.stringify({ question: "Which?", answers: { head: { vars: ["x"] }, results: { bindings: [{ x: { type: "literal", value: "a" } }] } } }),
        JSON.stringify({ question: "Link?", answers: [{ type: "literal", value: "http://not-an-iri.example" }] }),
      ].join("\n"),
    );
    const items = readJsonl(f);
    expect(items.map((i) => answerKeys(i.goldAnswers))).toEqual([["n:3"], ["s:a"], ["s:http://not-an-iri.example"]]);
    const bad = tmpFile("bad.jsonl", `${JSON.stringify({ question: "ok" })}\n{"answers": []}\n`);
    expect(() => readJsonl(bad)).toThrow(/bad\.jsonl: record line 2 cannot be read: question/);
    const skipped: SkippedRecord[] = [];
    expect(readJsonl(bad, { skipped })).toHaveLength(1);
    expect(skipped).toEqual([{ id: "line 2", reason: expect.stringMatching(/^question: /) }]);
    expect(() => readJsonl(tmpFile("dup.jsonl", '{"id":"a","question":"x"}\n{"id":"a","question":"y"}'))).toThrow(/record a cannot be read: duplicate id/);
  });
});

describe("loadDataset", () => {
  it("refuses unknown datasets and missing files with clear errors", () => {
    expect(() => loadDataset("nope", fx("single.jsonl"))).toThrow(/Unknown dataset "nope". Available: ck25/);
    try {
      loadDataset("jsonl", fx("missing.jsonl"));
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e, "not_found")).toBe(true);
    }
  });
  it("runs a QALD file with one malformed answer: that record reported by id and reason, the others read; --strict refuses it", () => {
    const load = readDataset("qald", fx("qald-one-bad.json"));
    expect(load.items.map((i) => i.id)).toEqual(["qb:1", "qb:3"]);
    expect(load.skipped).toEqual([{ id: "2", reason: "answers.0.results.bindings.0.a.type: Invalid input: expected string, received undefined" }]);
    expect(() => readDataset("qald", fx("qald-one-bad.json"), { strict: true })).toThrow(/1 record\(s\) cannot be read \(--strict\): 2: answers\.0/);
  });
  it("declares the well-known prefixes a gold query uses undeclared, and says for which questions", () => {
    const load = readDataset("qald", fx("qald-one-bad.json"));
    expect(load.prefixesDeclared).toEqual([{ id: "qb:3", prefixes: ["rdfs"] }]);
    expect(load.items[1].goldSparql).toMatch(/^PREFIX rdfs: <http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#>\nSELECT \?p/);
    expect(load.items[0].goldSparql).not.toContain("PREFIX");
  });
  it("finds CK25's questions.yml beside the KG's parent folder", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ck25-"));
    writeFileSync(path.join(dir, "questions.yml"), "");
    expect(defaultCk25File(path.join(dir, "graphs", "prod-inst.ttl"))).toBe(path.join(dir, "questions.yml"));
    expect(defaultCk25File("https://example.org/sparql")).toBeUndefined();
  });
});

// The real CK25 data, when the shared folder is present.
const CK25 = path.resolve(process.cwd(), "../shared/data/ck25/questions.yml");
describe.skipIf(!existsSync(CK25))("CK25 on ../shared", () => {
  it("reads 50 questions with features and gold queries", () => {
    const items = loadDataset("ck25", CK25);
    expect(items).toHaveLength(50);
    expect(items.every((i) => i.goldSparql && i.features && i.features.length > 0)).toBe(true);
    expect(items.find((i) => i.id === "ck25:10")?.question).toBe("What is the name of the Network expert from the Marketing Department?");
    expect(items.filter((i) => i.features?.includes("RESULT_ORDER_MATTERS")).map((i) => i.id)).toEqual(["ck25:27", "ck25:37"]);
  });
});
if (!existsSync(CK25)) console.warn(`skipping the CK25 reader test: ${CK25} not found`);

// The Chatty-KG and QALD-9 files on ../shared, when present.
const CHATTY = path.resolve(process.cwd(), "../shared/data/chatty-kg");
describe.skipIf(!existsSync(CHATTY))("Chatty-KG and QALD-9 on ../shared", () => {
  it("reads the DBpedia dialogues with their gold answers (94 questions in 20 dialogues, 17 ASK)", () => {
    const items = loadDataset("chatty-dialogue", path.join(CHATTY, "src/chatbot/evaluation/data/dbpedia_e11_20_5_original.json"));
    expect(items).toHaveLength(94);
    expect(new Set(items.map((i) => i.dialogueId)).size).toBe(20);
    expect(items.filter((i) => i.goldAnswers?.kind === "boolean")).toHaveLength(17);
    expect(items[1]).toMatchObject({ question: "How many former coaches does he have?", standalone: "How many former coaches does Antony Cheng have?" });
  });
  it("reads QALD-9 test (150 questions, 12 languages), including an answer stored as an empty `results: {}`", () => {
    const items = loadDataset("qald", path.join(CHATTY, "_from-CoDS-GCS-KGQAn/src/evaluation/qald9/qald-9-test-multilingual.json"));
    expect(items).toHaveLength(150);
    expect(Object.keys(items[0].questions ?? {})).toHaveLength(12);
    expect(items.find((i) => i.id.endsWith(":124"))?.goldAnswers).toEqual({ kind: "items", items: [] });
  });
});
if (!existsSync(CHATTY)) console.warn(`skipping the Chatty-KG/QALD-9 reader tests: ${CHATTY} not found`);
