// Tests for the CK25 scripted-reply helpers: option markers resolved from the prompt, fixture parsing, one real turn.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ck25KgSpec, ck25Paths, loadCk25Fixture, promptOptions, resolveReply, scriptFrom } from "./ck25-scripted";

const prompt = [
  { role: "system" as const, text: "1. not an option of the user message" },
  { role: "user" as const, text: "Options for Ms. Brant:\n1. Karen Brant — type: Employee\n2. Brant Works — type: Department\n\nPredicates:\n 7. member of (out)\n8. has manager" },
];

describe("promptOptions / resolveReply", () => {
  it("reads the numbered lines of the last user message only", () => {
    expect(promptOptions(prompt)).toEqual([
      [1, "Karen Brant — type: Employee"],
      [2, "Brant Works — type: Department"],
      [7, "member of (out)"],
      [8, "has manager"],
    ]);
  });

  it("turns #regex markers into option numbers and leaves unmatched markers for the validator to reject", () => {
    expect(resolveReply("vertex", { choices: { "Ms. Brant": "#^Karen Brant" } }, prompt)).toEqual({ choices: { "Ms. Brant": 1 } });
    expect(resolveReply("predicates", { predicates: ["#^member of( \\(|$)", "#manager", "#manager", "#nothing"] }, prompt)).toEqual({
      predicates: [7, 8, "#nothing"],
    });
    // other roles and plain values pass through unchanged
    expect(resolveReply("qir", { entities: ["#^Karen"] }, prompt)).toEqual({ entities: ["#^Karen"] });
  });

  it("builds one scripted reply per fixture entry and role", () => {
    const script = scriptFrom({ vertex: [{ choices: { a: "#Brant Works" } }], qir: [{ x: 1 }, { x: 2 }] });
    expect(script.vertex).toHaveLength(1);
    expect(script.qir).toHaveLength(2);
    const first = (script.vertex as ((m: typeof prompt) => unknown)[])[0];
    expect(first(prompt)).toEqual({ choices: { a: 2 } });
  });
});

describe("CK25 fixture and spec", () => {
  it("parses the committed fixture", () => {
    const qs = loadCk25Fixture();
    expect(qs.length).toBeGreaterThan(0);
    for (const q of qs) expect(q.replies.chat?.length ?? 0).toBeGreaterThan(0);
  });

  it("names the broken entry of a malformed fixture", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ck25-"));
    const file = path.join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ questions: [{ id: "one", kind: "lookup", question: "?", replies: {} }] }));
    expect(() => loadCk25Fixture(process.cwd(), file)).toThrow(/questions\.0\.id/);
  });

  it("points at the shared data beside the checkout and labels by rdfs:label only", () => {
    const p = ck25Paths("/x/main");
    expect(p.graph).toBe("/x/shared/data/ck25/graphs/prod-inst.ttl");
    expect(ck25KgSpec("/x/main")).toMatchObject({ kind: "files", paths: [p.graph], profile: { labelPredicates: ["http://www.w3.org/2000/01/rdf-schema#label"] } });
  });
});
