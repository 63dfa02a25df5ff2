// `npm run workbench-bench -- --kg <sample | files | endpoint URL>` or `-- --virtuoso-generate <N triples>`: how long the
// SPARQL workbench's server side takes on a KG, cold (first request) and warm (cached): the vocabulary, a class's
// predicates, hover facts, the diagnostics of a good and of a misspelt query, formatting. Prints one line per step.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { openKg, parseKgArg } from "@/lib/kg/open-kg";
import { startVirtuoso } from "@/lib/kg/testing/virtuoso";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { checkQuery } from "@/lib/server/sparql-assist/check";
import { formatQuery } from "@/lib/server/sparql-assist/format";
import { hoverFacts } from "@/lib/server/sparql-assist/hover";
import { getClassPredicates, getVocabulary, knownPrefixes } from "@/lib/server/sparql-assist/vocabulary";
import { generatedParts } from "./gen-triples";

const USAGE = `Usage: npm run workbench-bench -- --kg <sample | file.ttl[,…] | http(s)://endpoint>
       npm run workbench-bench -- --virtuoso-generate <N triples>   (a throwaway Virtuoso with a generated KG; needs Virtuoso)
  --kg                  the KG to time (as for npm run ask)
  --virtuoso-generate   load N generated triples (scripts/gen-triples.ts) into a throwaway Virtuoso and time that`;

async function timed<T>(label: string, work: () => Promise<T>, describe: (v: T) => string): Promise<T> {
  const t0 = performance.now();
  const v = await work();
  console.log(`${label.padEnd(34)} ${`${(performance.now() - t0).toFixed(0)} ms`.padStart(9)}  ${describe(v)}`);
  return v;
}

export async function benchWorkbench(kg: KnowledgeGraph): Promise<void> {
  const vocabulary = await timed("vocabulary (cold)", () => getVocabulary(kg), (v) => `${v.classes.length} classes, ${v.predicates.length} predicates, ${Object.keys(v.prefixes).length} prefixes, sampled: ${v.sampled}`);
  await timed("vocabulary (cached)", () => getVocabulary(kg), () => "");
  const cls = vocabulary.classes[0]?.iri;
  const predicates = cls ? await timed("a class's predicates (cold)", () => getClassPredicates(kg, cls), (r) => `${r.predicates.length} predicates over ${r.instances} instances of <${cls}>`) : undefined;
  if (cls) await timed("a class's predicates (cached)", () => getClassPredicates(kg, cls), () => "");
  const subject = (await kg.select(cls ? `SELECT ?s WHERE { ?s a <${cls}> } LIMIT 1` : "SELECT ?s WHERE { ?s ?p ?o FILTER(isIRI(?s)) } LIMIT 1")).results.bindings[0]?.s?.value;
  if (subject) await timed("hover on an entity (cold)", () => hoverFacts(kg, subject), (h) => `${h.names[0]}: ${h.counts.subject.n}${h.counts.subject.capped ? "+" : ""} as subject`);
  if (cls) await timed("hover on its class (cold)", () => hoverFacts(kg, cls), (h) => `${h.counts.instances.n}${h.counts.instances.capped ? "+" : ""} instances`);
  const p = predicates?.predicates[0]?.iri ?? vocabulary.predicates[0]?.iri;
  if (!p) return;
  const good = `SELECT ?s ?o WHERE { ?s ${cls ? `a <${cls}> ; ` : ""}<${p}> ?o } LIMIT 10`;
  const misspelt = good.replace(`<${p}>`, `<${p}x>`);
  await timed("check a good query (cold)", () => checkQuery(kg, good, { allowService: false }), (r) => `${r.diagnostics.length} problems, complete: ${r.complete}`);
  await timed("check a good query (cached)", () => checkQuery(kg, good, { allowService: false }), (r) => `${r.diagnostics.length} problems`);
  await timed("check a misspelt predicate", () => checkQuery(kg, misspelt, { allowService: false }), (r) => r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message.slice(0, 80)}`).join(" | "));
  await timed("check a syntax error", () => checkQuery(kg, "SELECT ?s WHERE { ?s ?p }", { allowService: false }), (r) => r.diagnostics[0]?.message.slice(0, 80) ?? "");
  const prefixes = await knownPrefixes(kg);
  await timed("format", async () => formatQuery(good, prefixes), (f) => `${f.query.split("\n").length} lines`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { kg: { type: "string" }, "virtuoso-generate": { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.kg) {
    const kg = await openKg(parseKgArg(values.kg));
    try {
      console.log(`${kg.info.name} (${kg.info.kind}${kg.info.triples ? `, ${kg.info.triples.toLocaleString("en")} triples` : ""})`);
      await benchWorkbench(kg);
    } finally {
      await kg.close();
    }
    return 0;
  }
  const n = Number(values["virtuoso-generate"]);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(USAGE);
    return 2;
  }
  const parts = await generatedParts(n);
  const server = await startVirtuoso({ buffers: n >= 5_000_000 ? 170_000 : 20_000, maxLifetimeS: 3600, log: () => {} });
  try {
    const graph = `urn:chatty-kg:gen-${n}`;
    await server.load(parts.map((p) => ({ path: p, graph })), { loaders: 2, timeoutMs: 3600_000 });
    const kg = await openKg({ kind: "endpoint", url: server.endpoint(graph) });
    try {
      console.log(`generated KG on Virtuoso, ${n.toLocaleString("en")} triples (${server.endpoint(graph)})`);
      await benchWorkbench(kg);
    } finally {
      await kg.close();
    }
  } finally {
    await server.stop();
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    },
  );
}
