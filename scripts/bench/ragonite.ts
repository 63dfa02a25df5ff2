// RAGONITE bench: database induction time for a KG (read the triples, induce the schema, write the DuckDB file, open it
// read-only), in a fresh folder so nothing is reused; and the fidelity round trip.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { induceDatabase } from "@/lib/pipeline/ragonite/induction";
import { checkFidelity } from "@/lib/pipeline/ragonite/fidelity";
import { buildPassageIndex } from "@/lib/pipeline/ragonite/passage-index";
import { expansionFor } from "@/lib/pipeline/ragonite/query-expansion";
import { verbalize } from "@/lib/pipeline/ragonite/verbalize";

export interface RagoniteBenchResult {
  triples: number;
  tables: number;
  linkTables: number;
  rows: number;
  readMs: number;
  induceMs: number;
  writeMs: number;
  totalMs: number;
  represented: number;
  typedTriples: number;
  passages: number;
  passagesMs: number;
}

export async function benchRagonite(args: { kg: KnowledgeGraph; log?: (line: string) => void }): Promise<RagoniteBenchResult> {
  const log = args.log ?? console.log;
  const dir = mkdtempSync(path.join(tmpdir(), "ragonite-bench-"));
  try {
    const t0 = performance.now();
    const induced = await induceDatabase(args.kg, { dir, read: { timeoutMs: 600_000 } });
    const totalMs = performance.now() - t0;
    try {
      const s = induced.stats;
      log(`RAGONITE induction: ${s.triples} triples → ${s.tables} tables + ${s.linkTables} link tables, ${s.rows} rows, ${s.columns} columns`);
      log(`  total ${(totalMs / 1000).toFixed(2)} s: read triples ${Math.round(s.readMs)} ms, induce schema ${Math.round(s.induceMs)} ms, write DuckDB ${Math.round(s.writeMs)} ms`);
      const report = await checkFidelity(induced.facts, induced.schema, induced.db);
      log(`  fidelity: ${report.represented}/${report.total} triples represented`);
      // the passage side of the first use: verbalization and the BM25 index (no embedding model in the bench)
      const t1 = performance.now();
      const passages = verbalize(induced.facts);
      await buildPassageIndex(passages, expansionFor(induced.facts));
      const passagesMs = performance.now() - t1;
      log(`  passages: ${passages.length} verbalized and indexed (BM25) in ${(passagesMs / 1000).toFixed(2)} s`);
      return {
        triples: s.triples,
        tables: s.tables,
        linkTables: s.linkTables,
        rows: s.rows,
        readMs: s.readMs,
        induceMs: s.induceMs,
        writeMs: s.writeMs,
        totalMs,
        represented: report.represented,
        typedTriples: report.total,
        passages: passages.length,
        passagesMs,
      };
    } finally {
      induced.db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
