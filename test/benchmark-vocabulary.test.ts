// No benchmark tuning in the prompts (every strategy's): no prompt names a CK25 class, predicate or value, none shares a phrase
// with a benchmark question (CK25, DB25, the Chatty-KG dialogues), the QIR validator's retry messages (the model reads
// them) name none either, and the QIR examples borrow nothing from our own test KGs (music and sample KG).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPrompt } from "@/lib/prompts";
import { validateQirJson } from "@/lib/pipeline/chatty-kg/agents/qir-validator";
import { REVIEWED_WORDS } from "@/lib/eval/oracle-grounding";

const ROOT = process.cwd();
const SHARED = path.resolve(ROOT, "../shared/data");
const CK25_KG = path.join(SHARED, "ck25/graphs/prod-inst.ttl");
const QUESTION_FILES = [path.join(SHARED, "ck25/questions.yml"), path.join(SHARED, "text2sparql25/docs/benchmark/questions_db25.yaml")];
const DIALOGUES = path.join(SHARED, "chatty-kg/src/chatbot/evaluation");
/** Every prompt any strategy sends (prompts/*.md) and Triad's default examples (prompts/triad-examples.json). */
const PROMPT_FILES = fs.readdirSync(path.join(ROOT, "prompts")).filter((f) => /\.(md|json)$/.test(f));
/** A prompt's words: SPARQL keywords in capitals (SERVICE, FILTER) are the query language's, not a KG's vocabulary. */
const promptText = (file: string) => fs.readFileSync(path.join(ROOT, "prompts", file), "utf8").replace(/\b[A-Z]{2,}\b/g, " ");
/** Words every KG and the prompts' own instructions use ("the name of", "the Chat agent", "part of a text"). */
const GENERIC = new Set(["name", "id", "agent", "part"]);
const STOP = new Set("a an and are as at be by did do does for from has have how in is it its many much of on or the their to was were what when where which who with".split(" "));

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** "addressCountryCode" → "address country code" */
const localWords = (n: string) => (n.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? []).join(" ").toLowerCase();
const mentions = (text: string, term: string) => new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(e?s)?\\b`, "i").test(text);

/** Trigrams with at least two content words ("6th to 10th", not "part of a"). */
function trigrams(text: string): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= w.length; i++) {
    const g = w.slice(i, i + 3);
    if (g.filter((x) => !STOP.has(x)).length >= 2) out.add(g.join(" "));
  }
  return out;
}

function benchmarkQuestions(): string[] {
  const out: string[] = [];
  for (const f of QUESTION_FILES) for (const m of fs.readFileSync(f, "utf8").matchAll(/^\s+en:\s*(.+)$/gm)) out.push(m[1]);
  for (const f of fs.readdirSync(DIALOGUES, { recursive: true, encoding: "utf8" })) {
    if (!f.endsWith(".json")) continue;
    for (const m of fs.readFileSync(path.join(DIALOGUES, f), "utf8").matchAll(/"question"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) out.push(m[1]);
  }
  return out;
}

/** CK25's vocabulary: its classes and predicates in words, and its short text values ("Japan", "Toulouse"). */
function ck25Terms(): string[] {
  const ttl = fs.readFileSync(CK25_KG, "utf8");
  const vocab = [...ttl.matchAll(/\bpv:([A-Za-z]+)/g)].map((m) => localWords(m[1]));
  const values = [...ttl.matchAll(/"([A-Za-z][A-Za-z .-]{2,40})"/g)].map((m) => m[1].toLowerCase().trim());
  return [...new Set([...vocab, ...values])].filter((t) => !GENERIC.has(t));
}

/** Our own test KGs' vocabulary: every prefixed name in words ("record label", "designed") and every short text. */
function ownKgTerms(): string[] {
  const terms = ["kg/music.ttl", "kg/sample.ttl"].flatMap((f) => {
    const ttl = fs.readFileSync(path.join(ROOT, f), "utf8");
    return [...[...ttl.matchAll(/\b[A-Za-z]+:([A-Za-z][A-Za-z0-9]*)\b/g)].map((m) => localWords(m[1])), ...[...ttl.matchAll(/"([^"\n]{2,40})"/g)].map((m) => m[1].toLowerCase())];
  });
  return [...new Set(terms)].filter((t) => t && !GENERIC.has(t));
}

/** The words of the QIR examples a prompt shows: entities, relations, values and classes. */
function exampleWords(name: string): string[] {
  return readPrompt(name)
    .split("\n")
    .filter((l) => /^\s*(Example \d[^:]*: )?\{"(reasoning|question)"/.test(l))
    .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as Record<string, unknown>)
    .map((j) => (j.qir ?? j) as Record<string, unknown>)
    .flatMap((q) => [q.entities, q.relations, q.values, q.classes].flat(2).map((v) => (typeof v === "object" && v ? Object.values(v).join(" ") : String(v))));
}

/** Retry reasons the validator gives for ill-formed constraints (each is shown to the model). */
const RETRY_REASONS = [
  { triples: [["?h", "in", "?d"]], values: [{ type: "string" }] },
  { triples: [["?h", "in", "?d"]], classes: [{ var: "?h", class: "?d" }] },
  { triples: [["?h", "in", "?d"]], not: [["?x", "near", "?y"]] },
  { triples: [["?h", "in", "?d"]], filters: [{ var: "?h", op: "approx", value: 1 }] },
  { triples: [["?h", "in", "?d"]], exclude: { var: "?h" } },
].map((extra) => {
  const v = validateQirJson({ entities: [], unknowns: ["?h", "?d"], relations: ["in"], target: "?h", question_type: "factoid", ...extra });
  return v.ok ? "" : v.reason;
});

const missing = [CK25_KG, ...QUESTION_FILES, DIALOGUES].find((f) => !fs.existsSync(f));
if (missing) console.warn(`Skipping the benchmark vocabulary checks: ${missing} not found.`);

describe.skipIf(missing !== undefined)("the prompts and the benchmarks", () => {
  it("share no phrase with a benchmark question", () => {
    const bench = new Set(benchmarkQuestions().flatMap((q) => [...trigrams(q)]));
    expect(bench.size).toBeGreaterThan(1000);
    const shared = PROMPT_FILES.flatMap((p) => [...trigrams(promptText(p))].filter((g) => bench.has(g)).map((g) => `${p}: ${g}`));
    expect(shared).toEqual([]);
  });

  it("name no CK25 class, predicate or text value, nor do the validator's retry messages", () => {
    const terms = ck25Terms();
    expect(terms).toEqual(expect.arrayContaining(["supplier", "address country", "department"]));
    expect(PROMPT_FILES.length).toBeGreaterThan(15);
    const found = PROMPT_FILES.flatMap((p) => terms.filter((t) => mentions(promptText(p), t)).map((t) => `${p}: ${t}`));
    expect(found).toEqual([]);
    expect(RETRY_REASONS.every((r) => r.length > 0)).toBe(true);
    expect(RETRY_REASONS.flatMap((r) => terms.filter((t) => mentions(r, t)).map((t) => `${t} in: ${r}`))).toEqual([]);
  });
});

/** Every oracle's code (lib/eval/oracle*.ts, lib/eval/oracles.ts; tests left out: they may quote a benchmark). */
const ORACLE_FILES = fs
  .readdirSync(path.join(ROOT, "lib/eval"))
  .filter((f) => /^oracle.*\.ts$/.test(f) && !f.endsWith(".test.ts"))
  .map((f) => `lib/eval/${f}`);

describe.skipIf(missing !== undefined)("the oracles and their reviewed normalisations", () => {
  it("the normalisation list names no CK25 class, predicate or text value", () => {
    const terms = ck25Terms();
    const text = REVIEWED_WORDS.join(" | ");
    expect(REVIEWED_WORDS.length).toBeGreaterThan(50);
    expect(terms.filter((t) => mentions(text, t))).toEqual([]);
  });

  it("no oracle's code names a CK25 IRI, a CK25 term of several words or a text value, nor shares a phrase with a benchmark question", () => {
    expect(ORACLE_FILES).toEqual(expect.arrayContaining(["lib/eval/oracle-grounding.ts", "lib/eval/oracle-llm.ts", "lib/eval/oracles.ts"]));
    // one-word vocabulary ("price", "country") is plain English a program may use; several words or a stored value are not
    const terms = ck25Terms().filter((t) => t.includes(" "));
    const bench = new Set(benchmarkQuestions().flatMap((q) => [...trigrams(q)]));
    const found = ORACLE_FILES.flatMap((f) => {
      const text = fs.readFileSync(path.join(ROOT, f), "utf8");
      return [
        ...(/ld\.company\.org|prod-(vocab|instances)/.test(text) ? [`${f}: a CK25 namespace`] : []),
        ...terms.filter((t) => mentions(text, t)).map((t) => `${f}: ${t}`),
        ...[...trigrams(text)].filter((g) => bench.has(g)).map((g) => `${f}: "${g}"`),
      ];
    });
    expect(found).toEqual([]);
  });
});

describe("the QIR examples", () => {
  it("use none of the music or sample KG's names, classes or predicates", () => {
    const terms = ownKgTerms();
    expect(terms).toEqual(expect.arrayContaining(["record label", "release date", "mira solberg", "designed"]));
    for (const p of ["qir", "chat-agent"]) {
      const text = exampleWords(p).join(" | ");
      expect(text.length).toBeGreaterThan(50);
      expect(terms.filter((t) => mentions(text, t))).toEqual([]);
    }
  });
});

// The KG lexicon, schema reader and entailment (issue 20) decide from the data, not from word lists about a KG: their
// rules' strings and regular expressions name no term of a benchmark or development KG. Words that are standard
// vocabulary terms (rdfs:label, rdfs:comment, dcterms:title, dcterms:description, skos:note …) are the rules' subject.
const DEV_KG = { ontology: path.join(SHARED, "talk2powersystem/cim-subset-pretty-ontology.ttl"), graphs: path.join(SHARED, "talk2powersystem/graphs"), wc2014: path.join(SHARED, "wc2014/kg.nt") };
const LEXICON_FILES = ["lib/kg/lexicon", "lib/kg/schema"]
  .flatMap((d) => fs.readdirSync(path.join(ROOT, d)).map((f) => `${d}/${f}`))
  .concat(["lib/kg/embedded/entailment-core.mjs", "lib/pipeline/common/lexicon.ts", "lib/pipeline/common/kg-schema-facts.ts", "lib/pipeline/explorer/entity-index.ts"])
  .filter((f) => /\.(ts|mjs)$/.test(f) && !/\.test\.ts$/.test(f));
const STANDARD_WORDS = new Set(["label", "comment", "title", "description", "note", "definition", "abstract", "identifier", "type", "class", "property", "domain", "range", "text", "value", "kind"]);

/** talk2powersystem's ontology terms and names, wc2014's entities and relations, CK25's terms: in words. */
function devKgTerms(): string[] {
  const ont = fs.readFileSync(DEV_KG.ontology, "utf8");
  const vocab = [...ont.matchAll(/\b(?:cim|nc|eu):([A-Za-z][\w.]*)/g)].flatMap((m) => m[1].split(".").map(localWords));
  const names = fs.readdirSync(DEV_KG.graphs).flatMap((f) => [...fs.readFileSync(path.join(DEV_KG.graphs, f), "utf8").matchAll(/IdentifiedObject\.name\s+"([^"]{3,40})"/g)].map((m) => m[1].toLowerCase()));
  const wc = [...fs.readFileSync(DEV_KG.wc2014, "utf8").matchAll(/<http:\/\/example\.org\/wc2014\/([^>]+)>/g)].map((m) => decodeURIComponent(m[1]).replace(/_/g, " ").toLowerCase());
  return [...new Set([...vocab, ...names, ...wc, ...ck25Terms()])].filter((t) => t.length > 2 && !GENERIC.has(t) && !STANDARD_WORDS.has(t));
}

/** The strings and regular expressions of a source file (its comments aside): what its rules and lists say. */
function ruleText(file: string): string {
  const src = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, " ");
  return [...src.matchAll(/"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`|\/((?:[^/\\\n]|\\.)+)\/[gimsuy]*/g)].map((m) => m[1] ?? (m[2] !== undefined ? m[2].replace(/\$\{[^}]*\}/g, " ") : m[3])).join(" | ");
}

const devMissing = Object.values(DEV_KG).find((f) => !fs.existsSync(f)) ?? missing;
describe.skipIf(devMissing !== undefined)("the KG lexicon, schema reader and entailment", () => {
  it("name no term of CK25, talk2powersystem or wc2014 in their rules and lists", () => {
    expect(LEXICON_FILES).toEqual(expect.arrayContaining(["lib/kg/lexicon/discover.ts", "lib/kg/lexicon/names.ts", "lib/kg/schema/read-schema.ts"]));
    const terms = devKgTerms();
    expect(terms).toEqual(expect.arrayContaining(["terminal", "plays in club", "supplier"]));
    const found = LEXICON_FILES.flatMap((f) => {
      const text = ruleText(f).replace(/\\[bdswp]/g, " ");
      return terms.filter((t) => mentions(text, t)).map((t) => `${f}: ${t}`);
    });
    expect(found).toEqual([]);
  });
});

// Onboarding (issue 27) builds its examples, questions and notes from each KG's own data: its generators, templates,
// verbalizer, notes and prompt name no term of two or more words of a benchmark or development KG, nor any of their
// names with a digit (one-word vocabulary — "aggregate", "length", "service" — is plain English a program may use).
const ONBOARDING_FILES = fs
  .readdirSync(path.join(ROOT, "lib/kg/onboarding"))
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .map((f) => `lib/kg/onboarding/${f}`)
  .concat(["lib/pipeline/one-call/entities.ts", "lib/pipeline/common/kg-notes.ts"]);
const SPIDER_KGS = path.join(SHARED, "spider4sparql-train/kg");

function spiderTerms(): string[] {
  if (!fs.existsSync(SPIDER_KGS)) return [];
  const out = new Set<string>();
  for (const f of fs.readdirSync(SPIDER_KGS)) {
    for (const m of fs.readFileSync(path.join(SPIDER_KGS, f), "utf8").matchAll(/<http:\/\/valuenet\/ontop\/([A-Za-z_][\w-]*)(?:#(?:ref-)?([A-Za-z_][\w;-]*))?>/g)) {
      for (const name of [m[1], m[2]]) if (name && /_/.test(name)) out.add(name.replace(/[_;-]+/g, " ").toLowerCase().trim());
    }
  }
  return [...out].filter((t) => t.includes(" "));
}

describe.skipIf(devMissing !== undefined)("onboarding's generators, templates, verbalizer, notes and prompt", () => {
  it("name no term of CK25, talk2powersystem, wc2014 or the Spider train suite", () => {
    expect(ONBOARDING_FILES).toEqual(expect.arrayContaining(["lib/kg/onboarding/generators.ts", "lib/kg/onboarding/verbalize.ts", "lib/kg/onboarding/template.ts"]));
    const terms = [...devKgTerms(), ...spiderTerms()].filter((t) => t.includes(" ") || /\d/.test(t));
    expect(terms).toEqual(expect.arrayContaining(["plays in club", "dept name"]));
    const found = ONBOARDING_FILES.flatMap((f) => {
      const text = ruleText(f).replace(/\\[bdswp]/g, " ");
      return terms.filter((t) => mentions(text, t)).map((t) => `${f}: ${t}`);
    });
    const prompt = readPrompt("onboarding-questions");
    found.push(...terms.filter((t) => mentions(prompt, t)).map((t) => `prompts/onboarding-questions.md: ${t}`));
    expect(found).toEqual([]);
  });
});
