// Writes a deterministic synthetic RDF file (N-Triples, or Turtle for .ttl) of N triples with labels, for load benchmarks.
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, type WriteStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Namespace of every generated entity, class and predicate. */
export const GEN_NAMESPACE = "http://example.org/gen/";
const EX = GEN_NAMESPACE;
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
  await writeTriplesInParts(() => path, n, n);
}

/**
 * The same triples split into files of at most `perFile` lines (`pathOf(0)`, `pathOf(1)`, …), so a bulk loader can
 * read several at once; returns the paths.
 */
export async function writeTriplesInParts(pathOf: (part: number) => string, n: number, perFile: number): Promise<string[]> {
  const paths: string[] = [];
  let out: WriteStream | undefined;
  let inFile = 0;
  let buf: string[] = [];
  const close = async (stream: WriteStream) => new Promise<void>((res, rej) => stream.end((e?: Error | null) => (e ? rej(e) : res())));
  const write = async () => {
    // N-Triples is valid Turtle, so a .ttl path gets the same lines.
    if (buf.length && !out!.write(buf.join("\n") + "\n")) await new Promise<void>((res) => out!.once("drain", () => res()));
    buf = [];
  };
  for (const line of generateTriples(n)) {
    if (!out || inFile === perFile) {
      if (out) {
        await write();
        await close(out);
      }
      paths.push(pathOf(paths.length));
      out = createWriteStream(paths[paths.length - 1]);
      inFile = 0;
    }
    buf.push(line);
    inFile++;
    if (buf.length >= 10_000) await write();
  }
  if (out) {
    await write();
    await close(out);
  }
  return paths;
}

/** Where generated KGs are cached: CHATTY_GEN_DIR, else <tmp>/chatty-kg-gen (never inside the repository). */
export function generatedDir(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(env.CHATTY_GEN_DIR?.trim() || path.join(os.tmpdir(), "chatty-kg-gen"));
}

/**
 * A generated KG of n triples in the cache folder, in files of 1M triples (bulk loaders such as Virtuoso's read one
 * file per loader thread), written once; returns the paths.
 */
export async function generatedParts(n: number, log: (line: string) => void = console.log, perFile = 1_000_000): Promise<string[]> {
  const dir = path.join(generatedDir(), perFile === 1_000_000 ? `gen-${n}.parts` : `gen-${n}.parts-${perFile}`);
  const parts = Math.ceil(n / perFile);
  const name = (i: number) => `part-${String(i).padStart(3, "0")}.nt`;
  if (!existsSync(dir)) {
    // written next to it and renamed at the end: an interrupted run leaves no half-written cache behind
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const t0 = performance.now();
    await writeTriplesInParts((i) => path.join(tmp, name(i)), n, perFile);
    renameSync(tmp, dir);
    log(`generated ${n.toLocaleString("en")} triples into ${parts} files under ${dir} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return Array.from({ length: parts }, (_, i) => path.join(dir, name(i)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [out, nArg] = process.argv.slice(2);
  if (!out) {
    console.error("usage: npx tsx scripts/gen-triples.ts <out.nt|out.ttl> [N=1000000]");
    process.exit(2);
  }
  const n = nArg ? Number(nArg) : 1_000_000;
  const t0 = Date.now();
  await writeTriples(out, n);
  console.log(`wrote ${n} triples to ${out} in ${Date.now() - t0} ms`);
}
