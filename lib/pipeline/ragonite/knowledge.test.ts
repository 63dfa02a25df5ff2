import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import { createKnowledgeCache } from "./knowledge";

const V1 = `@prefix ex: <http://ex.org/> . ex:a a ex:Thing ; ex:size 1 .`;
const V2 = `@prefix ex: <http://ex.org/> . ex:a a ex:Thing ; ex:size 1 . ex:b a ex:Gadget ; ex:size 2 .`;

describe("knowledge cache", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "ragonite-knowledge-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("builds on first use with progress, reuses it, and rebuilds when the KG's content changes", async () => {
    const kg = await createEmbeddedKg({ sources: [{ text: V1, format: "turtle" }] });
    const cache = createKnowledgeCache({ dir });
    try {
      const progress: string[] = [];
      const first = await cache.get(kg, { onProgress: (p) => progress.push(p.message) });
      expect(first.cached).toBe(false);
      expect(progress).toEqual(expect.arrayContaining([expect.stringMatching(/^read \d+ of \d+ triples$/), expect.stringMatching(/^verbalized \d+ passages$/)]));
      expect((await cache.get(kg, {})).cached).toBe(true);

      await kg.loadString(V2, "turtle");
      const second = await cache.get(kg, {});
      expect(second.cached).toBe(false);
      expect(second.knowledge.schema.tables.map((t) => t.name).sort()).toEqual(["gadget", "thing"]);
      expect((await second.knowledge.db.query("SELECT count(*) FROM gadget")).rows).toEqual([["1"]]);
      // one database file per content
      expect(readdirSync(dir).filter((f) => f.endsWith(".duckdb"))).toHaveLength(2);
    } finally {
      cache.close();
      await kg.close();
    }
  }, 60_000);

  it("does not keep a failed build: the next turn tries again", async () => {
    const kg = await createEmbeddedKg({ sources: [{ text: V1, format: "turtle" }] });
    const cache = createKnowledgeCache({ dir });
    try {
      const aborted = new AbortController();
      aborted.abort();
      await expect(cache.get(kg, { signal: aborted.signal })).rejects.toMatchObject({ code: "aborted" });
      expect((await cache.get(kg, {})).cached).toBe(false);
    } finally {
      cache.close();
      await kg.close();
    }
  }, 60_000);
});
