// `npm run bench -- --kg <file> [--only kg|pipeline] [--rounds N]`: the KG bench, then (for CK25) the pipeline bench.
import path from "node:path";
import { parseArgs } from "node:util";
import { openKg } from "@/lib/kg/open-kg";
import { ck25KgSpec, ck25Paths } from "@/lib/eval/ck25-scripted";
import { benchKg } from "./bench/kg";
import { benchPipeline } from "./bench/pipeline";

const USAGE = "Usage: npm run bench -- --kg <file.ttl> [--only kg|pipeline] [--rounds 20]";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      kg: { type: "string" },
      only: { type: "string" },
      rounds: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help || !values.kg) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.only !== undefined && values.only !== "kg" && values.only !== "pipeline") {
    console.error(`--only must be "kg" or "pipeline", got "${values.only}".\n${USAGE}`);
    return 2;
  }
  const file = path.resolve(values.kg);
  if (values.only !== "pipeline") await benchKg({ kg: file });

  if (values.only === "kg") return 0;
  // The pipeline bench replays scripted LLM replies written for CK25's questions; other graphs have none.
  if (path.basename(file) !== path.basename(ck25Paths().graph)) {
    console.log(`Pipeline bench skipped: it needs scripted LLM replies for the graph's questions (test/fixtures/ck25 has them for CK25's prod-inst.ttl only).`);
    return values.only === "pipeline" ? 2 : 0;
  }
  const kg = await openKg({ ...ck25KgSpec(), paths: [file] });
  try {
    await benchPipeline({ kg, rounds: values.rounds ? Number(values.rounds) : undefined });
  } finally {
    await kg.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`bench failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
