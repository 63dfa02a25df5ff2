// `npm run text2sparql -- --dataset <IRI> "question"`: what GET /api/text2sparql answers, from the command line
// (same dataset map, strategy choice and budget; prints the JSON response).
import { config as loadEnv } from "dotenv";
import { parseArgs } from "node:util";
import { toAppError } from "@/lib/errors";
import { createSimilarity, embeddingConfigFromEnv } from "@/lib/embeddings/similarity";
import { openKg, parseKgArg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { requireLlmConfig } from "@/lib/llm/config";
import { createLlmFromConfig } from "@/lib/llm/create";
import { getStrategy } from "@/lib/pipeline/registry";
import { createEvalRunStore, evalRunsDir } from "@/lib/server/eval-runs";
import { createText2Sparql } from "@/lib/server/text2sparql";
import { budgetFromEnv, chooseStrategy, DATASETS_VAR, datasetKgKey, parseDatasets } from "@/lib/server/text2sparql-config";
import { evidenceRuns } from "@/lib/server/default-strategy";
import { formatEvent } from "./cli-format";

loadEnv({ quiet: true });

const USAGE = `Usage: npm run text2sparql -- --dataset <dataset IRI> [options] "question"
  --dataset <IRI>       a dataset of ${DATASETS_VAR} (e.g. https://text2sparql.aksw.org/2026/corporate/)
  --kg <spec>           answer on this KG instead (sample | file.ttl[,more.nt] | https://endpoint/sparql)
  --strategy <id>       instead of TEXT2SPARQL_STRATEGY / the eval runs' best
  --budget-ms <n>       instead of TEXT2SPARQL_BUDGET_MS (default 170000)
  -v, --verbose         print the derivation steps (to stderr)`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      dataset: { type: "string" },
      kg: { type: "string" },
      strategy: { type: "string" },
      "budget-ms": { type: "string" },
      verbose: { type: "boolean", short: "v", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help || !values.dataset || positionals.length === 0) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const env: Record<string, string | undefined> = { ...process.env, ...(values.strategy ? { TEXT2SPARQL_STRATEGY: values.strategy } : {}), ...(values["budget-ms"] ? { TEXT2SPARQL_BUDGET_MS: values["budget-ms"] } : {}) };
  const datasets = values.kg ? [{ iri: values.dataset, value: values.kg, spec: parseKgArg(values.kg) }] : parseDatasets(env[DATASETS_VAR]);
  const llm = createLlmFromConfig(requireLlmConfig());
  let defaultKg: Promise<KnowledgeGraph> | undefined;
  const service = createText2Sparql({
    datasets,
    defaultKg: () => (defaultKg ??= openKg(parseKgArg(env.KG_DEFAULT?.trim() || "sample"))),
    llm: () => llm,
    similarity: () => createSimilarity(embeddingConfigFromEnv()),
    getStrategy,
    chooseStrategy: (dataset) => chooseStrategy(env, () => evidenceRuns(createEvalRunStore({ dir: evalRunsDir() })), datasetKgKey(dataset, env)),
    budgetMs: budgetFromEnv(env),
  });
  try {
    const { response, outcome, strategy } = await service.answer(positionals.join(" "), values.dataset, undefined, values.verbose ? (e) => console.error(formatEvent(e)) : undefined);
    console.log(JSON.stringify(response, null, 2));
    console.error(`— ${strategy.strategy} (${strategy.reason}) · ${(outcome.ms / 1000).toFixed(1)} s${outcome.ended === "budget" ? " · budget ended: best query so far" : ""}`);
    return 0;
  } finally {
    await service.close();
    await (await defaultKg?.catch(() => undefined))?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    const err = toAppError(e);
    console.error(`error [${err.code}]: ${err.message}`);
    process.exit(err.code === "llm_not_configured" || err.code === "bad_request" || err.code === "not_found" ? 2 : 1);
  },
);
