// `npm run experience -- <import|list|clear> --kg <file|URL|sample> …`: the explorer's experience pool of a KG (solved
// questions shown to its model as examples). import reads a benchmark file (any --dataset of npm run eval) and stores
// each item that has gold SPARQL; eval runs leave the asked question out (and with --exclude-test-split, the test split).
import "dotenv/config";
import { parseArgs } from "node:util";
import { AppError, toAppError } from "@/lib/errors";
import { DATASETS, isDatasetName, loadDataset } from "@/lib/eval/datasets";
import { openKg } from "@/lib/kg/open-kg";
import { experienceKgKey } from "@/lib/pipeline/common/experience";
import { poolItemsOf } from "@/lib/eval/experience-guard";
import { poolQueries } from "./experience-pool";
import { KG_PROFILE_OPTIONS, kgSpecFromArgs } from "./kg-profile-args";

const USAGE = `Usage: npm run experience -- import --kg <kg> --dataset <${DATASETS.join("|")}> --file <path> [--split train] [--limit n]
       npm run experience -- list --kg <kg>
       npm run experience -- clear --kg <kg> [--dataset <name>]
  --kg takes what npm run eval takes (the pool is keyed by the KG: use the same --kg for eval). --split marks the items
  ("train", "test", …): an eval run with --exclude-test-split leaves out everything imported as "test".`;

async function kgKeyOf(kgArg: string, values: Record<string, unknown>): Promise<string> {
  // the key is the KG's id (files: absolute paths), as the explorer sees it at run time
  const kg = await openKg(kgSpecFromArgs(kgArg, values as Parameters<typeof kgSpecFromArgs>[1]));
  try {
    return experienceKgKey(kg.info.id);
  } finally {
    await kg.close();
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      kg: { type: "string" },
      dataset: { type: "string" },
      file: { type: "string" },
      split: { type: "string" },
      limit: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
      ...KG_PROFILE_OPTIONS,
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (!values.kg) throw new AppError("bad_request", `Missing --kg.\n${USAGE}`);
  const kgKey = await kgKeyOf(values.kg, values);
  const queries = await poolQueries();
  if (command === "list") {
    const rows = await queries.listExperience({ kgKey, limit: 10_000 });
    for (const r of rows) console.log(`${r.source === "import" ? `${r.dataset}:${r.itemId}${r.split ? ` (${r.split})` : ""}` : "helpful answer"}\t${r.question}`);
    console.log(`${rows.length} solved question(s) for ${kgKey}`);
    return 0;
  }
  if (command === "clear") {
    console.log(`removed ${await queries.clearImportedExperience({ kgKey, ...(values.dataset ? { dataset: values.dataset } : {}) })} imported question(s) of ${kgKey}`);
    return 0;
  }
  if (command !== "import") throw new AppError("bad_request", `Unknown command "${command}".\n${USAGE}`);
  if (!values.dataset || !isDatasetName(values.dataset)) throw new AppError("bad_request", `--dataset must be one of ${DATASETS.join(", ")}.`);
  if (!values.file) throw new AppError("bad_request", "Missing --file.");
  const limit = values.limit ? Number(values.limit) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new AppError("bad_request", "--limit must be a positive integer.");
  const all = loadDataset(values.dataset, values.file).filter((i) => i.goldSparql);
  // every language of an item is a solved question of its own (TEXT2SPARQL questions.yml, multilingual QALD)
  const items = poolItemsOf(all.slice(0, limit ?? all.length));
  const { imported } = await queries.importExperience({ kgKey, dataset: values.dataset, ...(values.split ? { split: values.split } : {}), items });
  console.log(`imported ${imported} solved question(s) of ${values.dataset}${values.split ? ` (split ${values.split})` : ""} into the pool of ${kgKey}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    const err = toAppError(e);
    console.error(`error [${err.code}]: ${err.message}`);
    process.exit(["bad_request", "not_found"].includes(err.code) ? 2 : 1);
  },
);
