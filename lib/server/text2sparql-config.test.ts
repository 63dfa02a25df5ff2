// TEXT2SPARQL settings: the dataset map as operators write it, the budget, and the strategy the latest runs pick.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { bestStrategyFromRuns, budgetFromEnv, chooseStrategy, DEFAULT_BUDGET_MS, findDataset, parseDatasets, type RunForChoice } from "./text2sparql-config";

const CORP = "https://text2sparql.aksw.org/2026/corporate/";
const DBP = "https://text2sparql.aksw.org/2026/dbpedia/";

describe("TEXT2SPARQL_DATASETS", () => {
  it("maps each dataset IRI to the sample, a list of files or an endpoint (an endpoint URL may hold '=')", () => {
    const d = parseDatasets(`${CORP}=data/a.ttl,data/b.nt, ${DBP}=https://example.org/sparql?default-graph-uri=x,https://example.org/2025/=sample`);
    expect(d.map((x) => [x.iri, x.spec])).toEqual([
      [CORP, { kind: "files", paths: ["data/a.ttl", "data/b.nt"] }],
      [DBP, { kind: "endpoint", url: "https://example.org/sparql?default-graph-uri=x" }],
      ["https://example.org/2025/", { kind: "sample" }],
    ]);
    expect(parseDatasets(undefined)).toEqual([]);
  });

  it("a bad entry is refused naming the variable and the entry", () => {
    for (const bad of ["corporate=data/a.ttl", `${CORP}=`, `${CORP}=ftp://x/y`, `${CORP}=sample,${CORP}=sample`]) {
      let err: unknown;
      try {
        parseDatasets(bad);
      } catch (e) {
        err = e;
      }
      expect(isAppError(err, "bad_request"), bad).toBe(true);
      expect((err as Error).message).toContain("TEXT2SPARQL_DATASETS");
    }
  });

  it("finds a dataset with or without its trailing slash, and nothing else", () => {
    const d = parseDatasets(`${CORP}=sample`);
    expect(findDataset(d, CORP)?.iri).toBe(CORP);
    expect(findDataset(d, CORP.slice(0, -1))?.iri).toBe(CORP);
    expect(findDataset(d, DBP)).toBeNull();
  });
});

describe("budget", () => {
  it("defaults to 170 s and refuses nonsense", () => {
    expect(budgetFromEnv({})).toBe(DEFAULT_BUDGET_MS);
    expect(DEFAULT_BUDGET_MS).toBe(170_000);
    expect(budgetFromEnv({ TEXT2SPARQL_BUDGET_MS: "5000" })).toBe(5000);
    expect(() => budgetFromEnv({ TEXT2SPARQL_BUDGET_MS: "soon" })).toThrow(/TEXT2SPARQL_BUDGET_MS/);
  });
});

const run = (strategyId: string, dataset: string, startedAt: string, f1All: number, complete = true): RunForChoice => ({ strategyId, dataset, startedAt, f1All, complete });

describe("the default strategy", () => {
  it("is the best SPARQL-writing strategy among the latest runs on the newest run's dataset", () => {
    const runs = [
      run("triad", "ck25", "2026-11-20T10:00:00Z", 0.9), // older run of triad on ck25: superseded by the newer one
      run("triad", "ck25", "2026-11-25T10:00:00Z", 0.5),
      run("explorer", "ck25", "2026-11-24T10:00:00Z", 0.7),
      run("llm-only", "ck25", "2026-11-24T11:00:00Z", 0.95), // no SPARQL: never chosen
      run("chatty-kg", "qald", "2026-11-01T10:00:00Z", 0.99), // another dataset, older
      run("one-shot-sparql", "ck25", "2026-11-26T10:00:00Z", 0.99, false), // incomplete
    ];
    expect(bestStrategyFromRuns(runs)?.strategy).toBe("explorer");
    expect(bestStrategyFromRuns(runs)?.reason).toMatch(/70\.0 %.*ck25/);
    expect(bestStrategyFromRuns([])).toBeNull();
  });

  it("TEXT2SPARQL_STRATEGY wins; without runs the fixed default; a strategy without SPARQL is refused", () => {
    expect(chooseStrategy({ TEXT2SPARQL_STRATEGY: "triad" }, () => [run("explorer", "x", "2026-01-01", 1)]).strategy).toBe("triad");
    expect(chooseStrategy({}, () => []).strategy).toBe("chatty-kg");
    expect(() => chooseStrategy({ TEXT2SPARQL_STRATEGY: "ragonite" }, () => [])).toThrow(/writes no SPARQL/);
    expect(() => chooseStrategy({ TEXT2SPARQL_STRATEGY: "magic" }, () => [])).toThrow(/not a strategy/);
  });
});
