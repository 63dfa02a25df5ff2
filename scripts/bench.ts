// `npm run bench -- --kg <file> [--only kg|pipeline|induction|explorer] [--rounds N]`: the KG bench, RAGONITE's database
// induction, the explorer's tools (with CK25's gold questions: recall and overhead too), then (for CK25) the pipeline bench.
import path from "node:path";
import { parseArgs } from "node:util";
import { openKg } from "@/lib/kg/open-kg";
import { ck25KgSpec, ck25Paths } from "@/lib/eval/ck25-scripted";
import { benchKg } from "./bench/kg";
import { benchPipeline } from "./bench/pipeline";
import { benchRagonite } from "./bench/ragonite";
import { benchExplorer } from "./bench/explorer";

const USAGE = "Usage: npm run bench -- --kg <file.ttl> [--only kg|pipeline|induction|explorer] [--rounds 20]";
const ONLY = ["kg", "pipeline", "induction", "explorer"];

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
  if (values.only !== undefined && !ONLY.includes(values.only)) {
    console.error(`--only must be one of ${ONLY.join(", ")}, got "${values.only}".\n${USAGE}`);
    return 2;
  }
  const file = path.resolve(values.kg);
  const isCk25 = path.basename(file) === path.basename(ck25Paths().graph);
  if (values.only === undefined || values.only === "kg") await benchKg({ kg: file });
  if (values.only === undefined || values.only === "induction") {
    const kg = await openKg(isCk25 ? { ...ck25KgSpec(), paths: [file] } : { kind: "files", paths: [file] });
    try {
      await benchRagonite({ kg });
    } finally {
      await kg.close();
    }
  }

  if (values.only === undefined || values.only === "explorer") {
    // the explorer runs on the default profile (as `npm run eval` does); CK25's questions give the gold measures
    const kg = await openKg({ kind: "files", paths: [file] }, { timeoutMs: 120_000 });
    try {
      await benchExplorer({ kg, ...(isCk25 ? { questions: path.join(ck25Paths().dir, "questions.yml") } : {}), rounds: values.rounds ? Math.min(5, Number(values.rounds)) : undefined });
    } finally {
      await kg.close();
    }
  }

  if (values.only === "kg" || values.only === "induction" || values.only === "explorer") return 0;
  // The pipeline bench replays scripted LLM replies written for CK25's questions; other graphs have none.
  if (!isCk25) {
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
