// `npm run virtuoso -- [--load file.ttl[=graphIRI]]… [--generate N]`: a throwaway Virtuoso on loopback, loaded and indexed.
// It prints one endpoint URL per graph and runs until Ctrl-C or --max-lifetime-s; its temp folder is deleted at the end.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startVirtuoso } from "@/lib/kg/testing/virtuoso";
import { generatedDir, generatedParts } from "./gen-triples";

const USAGE = `Usage: npm run virtuoso -- [--load <file>[=<graph IRI>]]… [--generate <N triples>] [--no-index]
       [--max-lifetime-s 3600] [--buffers 10000] [--keep]
  --load        an RDF file (Turtle, N-Triples, RDF/XML, N-Quads, TriG; .gz too) into its own named graph
                (default graph IRI: urn:chatty-kg:<file name without extension>); repeat for more files
  --generate    also load a synthetic KG of N triples (scripts/gen-triples.ts; files of 1M triples cached in
                ${generatedDir()}, or CHATTY_GEN_DIR)
  --no-index    skip the free-text index (bif:contains, the "virtuoso" label-search adapter, needs it)
  --buffers     Virtuoso's NumberOfBuffers (8 KB pages; default 10000, 170000 with --generate of 5M triples or more)`;

/** The graph a file goes into: the IRI after "=", or urn:chatty-kg:<name>. */
export function graphFor(arg: string): { path: string; graph: string } {
  const at = arg.lastIndexOf("=");
  if (at > 0 && /^[a-z][a-z0-9+.-]*:/i.test(arg.slice(at + 1))) return { path: arg.slice(0, at), graph: arg.slice(at + 1) };
  const name = path.basename(arg).replace(/(\.gz)?$/, "").replace(/\.[^.]+$/, "");
  return { path: arg, graph: `urn:chatty-kg:${name.replace(/[^A-Za-z0-9_.-]/g, "_")}` };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      load: { type: "string", multiple: true, default: [] },
      generate: { type: "string" },
      "no-index": { type: "boolean", default: false },
      "max-lifetime-s": { type: "string", default: "3600" },
      buffers: { type: "string" },
      keep: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const files = values.load.map(graphFor);
  let generated = 0;
  if (values.generate) {
    generated = Number(values.generate);
    if (!Number.isInteger(generated) || generated < 1) throw new Error(`--generate needs a number of triples, got "${values.generate}"`);
    for (const part of await generatedParts(generated)) files.push({ path: part, graph: `urn:chatty-kg:gen-${generated}` });
  }
  // ~1.4 GB of page cache for 10M triples; the packaged 80 MB thrashes on a large load
  const buffers = values.buffers ? Number(values.buffers) : generated >= 5_000_000 ? 170_000 : undefined;
  const server = await startVirtuoso({
    maxLifetimeS: Number(values["max-lifetime-s"]),
    ...(buffers ? { buffers } : {}),
    keepDir: values.keep,
    log: (l) => console.log(l),
  });
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    if (files.length) {
      const t0 = performance.now();
      const loaded = await server.load(files, { loaders: 2, timeoutMs: 3 * 3600_000 });
      console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${loaded.map((g) => `${g.graph} ${g.triples} triples`).join(", ")}`);
    }
    if (!values["no-index"]) {
      const t0 = performance.now();
      await server.buildTextIndex(3 * 3600_000);
      console.log(`free-text index built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  } catch (e) {
    await server.stop();
    throw e;
  }
  console.log(`\nSPARQL endpoint (all graphs): ${server.sparqlUrl}`);
  for (const g of [...new Set(files.map((f) => f.graph))]) console.log(`  ${g}: ${server.endpoint(g)}`);
  console.log(`\nAsk it:   npm run ask -- --kg '<endpoint>' --label-search virtuoso "your question"`);
  console.log(`Bench it: npm run bench -- --kg '<endpoint>' --label-search virtuoso`);
  console.log(`In the app: KG_DEFAULT='<endpoint>' KG_DEFAULT_PROFILE=virtuoso, or add it as an endpoint with KG_ALLOW_PRIVATE_ENDPOINTS=true`);
  console.log(`Ctrl-C stops it (it also stops by itself after ${values["max-lifetime-s"]} s).`);
  await new Promise(() => {});
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((e) => {
    console.error(`virtuoso: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
