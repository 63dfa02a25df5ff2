// The generated-KG cache: outside the repository by default, split into complete files of 1M triples, written once.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateTriples, generatedDir, generatedParts, writeTriplesInParts } from "./gen-triples";

describe("generatedDir", () => {
  it("is under the system temp folder unless CHATTY_GEN_DIR says otherwise", () => {
    expect(generatedDir({})).toBe(path.join(os.tmpdir(), "chatty-kg-gen"));
    expect(generatedDir({ CHATTY_GEN_DIR: "/srv/gen" })).toBe("/srv/gen");
    expect(path.relative(process.cwd(), generatedDir({})).startsWith("..")).toBe(true);
  });
});

describe("writeTriplesInParts / generatedParts", () => {
  let dir: string | undefined;
  afterEach(() => {
    vi.unstubAllEnvs();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("splits the same lines the generator yields into files of at most perFile lines", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "gen-parts-"));
    const paths = await writeTriplesInParts((i) => path.join(dir!, `p${i}.nt`), 2_500, 1_000);
    const lines = paths.map((p) => readFileSync(p, "utf8").trimEnd().split("\n"));
    expect(lines.map((l) => l.length)).toEqual([1_000, 1_000, 500]);
    expect(lines.flat()).toEqual([...generateTriples(2_500)]);
  });

  it("writes the cache once and reuses it", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "gen-cache-"));
    vi.stubEnv("CHATTY_GEN_DIR", dir);
    const logs: string[] = [];
    const first = await generatedParts(1_200, (l) => logs.push(l), 1_000);
    expect(first.map((p) => path.basename(p))).toEqual(["part-000.nt", "part-001.nt"]);
    const mtime = statSync(first[1]).mtimeMs;
    expect(await generatedParts(1_200, (l) => logs.push(l), 1_000)).toEqual(first);
    expect(statSync(first[1]).mtimeMs).toBe(mtime);
    expect(logs).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(["gen-1200.parts-1000"]);
  });
});
