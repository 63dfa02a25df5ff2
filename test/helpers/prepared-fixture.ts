// A fixture KG opened and prepared for onboarding once per test file (the setup the onboarding tests share), closed
// after the file's tests. The fields are set in beforeAll: read them inside tests, not at the top of the file.
import { afterAll, beforeAll, expect } from "vitest";
import { prepareInMemory, type PreparedKg } from "@/lib/kg/onboarding/prepare";
import { impliedTypes, queryTemplate } from "@/lib/kg/onboarding/template";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";

export interface PreparedFixture {
  kg: KnowledgeGraph;
  prepared: PreparedKg;
}

export function usePreparedFixture(path: string): PreparedFixture {
  const fx = {} as PreparedFixture;
  beforeAll(async () => {
    fx.kg = await openKg({ kind: "files", paths: [path] });
    fx.prepared = await prepareInMemory(fx.kg);
  }, 60_000);
  afterAll(async () => {
    await fx.kg?.close();
  });
  return fx;
}

/** The pool's example whose template is that of a query written the way a person writes it (untyped, constants inline). */
export function exampleLike(fx: PreparedFixture, query: string) {
  const template = queryTemplate(query, fx.prepared.profile ? { impliedTypes: impliedTypes(fx.prepared.profile) } : {});
  expect(template).toBeDefined();
  return fx.prepared.examples.find((e) => e.template === template);
}

/** A query's answer rows on the fixture, each row's values joined by ", ", sorted. */
export async function answersOf(fx: PreparedFixture, sparql: string): Promise<string[]> {
  const r = await fx.kg.query(sparql);
  if (r.kind !== "SELECT") return [];
  return r.results.bindings.map((b) => Object.values(b).map((t) => t.value).join(", ")).sort();
}
