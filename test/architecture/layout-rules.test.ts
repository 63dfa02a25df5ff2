// Each layout rule on small in-memory graphs: it reports what breaks it (naming the files) and passes what does not.
import { describe, expect, it } from "vitest";
import { buildImportGraph, importSpecifiers, resolveImport, type ImportGraph } from "./import-graph";
import { crossStrategyImports, importCycles, oversizedFiles, pipelineFolder, pipelineToEvalImports } from "./layout-rules";

const graph = (edges: Record<string, string[]>): ImportGraph => {
  const g: ImportGraph = new Map();
  for (const [from, to] of Object.entries(edges)) {
    g.set(from, new Set(to));
    for (const t of to) if (!g.has(t)) g.set(t, new Set());
  }
  return g;
};

describe("import scanning and resolution", () => {
  it("sees static, type-only, re-export, dynamic and require imports", () => {
    const text = [
      `import { a } from "./a";`,
      `import type { B } from "@/lib/b";`,
      `export { c } from "../c";`,
      `export * from "./d.js";`,
      `const e = await import("./e");`,
      `const f = require("./f");`,
      `import "zod";`,
      "const g = `import(\"./not-an-import\")`;",
    ].join("\n");
    expect(importSpecifiers(text)).toEqual(["./a", "@/lib/b", "../c", "./d.js", "./e", "./f", "zod"]);
  });

  it("resolves the @/ alias, relative paths, index files and .js written for .ts; packages and JSON resolve to nothing", () => {
    const files = new Set(["lib/x/a.ts", "lib/b.tsx", "lib/c/index.ts", "lib/x/d.ts", "scripts/e.mjs"]);
    expect(resolveImport("lib/x/y.ts", "./a", files)).toBe("lib/x/a.ts");
    expect(resolveImport("lib/x/y.ts", "@/lib/b", files)).toBe("lib/b.tsx");
    expect(resolveImport("lib/x/y.ts", "../c", files)).toBe("lib/c/index.ts");
    expect(resolveImport("lib/x/y.ts", "./d.js", files)).toBe("lib/x/d.ts");
    expect(resolveImport("scripts/z.mjs", "./e.mjs", files)).toBe("scripts/e.mjs");
    expect(resolveImport("lib/x/y.ts", "zod", files)).toBeUndefined();
    expect(resolveImport("lib/x/y.ts", "./data.json", files)).toBeUndefined();
  });

  it("builds edges only to the files it was given", () => {
    const g = buildImportGraph(new Map([["lib/a.ts", `import { b } from "./b"; import x from "react";`], ["lib/b.ts", ""]]));
    expect([...g.get("lib/a.ts")!]).toEqual(["lib/b.ts"]);
    expect([...g.get("lib/b.ts")!]).toEqual([]);
  });
});

describe("layout rules", () => {
  it("strategy folders are every folder under lib/pipeline except common; files directly in it belong to none", () => {
    expect(pipelineFolder("lib/pipeline/one-call/strategy.ts")).toBe("one-call");
    expect(pipelineFolder("lib/pipeline/chatty-kg/agents/qir.ts")).toBe("chatty-kg");
    expect(pipelineFolder("lib/pipeline/types.ts")).toBeUndefined();
    expect(pipelineFolder("lib/eval/runner.ts")).toBeUndefined();
  });

  it("a strategy importing another strategy's folder fails, as does common importing a strategy; common and own files pass", () => {
    const g = graph({
      "lib/pipeline/baselines/turn.ts": ["lib/pipeline/chatty-kg/state.ts", "lib/pipeline/common/stage-runner.ts", "lib/pipeline/types.ts"],
      "lib/pipeline/one-call/strategy.ts": ["lib/pipeline/one-call/prompt.ts", "lib/pipeline/triad/agents/x.ts"],
      "lib/pipeline/common/x.test.ts": ["lib/pipeline/explorer/strategy.ts"],
      "lib/pipeline/registry.ts": ["lib/pipeline/chatty-kg/strategy.ts", "lib/pipeline/triad/strategy.ts"],
      "lib/server/run.ts": ["lib/pipeline/ragonite/strategy.ts"],
    });
    expect(crossStrategyImports(g)).toEqual([
      "lib/pipeline/baselines/turn.ts (strategy baselines) imports strategy chatty-kg: lib/pipeline/chatty-kg/state.ts",
      "lib/pipeline/common/x.test.ts (shared by the strategies) imports strategy explorer: lib/pipeline/explorer/strategy.ts",
      "lib/pipeline/one-call/strategy.ts (strategy one-call) imports strategy triad: lib/pipeline/triad/agents/x.ts",
    ]);
    expect(crossStrategyImports(graph({ "lib/pipeline/triad/a.ts": ["lib/pipeline/triad/b.ts", "lib/pipeline/common/c.ts"] }))).toEqual([]);
  });

  it("a pipeline module importing lib/eval fails; eval importing the pipeline, and pipeline tests reading eval data, pass", () => {
    const g = graph({
      "lib/pipeline/ragonite/check.ts": ["lib/eval/datasets/jsonl.ts"],
      "lib/pipeline/types.ts": ["lib/eval/metrics.ts"],
      "lib/pipeline/triad/x.test.ts": ["lib/eval/datasets/jsonl.ts"],
      "lib/eval/runner.ts": ["lib/pipeline/registry.ts"],
    });
    expect(pipelineToEvalImports(g)).toEqual(["lib/pipeline/ragonite/check.ts imports lib/eval/datasets/jsonl.ts", "lib/pipeline/types.ts imports lib/eval/metrics.ts"]);
  });

  it("an import cycle fails with its path (two files, three files, a file importing itself); a diamond passes", () => {
    expect(importCycles(graph({ "a.ts": ["b.ts"], "b.ts": ["a.ts"] }))).toEqual(["a.ts → b.ts → a.ts"]);
    expect(importCycles(graph({ "x.ts": ["a.ts"], "a.ts": ["b.ts"], "b.ts": ["c.ts"], "c.ts": ["a.ts", "d.ts"] }))).toEqual(["a.ts → b.ts → c.ts → a.ts"]);
    expect(importCycles(graph({ "self.ts": ["self.ts"] }))).toEqual(["self.ts → self.ts"]);
    // the shortest cycle is shown, with every file of the group when the group is larger
    expect(importCycles(graph({ "a.ts": ["b.ts", "c.ts"], "b.ts": ["a.ts"], "c.ts": ["b.ts"] }))).toEqual(["a.ts → b.ts → a.ts (3 files import each other: a.ts, b.ts, c.ts)"]);
    expect(importCycles(graph({ "a.ts": ["b.ts", "c.ts"], "b.ts": ["d.ts"], "c.ts": ["d.ts"], "d.ts": [] }))).toEqual([]);
  });

  it("a file over the line limit fails with its count; one at the limit passes", () => {
    const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `const x${i} = ${i};`).join("\n")}\n`;
    expect(oversizedFiles(new Map([["lib/big.ts", lines(401)], ["lib/ok.ts", lines(400)], ["lib/ok2.ts", lines(400).trimEnd()]]))).toEqual([
      "lib/big.ts: 401 lines (at most 400)",
    ]);
  });
});
