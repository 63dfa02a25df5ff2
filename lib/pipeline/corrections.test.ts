// Corrections: the schema refuses what is not one of the kinds, and each kind reads as one line naming what changed.
import { describe, expect, it } from "vitest";
import { attemptChangeSchema, correctionSchema, describeCorrection, CORRECTION_STAGE } from "./corrections";

describe("corrections", () => {
  it("accepts each kind and refuses unknown kinds, empty predicate lists and oversized input", () => {
    expect(correctionSchema.safeParse({ kind: "vertex", mention: " Aurora ", iri: "http://x/a" }).data).toEqual({ kind: "vertex", mention: "Aurora", iri: "http://x/a" });
    expect(correctionSchema.safeParse({ kind: "candidate", id: 3 }).success).toBe(true);
    expect(correctionSchema.safeParse({ kind: "predicates", predicates: [] }).success).toBe(false);
    expect(correctionSchema.safeParse({ kind: "relation-predicates", predicates: { born: [] } }).success).toBe(false);
    expect(correctionSchema.safeParse({ kind: "drop-table" }).success).toBe(false);
    expect(correctionSchema.safeParse({ kind: "final-query", query: "x".repeat(100_001) }).success).toBe(false);
    expect(attemptChangeSchema.safeParse({ baseAttempt: 0, correction: { kind: "candidate", id: 1 } }).success).toBe(false);
  });

  it("describes each kind in one line and names the step it replaces", () => {
    expect(describeCorrection({ kind: "vertex", mention: "Daniel Radcliffe", iri: "http://x/Daniel_Radcliffe", label: "Daniel Radcliffe" })).toBe(
      'Linked "Daniel Radcliffe" to Daniel Radcliffe (Daniel_Radcliffe)',
    );
    expect(describeCorrection({ kind: "predicates", predicates: ["http://x/ont#starring"] })).toBe("Queried with predicates starring");
    expect(describeCorrection({ kind: "relation-predicates", predicates: { "starred in": ["http://x/starredIn"] } })).toBe('Kept predicates starredIn for "starred in"');
    expect(describeCorrection({ kind: "qir-triple", index: 0, triple: { subject: "A", relation: "born", object: "?d" } })).toBe("Edited QIR triple 1 to ⟨A, born, ?d⟩");
    expect(describeCorrection({ kind: "candidate", id: 4 })).toBe("Ran candidate query #4");
    expect(CORRECTION_STAGE.vertex).toBe("entity-linking");
  });
});
