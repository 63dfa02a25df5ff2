import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createKnowledgeCache, type KnowledgeCache } from "@/lib/pipeline/ragonite/knowledge";
import { runConsoleSql } from "./sql-console";

describe("the query panel's SQL runner", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sql-console-"));
  let kg: KnowledgeGraph;
  let cache: KnowledgeCache;
  beforeAll(async () => {
    kg = await openKg({ kind: "sample" });
    cache = createKnowledgeCache({ dir });
  }, 60_000);
  afterAll(async () => {
    cache.close();
    await kg.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs a SELECT on the induced database: IRIs come back as IRIs with their labels, numbers and dates typed", async () => {
    const r = await runConsoleSql(kg, "SELECT iri, birth_date FROM actor WHERE label = 'Daniel Radcliffe'", { cache });
    expect(r.result).toMatchObject({
      kind: "SELECT",
      head: { vars: ["iri", "birth_date"] },
      results: { bindings: [{ iri: { type: "uri", value: "http://example.org/chatty-kg/resource/Daniel_Radcliffe" }, birth_date: { type: "literal", value: "1989-07-23", datatype: "http://www.w3.org/2001/XMLSchema#date" } }] },
    });
    expect(r.labels["http://example.org/chatty-kg/resource/Daniel_Radcliffe"]).toBe("Daniel Radcliffe");
    expect(r.truncated).toBe(false);
  }, 60_000);

  it("caps rows and refuses anything but one SELECT", async () => {
    const capped = await runConsoleSql(kg, "SELECT * FROM range(50)", { cache, rowCap: 10 });
    expect(capped).toMatchObject({ truncated: true, rowCap: 10 });
    await expect(runConsoleSql(kg, "DELETE FROM actor", { cache })).rejects.toMatchObject({ code: "sql_forbidden", status: 403 });
    await expect(runConsoleSql(kg, "SELECT x FROM", { cache })).rejects.toMatchObject({ code: "sql_syntax", status: 400 });
  });
});
