// Database induction end to end: read the KG's triples, index them, induce the schema, write it to a DuckDB file named
// by the content's hash (a file already there for the same content is reused), open it read-only.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { indexFacts, type KgFacts } from "./kg-facts";
import { readAllTriples, type ReadTriplesOptions, type Triple } from "./kg-triples";
import { induceSchema, schemaDdl, type InducedSchema } from "./induce-schema";
import { openInducedDb, writeInducedDb, type SqlDatabase } from "./induced-db";

export interface InductionProgress {
  phase: "read" | "induce" | "write" | "open";
  message: string;
}

export interface InducedDatabase {
  facts: KgFacts;
  schema: InducedSchema;
  /** CREATE TABLE statements with comments, as the SQL tool shows them */
  ddl: string;
  db: SqlDatabase;
  /** sha256 of the triples in read order: names the database file */
  contentHash: string;
  stats: { triples: number; tables: number; linkTables: number; columns: number; rows: number; readMs: number; induceMs: number; writeMs: number; reused: boolean };
}

export interface InductionOptions {
  /** folder for the database files */
  dir: string;
  signal?: AbortSignal;
  read?: Omit<ReadTriplesOptions, "signal" | "onProgress">;
  onProgress?: (p: InductionProgress) => void;
  /** characters of DDL shown to the model */
  maxDdlChars?: number;
}

export const DEFAULT_MAX_DDL_CHARS = 40_000;

function hashTriples(triples: Triple[]): string {
  const h = createHash("sha256");
  for (const t of triples) h.update(`${t.s.type}${t.s.value}\u0000${t.p}\u0000${t.o.type}${t.o.value}\u0001${t.o.type === "literal" ? `${t.o["xml:lang"] ?? ""}\u0001${t.o.datatype ?? ""}` : ""}\n`);
  return h.digest("hex");
}

/** Induces the KG's database (or reuses the file of an earlier induction of the same content) and opens it read-only. */
export async function induceDatabase(kg: KnowledgeGraph, options: InductionOptions): Promise<InducedDatabase> {
  const progress = options.onProgress ?? (() => {});
  let t0 = performance.now();
  const triples = await readAllTriples(kg, {
    ...options.read,
    signal: options.signal,
    onProgress: (read, total) => progress({ phase: "read", message: `read ${read}${total ? ` of ${total}` : ""} triples` }),
  });
  const readMs = performance.now() - t0;
  t0 = performance.now();
  const facts = indexFacts(triples, kg.profile);
  const schema = induceSchema(facts);
  const contentHash = hashTriples(triples);
  const induceMs = performance.now() - t0;
  const tables = schema.tables.length;
  const linkTables = schema.tables.reduce((n, t) => n + t.links.length, 0);
  progress({ phase: "induce", message: `induced ${tables} tables and ${linkTables} link tables from ${triples.length} triples` });

  // the profile decides types and labels, so it is part of what the file holds
  const profileKey = createHash("sha256").update(JSON.stringify([kg.profile.typePredicates, kg.profile.labelPredicates, kg.profile.language])).digest("hex").slice(0, 12);
  const file = path.join(options.dir, `kg-${contentHash.slice(0, 32)}-${profileKey}.duckdb`);
  t0 = performance.now();
  const reused = existsSync(file);
  if (!reused) {
    if (options.signal?.aborted) throw options.signal.reason;
    await writeInducedDb(file, schema, facts, (p) => progress({ phase: "write", message: `wrote ${p.tables} of ${p.totalTables} tables (${p.rows} rows)` }));
  }
  const writeMs = performance.now() - t0;
  progress({ phase: "open", message: reused ? "reusing the database induced earlier for the same content" : "database written" });
  const db = await openInducedDb(file);
  const rows = schema.tables.reduce((n, t) => n + t.subjects.length, 0);
  const columns = schema.tables.reduce((n, t) => n + 2 + t.columns.length, 0);
  return {
    facts,
    schema,
    ddl: schemaDdl(schema, { maxChars: options.maxDdlChars ?? DEFAULT_MAX_DDL_CHARS }),
    db,
    contentHash,
    stats: { triples: triples.length, tables, linkTables, columns, rows, readMs, induceMs, writeMs, reused },
  };
}
