// Writes a deterministic synthetic RDF file (N-Triples, or Turtle for .ttl) of N triples with labels, for load benchmarks.
import { createWriteStream } from "node:fs";
import { pathToFileURL } from "node:url";

const EX = "http://example.org/gen/";
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label";
const RDFS_COMMENT = "http://www.w3.org/2000/01/rdf-schema#comment";
const XSD_INT = "http://www.w3.org/2001/XMLSchema#integer";

const SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "tor", "sel", "bri", "an", "dus", "phe", "qui", "zor", "ny", "gal", "het"];
const CLASSES = ["Person", "City", "Book", "Company", "River", "Film", "Song", "Planet"];

/** Deterministic PRNG (mulberry32) so the same N always gives the same file. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function word(r: () => number): string {
  const n = 2 + Math.floor(r() * 3);
  let w = "";
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
  return w[0].toUpperCase() + w.slice(1);
}

/** Yields lines of N-Triples, 6 triples per entity (type, 2 labels, comment, link, number), truncated at n. */
export function* generateTriples(n: number, seed = 42): Generator<string> {
  const r = rng(seed);
  const entities = Math.ceil(n / 6);
  let written = 0;
  for (let i = 0; i < entities && written < n; i++) {
    const s = `<${EX}e${i}>`;
    const cls = CLASSES[i % CLASSES.length];
    const name = `${word(r)} ${word(r)}`;
    const lines = [
      `${s} <${RDF_TYPE}> <${EX}${cls}> .`,
      `${s} <${RDFS_LABEL}> "${name}"@en .`,
      `${s} <${RDFS_LABEL}> "${name} (${cls.toLowerCase()})" .`,
      `${s} <${RDFS_COMMENT}> "A ${cls.toLowerCase()} called ${name}, number ${i}."@en .`,
      `${s} <${EX}relatedTo> <${EX}e${Math.floor(r() * entities)}> .`,
      `${s} <${EX}rank> "${Math.floor(r() * 100000)}"^^<${XSD_INT}> .`,
    ];
    for (const l of lines) {
      if (written++ >= n) break;
      yield l;
    }
  }
}

export async function writeTriples(path: string, n: number): Promise<void> {
  const out = createWriteStream(path);
  // N-Triples is valid Turtle, so a .ttl path gets the same lines.
  let buf: string[] = [];
  for (const line of generateTriples(n)) {
    buf.push(line);
    if (buf.length >= 10_000) {
      if (!out.write(buf.join("\n") + "\n")) await new Promise<void>((res) => out.once("drain", () => res()));
      buf = [];
    }
  }
  if (buf.length) out.write(buf.join("\n") + "\n");
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [path, nArg] = process.argv.slice(2);
  if (!path) {
    console.error("usage: npx tsx scripts/gen-triples.ts <out.nt|out.ttl> [N=1000000]");
    process.exit(2);
  }
  const n = nArg ? Number(nArg) : 1_000_000;
  const t0 = Date.now();
  await writeTriples(path, n);
  console.log(`wrote ${n} triples to ${path} in ${Date.now() - t0} ms`);
}
