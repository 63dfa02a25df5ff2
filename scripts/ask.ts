// `npm run ask -- --kg <file|URL|sample> "question"`: one question (or an interactive dialogue) through a strategy.
import "dotenv/config";
import readline from "node:readline/promises";
import { parseArgs } from "node:util";
import { toAppError } from "@/lib/errors";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { requireLlmConfig } from "@/lib/llm/config";
import { createLlmFromConfig } from "@/lib/llm/create";
import { createSimilarity, embeddingConfigFromEnv } from "@/lib/embeddings/similarity";
import { describeAnswer, itemText, rowText } from "@/lib/pipeline/answer-format";
import { getStrategy } from "@/lib/pipeline/registry";
import { pipelineConfigSchema, type Answer, type DialogueTurn, type TurnResult } from "@/lib/pipeline/types";
import { formatEvent } from "./cli-format";
import { describeProfile, KG_PROFILE_OPTIONS, KG_PROFILE_USAGE, kgSpecFromArgs } from "./kg-profile-args";

const USAGE = `Usage: npm run ask -- --kg <sample | file.ttl[,more.nt] | https://endpoint/sparql> [options] ["question"]
  -i, --interactive     multi-turn dialogue on stdin (empty line or Ctrl-D ends)
  -v, --verbose         print every derivation step
      --strategy <id>   default chatty-kg
      --single-turn     treat each question on its own
      --natural         also print a natural-language answer
      --theta <n> --answer-limit <n> --vlimit <n> --query-num <n>
${KG_PROFILE_USAGE.replace(/^ {2}/gm, "      ")}`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      kg: { type: "string", default: process.env.KG_DEFAULT ?? "sample" },
      interactive: { type: "boolean", short: "i", default: false },
      verbose: { type: "boolean", short: "v", default: false },
      strategy: { type: "string", default: "chatty-kg" },
      "single-turn": { type: "boolean", default: false },
      natural: { type: "boolean", default: false },
      theta: { type: "string" },
      "answer-limit": { type: "string" },
      vlimit: { type: "string" },
      "query-num": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
      ...KG_PROFILE_OPTIONS,
    },
  });
  if (values.help || (!values.interactive && positionals.length === 0)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const config = pipelineConfigSchema.parse({
    strategy: values.strategy,
    mode: values["single-turn"] ? "single" : "multi",
    naturalAnswer: values.natural,
    theta: num(values.theta),
    answerLimit: num(values["answer-limit"]),
    vlimit: num(values.vlimit),
    queryNum: num(values["query-num"]),
  });
  const strategy = getStrategy(config.strategy);
  const kgSpec = kgSpecFromArgs(values.kg, values);

  // Fail on configuration before touching the KG: the message says exactly what to set.
  const llm = createLlmFromConfig(requireLlmConfig());
  const kg = await openKg(kgSpec);
  try {
    await probe(kg);
    if (values.verbose) console.log(describeProfile(kg.profile));
    const similarity = await createSimilarity(embeddingConfigFromEnv());
    if (similarity.warning) console.error(`note: ${similarity.warning}`);
    const dialogue: DialogueTurn[] = [];
    const ask = async (question: string): Promise<TurnResult> => {
      const gen = strategy.run({ question, dialogue: [...dialogue], config }, { kg, llm, similarity });
      let next = await gen.next();
      while (!next.done) {
        if (values.verbose) console.log(formatEvent(next.value));
        next = await gen.next();
      }
      const result = next.value;
      dialogue.push({ question, answer: result.answer });
      printResult(result);
      return result;
    };

    if (!values.interactive) {
      const result = await ask(positionals.join(" "));
      return result.source === "failed" ? 1 : 0;
    }
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    try {
      while (true) {
        const line = (await rl.question("you> ").catch(() => "")).trim();
        if (!line) break;
        await ask(line);
      }
    } finally {
      rl.close();
    }
    return 0;
  } finally {
    await kg.close();
  }
}

/** A cheap ASK so "endpoint down" or "file not RDF" fails before any LLM call is paid for. */
async function probe(kg: KnowledgeGraph): Promise<void> {
  await kg.ask("ASK { ?s ?p ?o }", { timeoutMs: 15_000 });
}

const TABLE_ROWS_SHOWN = 20;

/** A table answer: the header, then one line per row (entities as "label <iri>"), the first rows only. */
function printTable(t: Extract<Answer, { kind: "table" }>): void {
  console.log(`answer: ${t.rows.length} row${t.rows.length === 1 ? "" : "s"} × ${t.columns.length} columns`);
  console.log(`  ${t.columns.join(" | ")}`);
  for (const row of t.rows.slice(0, TABLE_ROWS_SHOWN)) console.log(`  ${rowText(row, (i) => (i.type === "uri" ? `${i.label ?? ""} <${i.value}>`.trim() : itemText(i)))}`);
  if (t.rows.length > TABLE_ROWS_SHOWN) console.log(`  … ${t.rows.length - TABLE_ROWS_SHOWN} more rows`);
}

function printResult(r: TurnResult): void {
  if (r.source === "failed") {
    console.log(`✗ failed${r.error?.stage ? ` at ${r.error.stage}` : ""}: ${r.error?.message ?? "unknown error"}`);
  } else {
    if (r.answer.kind === "table") printTable(r.answer);
    else console.log(`answer: ${describeAnswer(r.answer, 20)}`);
    if (r.answer.kind === "items") for (const item of r.answer.items.slice(0, 20)) if (item.type === "uri") console.log(`  - ${item.label ?? ""} <${item.value}>`);
    if (r.naturalAnswer) console.log(`\n${r.naturalAnswer}`);
  }
  if (r.standaloneQuestion) console.log(`understood as: ${r.standaloneQuestion}`);
  for (const q of r.sparql) console.log(`\nSPARQL:\n${q}`);
  for (const q of r.sql ?? []) console.log(`\nSQL (over the database induced from the KG):\n${q}`);
  const citations = "citations" in r.answer ? (r.answer.citations ?? []) : [];
  if (citations.length) console.log(`\ncitations:`);
  for (const c of citations.slice(0, 20)) console.log(`  [${c.id}] ${c.text.replace(/\s+/g, " ").slice(0, 160)}${c.iris.length ? ` <${c.iris.slice(0, 3).join("> <")}>` : ""}`);
  const s = r.stats;
  console.log(`\n— ${(s.ms / 1000).toFixed(2)} s · ${s.llmCalls} LLM call${s.llmCalls === 1 ? "" : "s"} (${s.tokensIn}/${s.tokensOut} tokens) · ${s.queries} SPARQL quer${s.queries === 1 ? "y" : "ies"}`);
}

main().then(
  (code) => process.exit(code),
  (e) => {
    const err = toAppError(e);
    const where = err.where?.line ? ` (${err.where.source ?? ""} line ${err.where.line})` : "";
    console.error(`error [${err.code}]: ${err.message}${where}`);
    process.exit(err.code === "llm_not_configured" || err.code === "bad_request" ? 2 : 1);
  },
);
