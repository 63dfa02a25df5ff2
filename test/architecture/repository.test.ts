// The developers' guide's layout rules on this repository: no strategy reaches into another's folder, nothing in
// lib/pipeline imports lib/eval, no import cycles, no source file over 400 lines (tests included; generated code not).
import { describe, expect, it } from "vitest";
import { buildImportGraph, readSources } from "./import-graph";
import { crossStrategyImports, importCycles, oversizedFiles, pipelineToEvalImports } from "./layout-rules";

const sources = readSources(process.cwd());
const graph = buildImportGraph(sources);

describe("repository layout", () => {
  it("reads the whole source tree", () => {
    // guards the walk itself: a wrong root or skip list would make every rule below pass on nothing
    for (const file of ["lib/pipeline/types.ts", "app/layout.tsx", "components/chat/chat-shell.tsx", "scripts/eval.ts", "test/architecture/layout-rules.ts"]) {
      expect(sources.has(file), file).toBe(true);
    }
    expect([...sources.keys()].some((f) => f.startsWith("node_modules/") || f.startsWith("generated/"))).toBe(false);
    expect(graph.get("lib/pipeline/registry.ts")?.has("lib/pipeline/chatty-kg/strategy.ts")).toBe(true);
  });

  it("no strategy imports another strategy's folder (shared code lives in lib/pipeline/common)", () => {
    expect(crossStrategyImports(graph)).toEqual([]);
  });

  it("nothing in lib/pipeline imports lib/eval", () => {
    expect(pipelineToEvalImports(graph)).toEqual([]);
  });

  it("no import cycles", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("no source file over 400 lines", () => {
    expect(oversizedFiles(sources)).toEqual([]);
  });
});
