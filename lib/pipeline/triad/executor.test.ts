import { describe, expect, it } from "vitest";
import type { QueryResult } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import { musicKg } from "@/test/fixtures/kg/triad-harness";
import { executorAgent, readResult } from "./executor";
import type { TriadState } from "./state";

const select = (vars: string[], rows: Record<string, { type: "uri" | "literal" | "bnode"; value: string }>[]): QueryResult => ({ kind: "SELECT", head: { vars }, results: { bindings: rows } });

describe("readResult", () => {
  it("counts distinct non-empty rows, previews the first values, and signs identical results alike", () => {
    const a = readResult(select(["x", "y"], [{ x: { type: "uri", value: "u1" } }, { x: { type: "uri", value: "u1" } }, { y: { type: "literal", value: "v" } }, { x: { type: "bnode", value: "b" } }]));
    expect(a).toMatchObject({ rows: 2, preview: ["u1", "v"] });
    const b = readResult(select(["x", "y"], [{ y: { type: "literal", value: "v" } }, { x: { type: "uri", value: "u1" } }]));
    expect(b.signature).toBe(a.signature);
  });

  it("reads an aggregate over nothing (a lone 0) as no rows, and an ASK by its answer", () => {
    expect(readResult(select(["n"], [{ n: { type: "literal", value: "0" } }])).rows).toBe(0);
    expect(readResult(select(["n"], [{ n: { type: "literal", value: "3" } }])).rows).toBe(1);
    expect(readResult({ kind: "ASK", head: {}, boolean: false })).toMatchObject({ rows: 0, boolean: false });
  });
});

describe("executorAgent", () => {
  it("runs every candidate and keeps what each returned; a failing query counts as one without rows", async () => {
    const { ctx, sparql } = createTestContext({ kg: musicKg(), llm: createScriptedLlm().gateway });
    const state: TriadState = {
      question: "q",
      dialogue: [],
      config: DEFAULT_CONFIG,
      attempt: 1,
      misses: [],
      candidates: [
        { id: 1, rank: 0, fillers: {}, sparql: "SELECT ?b WHERE { ?b <http://example.org/tunes/vocab#originCountry> \"Iceland\" }" },
        { id: 2, rank: 1, fillers: {}, sparql: "SELECT ?b WHERE { ?b <http://example.org/tunes/vocab#originCountry> \"Atlantis\" }" },
        { id: 3, rank: 2, fillers: {}, sparql: "SELECT ?b WHERE { ?b ?p }" },
      ],
    };
    const { executed, results } = await executorAgent(state, ctx);
    expect(executed?.map((e) => [e.id, e.rows, !!e.error])).toEqual([[1, 2, false], [2, 0, false], [3, 0, true]]);
    expect(Object.keys(results ?? {})).toEqual(["1", "2"]);
    expect(sparql().map((e) => e.stage)).toEqual(["execution", "execution", "execution"]);
  });
});
