// `npm run onboard -- --kg <files|folder|endpoint URL>`: prepares a KG (profile, generated solved examples, notes) and
// stores the result in the app database under the KG's pool key, as the app does when a KG is added. Progress on
// stderr, a summary on stdout. Questions come from the model configured in the environment (ONBOARDING_VERBALIZER=auto,
// the default) or from the templates (ONBOARDING_VERBALIZER=template, or no model configured).
import "dotenv/config";
import { parseArgs } from "node:util";
import path from "node:path";
import { toAppError } from "@/lib/errors";
import { openKg } from "@/lib/kg/open-kg";
import { endpointHash, hashFiles } from "@/lib/kg/onboarding/content-hash";
import { createOnboardingService } from "@/lib/kg/onboarding/runner";
import { pickSuggestions } from "@/lib/kg/onboarding/suggestions";
import { expandRdfPaths } from "@/lib/kg/open-kg";
import { llmConfigFromEnv } from "@/lib/llm/config";
import { createLlmFromConfig } from "@/lib/llm/create";
import { experienceKgKey } from "@/lib/pipeline/common/experience";
import { KG_PROFILE_OPTIONS, KG_PROFILE_USAGE, kgSpecFromArgs } from "./kg-profile-args";
import { ensureMigrated } from "./db/migrate";

const USAGE = `Usage: npm run onboard -- --kg <file[,file…]|folder|http(s)://endpoint> [--force] [--max-examples N] [--time-s N] [--questions N]
  Prepares the KG as the app does when it is added and stores the result in the database (DATABASE_URL).
  --force            run again even when a finished job for the same content exists
  --max-examples N   examples kept (default 300)      --time-s N   job time bound in seconds (default 600)
  --questions N      print the start page's chips and N generated questions spread evenly over the pool (to read them)
${KG_PROFILE_USAGE}`;

async function main(): Promise<number> {
  const { values } = parseArgs({
      options: { ...KG_PROFILE_OPTIONS, kg: { type: "string" }, force: { type: "boolean", default: false }, "max-examples": { type: "string" }, "time-s": { type: "string" }, questions: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help || !values.kg) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const spec = kgSpecFromArgs(values.kg, values);
  const entailment = spec.kind === "files" ? spec.entailment : undefined;
  const kg = await openKg(spec);
  const kgKey = experienceKgKey(kg.info.id);
  await ensureMigrated(); // a fresh checkout: the tables are created before the first read
  const { getQueries } = await import("@/lib/db/queries");
  const store = getQueries().onboarding;
  const mode = process.env.ONBOARDING_VERBALIZER ?? "auto";
  const llmConfig = mode === "template" ? undefined : llmConfigFromEnv(process.env);
  if (mode === "llm" && !llmConfig) throw new Error("ONBOARDING_VERBALIZER=llm but no model is configured.");
  const service = createOnboardingService({
    store,
    open: async () => kg,
    contentHash: async () =>
      spec.kind === "endpoint" ? endpointHash(spec.url) : hashFiles(spec.kind === "files" ? expandRdfPaths(spec.paths.map((p) => ({ path: path.resolve(p) }))).map((s) => s.path) : [], entailment),
    ...(llmConfig ? { llm: () => createLlmFromConfig(llmConfig) } : {}),
    limits: {
      ...(values["max-examples"] ? { maxExamples: Number(values["max-examples"]) } : {}),
      ...(values["time-s"] ? { jobTimeMs: Number(values["time-s"]) * 1000 } : {}),
    },
  });
  let last = "";
  service.subscribe(kgKey, (e) => {
    if (e.type === "progress") {
      const line = `${e.phase}: ${e.done}/${e.total} ${e.message ?? ""}`;
      if (line !== last) process.stderr.write(`\r${line.slice(0, 110).padEnd(110)}`);
      last = line;
    } else if (e.type === "skipped") process.stderr.write(`\nskipped: ${e.message}\n`);
    else if (e.type === "job") process.stderr.write(`\n${e.job.phase}…\n`);
  });
  const started = performance.now();
  const heap0 = process.memoryUsage().heapUsed;
  const onSignal = () => void service.cancel(kgKey);
  process.once("SIGINT", onSignal);
  await service.start(kgKey, { trigger: "cli", force: values.force });
  await service.running(kgKey);
  const job = await service.status(kgKey);
  process.stderr.write("\n");
  await kg.close();
  if (!job) return 1;
  const { items } = await service.listExamples(kgKey, { limit: 500 });
  const byShape = new Map<string, number>();
  for (const e of items) byShape.set(e.shape, (byShape.get(e.shape) ?? 0) + 1);
  console.log(`KG ${kg.info.name} (key ${kgKey}): ${job.status}${job.error ? ` — ${job.error.message}` : ""}`);
  console.log(`time ${((performance.now() - started) / 1000).toFixed(1)} s · queries ${job.queries} · candidates run ${job.candidates} · examples ${job.examples} · heap +${Math.round((process.memoryUsage().heapUsed - heap0) / 2 ** 20)} MB`);
  console.log(`by shape: ${[...byShape.entries()].map(([s, n]) => `${s} ${n}`).join(", ")}`);
  for (const s of job.skipped) console.log(`skipped: ${s}`);
  const notes = await service.getNotes(kgKey);
  if (notes) console.log(`notes:\n${notes.text}`);
  const show = Number(values.questions ?? 0);
  if (show > 0 && items.length) {
    console.log(`chips:\n${pickSuggestions(items).map((s) => `  ${s.question}`).join("\n")}`);
    const step = Math.max(1, items.length / show);
    const sample = Array.from({ length: Math.min(show, items.length) }, (_, i) => items[Math.floor(i * step)]);
    console.log(`questions (${sample.length} of ${items.length}):\n${sample.map((e) => `  [${e.shape}] ${e.question}`).join("\n")}`);
  }
  return job.status === "done" ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(toAppError(e).message);
    process.exit(1);
  },
);
