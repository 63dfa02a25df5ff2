// Label-less KGs for the onboarding e2e test: a generated one of any size in the shape of test/fixtures/e2e/apiaries.ttl
// (apiaries, beekeepers and hives named only by snake_case IRIs, numbers, dates, a little RDFS schema), and a SPARQL
// endpoint that passes the add-endpoint probe and then refuses every query.
import http from "node:http";
import type { AddressInfo } from "node:net";

const AP = "http://example.org/apiaries/";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const A = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
const SUB = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>";
const WORDS = ["north", "willow", "stone", "amber", "clover", "heath", "river", "oak", "fern", "meadow", "ridge", "brook"];

/** N-Triples of `triples` triples (deterministic): 1 apiary and 2 beekeepers per 20 hives, 6 triples per hive. */
export function apiaryTriples(triples: number): string {
  const out: string[] = [`<${AP}TopBarHive> ${SUB} <${AP}Hive> .`, `<${AP}LangstrothHive> ${SUB} <${AP}Hive> .`];
  // 6 triples per hive, plus 2 per apiary (one per 20 hives) and 2 per beekeeper (two per apiary): 6.3 per hive
  const hives = Math.max(1, Math.ceil(triples / 6.3));
  const apiaries = Math.max(1, Math.ceil(hives / 20));
  const keepers = apiaries * 2;
  const word = (i: number) => `${WORDS[i % WORDS.length]}_${WORDS[Math.floor(i / WORDS.length) % WORDS.length]}_${i}`;
  for (let a = 0; a < apiaries; a++) {
    const s = `<${AP}${word(a)}_apiary>`;
    out.push(`${s} ${A} <${AP}Apiary> .`, `${s} <${AP}founded_year> "${1950 + (a % 70)}"^^<${XSD}integer> .`);
  }
  for (let k = 0; k < keepers; k++) {
    const s = `<${AP}keeper_${word(k)}>`;
    out.push(`${s} ${A} <${AP}Beekeeper> .`, `${s} <${AP}years_experience> "${1 + (k % 40)}"^^<${XSD}integer> .`);
  }
  for (let h = 0; h < hives && out.length < triples; h++) {
    const s = `<${AP}hive_${h}>`;
    const month = String(1 + (h % 12)).padStart(2, "0");
    out.push(
      `${s} ${A} <${AP}${h % 3 === 0 ? "TopBarHive" : "LangstrothHive"}> .`,
      `${s} <${AP}located_in> <${AP}${word(h % apiaries)}_apiary> .`,
      `${s} <${AP}kept_by> <${AP}keeper_${word(h % keepers)}> .`,
      `${s} <${AP}honey_yield_kg> "${((h * 37) % 400) / 10}"^^<${XSD}decimal> .`,
      `${s} <${AP}installed_on> "${2000 + (h % 24)}-${month}-1${h % 10}"^^<${XSD}date> .`,
      `${s} <${AP}queen_breed> "${["carniolan", "buckfast", "italian"][h % 3]}" .`,
    );
  }
  return `${out.slice(0, triples).join("\n")}\n`;
}

/**
 * A SPARQL endpoint on 127.0.0.1 that answers the probe `ASK { ?s ?p ?o }` and then either refuses every other query
 * with a 403 ("refuse") or never answers it ("hang": the app's query timeout has to end it).
 */
export async function startRefusingEndpoint(mode: "refuse" | "hang" = "refuse"): Promise<{ url: string; queries: string[]; close: () => Promise<void> }> {
  const queries: string[] = [];
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? "/", "http://x");
    const query = url.searchParams.get("query") ?? new URLSearchParams(body).get("query") ?? body;
    queries.push(query);
    if (/\bASK\s*\{\s*\?s\s+\?p\s+\?o\s*\}\s*$/i.test(query)) {
      res.writeHead(200, { "content-type": "application/sparql-results+json" });
      res.end(JSON.stringify({ head: {}, boolean: true }));
      return;
    }
    if (mode === "hang") return; // the response never comes
    res.writeHead(403, { "content-type": "text/plain" });
    res.end("Queries are refused on this endpoint.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}/sparql`, queries, close };
}
