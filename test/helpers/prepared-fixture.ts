// A fixture KG opened and prepared for onboarding once per test file (the setup the onboarding tests share), closed
// after the file's tests. The fields are set in beforeAll: read them inside tests, not at the top of the file.
import { afterAll, beforeAll } from "vitest";
import { prepareInMemory, type PreparedKg } from "@/lib/kg/onboarding/prepare";
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
