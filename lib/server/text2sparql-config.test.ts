// TEXT2SPARQL settings: the dataset map as operators write it, the budget, and the strategy the latest runs pick.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { budgetFromEnv, chooseStrategy, datasetKgKey, DEFAULT_BUDGET_MS, findDataset, parseDatasets } from "./text2sparql-config";
import { DOCUMENTED_DEFAULT, DOCUMENTED_REASON, type EvidenceRun } from "./default-strategy";

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

const KG = "files:/data/kg.ttl";
const run = (strategy: string, f1: number, provider = "openai"): EvidenceRun => ({ strategy, kgKey: KG, questionsKey: "qald q.json (10 questions)", startedAt: "2026-11-25T10:00:00Z", complete: true, provider, model: "gpt-x", f1 });

describe("the default strategy", () => {
  it("is the app's rule for the dataset's KG, among the strategies that write SPARQL", () => {
    const runs = [run("triad", 0.5), run("explorer", 0.7), run("llm-only", 0.95), run("ragonite", 0.99)];
    const choice = chooseStrategy({}, () => runs, KG);
    expect(choice.strategy).toBe("explorer");
    expect(choice.reason).toMatch(/explorer 70\.0 %, triad 50\.0 %/);
    expect(datasetKgKey({ value: "sample" }, { KG_DEFAULT: "/data/kg.ttl" })).toBe(KG);
  });

  it("TEXT2SPARQL_STRATEGY wins; without runs the documented default; a strategy without SPARQL is refused", () => {
    expect(chooseStrategy({ TEXT2SPARQL_STRATEGY: "triad" }, () => [run("explorer", 1), run("chatty-kg", 0.2)], KG).strategy).toBe("triad");
    expect(chooseStrategy({}, () => [], KG)).toEqual({ strategy: DOCUMENTED_DEFAULT, reason: DOCUMENTED_REASON });
    expect(() => chooseStrategy({ TEXT2SPARQL_STRATEGY: "ragonite" }, () => [], KG)).toThrow(/writes no SPARQL/);
    expect(() => chooseStrategy({ TEXT2SPARQL_STRATEGY: "magic" }, () => [], KG)).toThrow(/not a strategy/);
  });
});
