import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createEvalRunStore, evalRunsDir, safeDirName } from "./eval-runs";

const RUN_A = readFileSync("test/fixtures/eval/run-a.json", "utf8");
const RUN_B = readFileSync("test/fixtures/eval/run-b.json", "utf8");
const S1 = "sessionAAAAAAAAAAAAAAAA";
const S2 = "sessionBBBBBBBBBBBBBBBB";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "eval-runs-"));
});
const put = (run: string, name: string, text: string) => {
  mkdirSync(path.join(dir, run), { recursive: true });
  writeFileSync(path.join(dir, run, name), text);
};
const notFound = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isAppError(e, "not_found");
  }
  return false;
};

describe("evalRunsDir", () => {
  it("EVAL_RUNS_DIR, else .data/eval under the working directory", () => {
    expect(evalRunsDir({}, "/srv/app")).toBe("/srv/app/.data/eval");
    expect(evalRunsDir({ EVAL_RUNS_DIR: "test/fixtures/eval/runs" }, "/srv/app")).toBe("/srv/app/test/fixtures/eval/runs");
    expect(evalRunsDir({ EVAL_RUNS_DIR: "/data/runs" }, "/srv/app")).toBe("/data/runs");
  });
});

describe("listing", () => {
  it("lists valid runs newest first with their headline numbers; broken and unfinished ones after, with the reason", () => {
    put("run-a", "result.json", RUN_A);
    put("run-b", "result.json", RUN_B);
    put("bad-json", "result.json", "{ not json");
    put("bad-shape", "result.json", JSON.stringify({ ...JSON.parse(RUN_A), questions: [{ id: 3 }] }));
    put("running", "checkpoint.jsonl", '{"key":"single:1"}\n{"key":"single:2"}\n');
    const list = createEvalRunStore({ dir }).list(null);
    expect(list.map((e) => [e.ref, e.status])).toEqual([
      ["run-b", "ok"],
      ["run-a", "ok"],
      ["running", "pending"],
      expect.anything(),
      expect.anything(),
    ]);
    const a = list.find((e) => e.ref === "run-a")!;
    if (a.status !== "ok") throw new Error("run-a should be ok");
    expect(a).toMatchObject({ owner: "installation", dataset: "sample-demo", strategy: "Chatty-KG", llm: "fixture · fixture-a", questions: 11, fixture: true });
    expect(a.modes[0].f1All).toBeCloseTo(0.714, 3);
    expect(a.modes[0].f1Answered).toBeCloseTo(0.873, 3);
    const badJson = list.find((e) => e.ref === "bad-json")!;
    expect(badJson.status).toBe("broken");
    if (badJson.status !== "ok") expect(badJson.reason).toMatch(/^Not valid JSON/);
    const badShape = list.find((e) => e.ref === "bad-shape")!;
    if (badShape.status !== "ok") expect(badShape.reason).toMatch(/questions\.0\./);
    const running = list.find((e) => e.ref === "running")!;
    if (running.status !== "ok") expect(running.reason).toContain("2 questions checkpointed");
  });

  it("no runs dir yet: an empty list, not an error", () => {
    expect(createEvalRunStore({ dir: path.join(dir, "missing") }).list(S1)).toEqual([]);
  });

  it("a file edited on disk is re-read", () => {
    put("r", "result.json", RUN_A);
    const store = createEvalRunStore({ dir });
    expect(store.list(null)[0].status).toBe("ok");
    put("r", "result.json", RUN_A.replace(`"version": 1`, `"version": 2`) + "\n");
    const e = store.list(null)[0];
    expect(e.status).toBe("broken");
    if (e.status !== "ok") expect(e.reason).toContain("Unsupported result version 2");
  });
});

describe("imported runs belong to their session", () => {
  it("an import is stored under imported/<session>/ and listed for that session only", () => {
    const store = createEvalRunStore({ dir });
    const entry = store.importRun(S1, RUN_B);
    expect(entry).toMatchObject({ status: "ok", owner: "session" });
    expect(entry.ref).toMatch(/^imported~fixture-b-sample-demo-chatty-kg$/);
    expect(readdirSync(path.join(dir, "imported", S1))).toHaveLength(1);
    expect(store.list(S1).map((e) => e.ref)).toEqual([entry.ref]);
    expect(store.list(S2)).toEqual([]);
    expect(store.list(null)).toEqual([]);
    expect(store.load(S1, entry.ref).result?.runId).toBe("fixture-b-sample-demo-chatty-kg");
    // another session, or no session, gets not_found for it
    expect(notFound(() => store.load(S2, entry.ref))).toBe(true);
    expect(notFound(() => store.load(null, entry.ref))).toBe(true);
  });

  it("importing the same run twice keeps both", () => {
    const store = createEvalRunStore({ dir });
    const one = store.importRun(S1, RUN_A);
    const two = store.importRun(S1, RUN_A);
    expect(two.ref).toBe(`${one.ref}-2`);
  });

  it("an invalid file is refused with the reason and nothing is written", () => {
    const store = createEvalRunStore({ dir });
    expect(() => store.importRun(S1, '{"version":1}')).toThrow(/Not a valid result file/);
    expect(() => store.importRun(S1, "nope")).toThrow(/Not valid JSON/);
    expect(store.list(S1)).toEqual([]);
  });

  it("CLI runs are visible to every session; the imported folder itself is never a run", () => {
    cpSync("test/fixtures/eval/run-a.json", path.join(dir, "cli-run", "result.json"), { recursive: true });
    const store = createEvalRunStore({ dir });
    store.importRun(S1, RUN_B);
    expect(store.list(S2).map((e) => e.ref)).toEqual(["cli-run"]);
    expect(store.load(S2, "cli-run").entry.owner).toBe("installation");
    expect(notFound(() => store.load(S2, "imported"))).toBe(true);
  });
});

describe("refs never escape the runs dir", () => {
  it("path-like refs are unknown runs", () => {
    put("run-a", "result.json", RUN_A);
    const store = createEvalRunStore({ dir });
    store.importRun(S1, RUN_A);
    for (const ref of ["..", "../run-a", "run-a/../run-a", `imported~../../run-a`, `imported/${S1}`, "/etc", ""]) {
      expect(notFound(() => store.load(S1, ref))).toBe(true);
    }
  });

  it("a session id that is not a valid id is refused", () => {
    expect(() => createEvalRunStore({ dir }).importRun("../../x", RUN_A)).toThrow(/Invalid session/);
  });

  it("folder names from run ids keep only safe characters", () => {
    expect(safeDirName("../../etc/passwd")).toBe("etc-passwd");
    expect(safeDirName("2025-06-02T09:14:05Z ck25")).toBe("2025-06-02T09-14-05Z-ck25");
    expect(safeDirName("...")).toBe("run");
  });
});
