// The template questions a person sees (start-page chips, the overview) on a fixture KG written for their faults:
// articles by sound, predicates led by or ending in a preposition read as relations, no example that looks a thing
// up by its own code, no bare value list as a chip, entity mentions spread over the class, no LIMIT that cuts a tie,
// ids written as people type them (and found by the lexicon), and the code predicate named in the notes.
import { describe, expect, it } from "vitest";
import { buildLexicon } from "@/lib/kg/lexicon";
import { DEFAULT_PROFILE } from "@/lib/kg/profile";
import type { QueryResult } from "@/lib/kg/types";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { judgeResult } from "./execute";
import type { Candidate } from "./frames";
import { pickSuggestions } from "./suggestions";
import { article, templateQuestion } from "./verbalize";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/comets.ttl");
const questions = () => fx.prepared.examples.map((e) => e.question);

describe("template questions read as a person would write them", () => {
  it("chooses 'a' or 'an' by the next word's sound", () => {
    expect(article("estimated mass")).toBe("an");
    expect(article("unit price")).toBe("a");
    expect(article("hour")).toBe("an");
    expect(article("tail colour")).toBe("a");
    expect(questions().some((q) => /^Which comets have an estimated mass greater than \d+\?$/.test(q))).toBe(true);
    expect(questions().filter((q) => /\ba [aeiou]/i.test(q))).toEqual([]);
  });

  it("reads a predicate led by a preposition as a relation, and never uses it as a noun", () => {
    expect(questions()).toContain("Which comets are in group north group?");
    expect(questions()).toContain("How many comets are in group north group?");
    expect(questions().filter((q) => /\b(the|each|which|a|an) in group\b/i.test(q))).toEqual([]);
    // a template that needs a noun is not asked at all
    expect(templateQuestion({ kind: "superlative", cls: "Comet", p: "in group" })).toBeUndefined();
    expect(templateQuestion({ kind: "group-most", cls: "Comet", p: "in group" })).toBe("Which group has the most comets?");
    // one ending in a preposition: "the observer that X is discovered by", never "the discovered by of X" nor "the observer X is discovered by"
    expect(questions().some((q) => /^What is the sightings of the observer that comet k\d\d is discovered by\?$/.test(q))).toBe(true);
    expect(questions().some((q) => /the observer comet k\d\d is discovered by/.test(q))).toBe(false);
    expect(questions().filter((q) => /the discovered by of|the in group of/.test(q))).toEqual([]);
  });

  it("writes an id of a letter and digits as people type it, and the lexicon finds what the question writes", async () => {
    const mentioned = questions().filter((q) => /comet k\s?\d/.test(q));
    expect(mentioned.length).toBeGreaterThan(0);
    expect(mentioned.filter((q) => /comet k \d/.test(q))).toEqual([]);
    const { lexicon } = await buildLexicon(async (_purpose, query) => {
      const r = await fx.kg.query(query);
      return r.kind === "SELECT" ? r.results.bindings : [];
    }, DEFAULT_PROFILE);
    const hit = lexicon.search("comet k03", { kinds: ["entity"], limit: 3 })[0];
    expect(hit?.iri).toBe("http://example.org/skywatch/comet_k03");
  });

  it("spreads the entity mentions over the class, preferring comets with many facts", () => {
    const named = fx.prepared.examples.flatMap((e) => [...e.question.matchAll(/comet k(\d\d)/g)].map((m) => m[1]));
    const counts = new Map<string, number>();
    for (const n of named) counts.set(n, (counts.get(n) ?? 0) + 1);
    expect(counts.size).toBeGreaterThanOrEqual(4);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(Math.ceil(named.length / 3));
    // the comet with a code only (the last in the file) is never the one asked about
    expect(counts.has("08")).toBe(false);
  });
});

describe("examples that say nothing are not kept", () => {
  it("does not keep a superlative whose LIMIT would cut a tie at the top", () => {
    // two comets share the highest estimated mass; the lowest is one comet
    expect(questions()).not.toContain("Which comet has the highest estimated mass?");
    expect(questions()).toContain("Which comet has the lowest estimated mass?");
    const tie = (k: number): Candidate => ({ shape: "superlative", frame: { kind: "superlative" }, sparql: "", run: "", mentions: [], tie: { v: "m", k, added: true } });
    const rows = (vals: [string, string][]): QueryResult => ({ kind: "SELECT", head: { vars: ["m", "x"] }, results: { bindings: vals.map(([m, x]) => ({ m: { type: "literal", value: m }, x: { type: "literal", value: x } })) } });
    expect(judgeResult(tie(1), rows([["9", "a"], ["9", "b"]]), 10)).toMatchObject({ keep: false, reason: expect.stringMatching(/tie/) });
    expect(judgeResult(tie(1), rows([["9", "a"], ["8", "b"]]), 10)).toEqual({ keep: true, answerSize: 1, preview: ["a"] });
  });

  it("does not look a thing up by its own code, nor answer with what the question names", () => {
    expect(questions().filter((q) => /comet code (is )?C-10\d\d\?$/.test(q) && /^(Which|How many) comets/.test(q))).toEqual([]);
    expect(questions().filter((q) => /^Is the comet code of/.test(q))).toEqual([]);
    const keyed: Candidate = { shape: "with-value", frame: { kind: "with-value" }, sparql: "", run: "", mentions: ["C-1003"], keyed: true };
    const one = (v: string, name = "x"): QueryResult => ({ kind: "SELECT", head: { vars: [name] }, results: { bindings: [{ [name]: { type: "literal", value: v } }] } });
    expect(judgeResult(keyed, one("comet k03"), 10)).toMatchObject({ keep: false, reason: "looks a thing up by its own key" });
    expect(judgeResult({ ...keyed, frame: { kind: "count-with-value" } }, one("1", "count"), 10)).toMatchObject({ keep: false });
    expect(judgeResult({ ...keyed, keyed: false, frame: { kind: "value-of" }, mentions: ["hive s03"] }, one("hive_s03"), 10)).toMatchObject({ keep: false, reason: "the answer repeats what the question names" });
  });

  it("offers no bare value list as a chip", () => {
    const chips = pickSuggestions(fx.prepared.examples, 6);
    expect(chips.length).toBeGreaterThanOrEqual(4);
    const kinds = chips.map((c) => fx.prepared.examples.find((e) => e.id === c.exampleId)?.frame.kind);
    expect(kinds.filter((k) => k === "list-attribute" || k === "list-ordered" || k === "list-names")).toEqual([]);
  });

  it("names the code predicate the lexicon reads names from in the notes", () => {
    expect(fx.prepared.notes?.text).toMatch(/codes\/ids in \w+:comet_code/);
  });
});
