// Reads every triple of a KG (paged SELECTs through the read-only guard) for database induction and verbalization,
// reporting progress per page; refuses KGs larger than a bound (a public endpoint cannot be copied whole).
import { AppError } from "@/lib/errors";
import type { KnowledgeGraph, Term } from "@/lib/kg/types";

/** One triple; the predicate is always an IRI. Blank nodes keep their (store-local) id. */
export interface Triple {
  s: Term;
  p: string;
  o: Term;
}

export interface ReadTriplesOptions {
  /** triples per SELECT page */
  pageSize?: number;
  /** more than this is refused with a clear error (the whole KG is copied into memory, a database and an index) */
  maxTriples?: number;
  /** per page */
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (read: number, total: number | undefined) => void;
}

export const DEFAULT_MAX_TRIPLES = 5_000_000;
const DEFAULT_PAGE = 250_000;

const termKey = (t: Term) => (t.type === "literal" ? `L${t.value}\u0001${t["xml:lang"] ?? ""}\u0001${t.datatype ?? ""}` : `${t.type === "uri" ? "U" : "B"}${t.value}`);

/**
 * All triples, without repeats (a triple in several named graphs is read once). Pages have no ORDER BY: an embedded
 * store returns a fixed order, and sorting a million triples per page would cost more than the copy itself.
 */
export async function readAllTriples(kg: KnowledgeGraph, options: ReadTriplesOptions = {}): Promise<Triple[]> {
  const max = options.maxTriples ?? DEFAULT_MAX_TRIPLES;
  // a remote endpoint does not say its size: ask first, so a public endpoint is refused at once, not after millions of rows
  const total = kg.info.triples ?? (await countTriples(kg, options));
  if (total > max) {
    throw new AppError("bad_request", `The KG has ${total} triples; RAGONITE copies a KG into a database and a text index and handles at most ${max}.`);
  }
  const page = Math.max(1, options.pageSize ?? DEFAULT_PAGE);
  const out: Triple[] = [];
  const seen = new Set<string>();
  for (let offset = 0; ; offset += page) {
    // one query without paging when the whole store fits in a page
    const paged = total > page;
    const query = `SELECT ?s ?p ?o WHERE { ?s ?p ?o }${paged ? ` LIMIT ${page} OFFSET ${offset}` : ""}`;
    const result = await kg.select(query, { timeoutMs: options.timeoutMs, signal: options.signal });
    const rows = result.results.bindings;
    for (const row of rows) {
      const { s, p, o } = row;
      if (!s || !p || !o || p.type !== "uri") continue;
      const key = `${termKey(s)}\u0000${p.value}\u0000${termKey(o)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ s, p: p.value, o });
    }
    if (out.length > max) {
      throw new AppError("bad_request", `The KG has more than ${max} triples; RAGONITE copies a KG into a database and a text index and handles at most ${max}.`);
    }
    options.onProgress?.(out.length, total);
    if (!paged || rows.length < page) break;
  }
  return out;
}

/** The KG's triple count by one COUNT query; a KG that cannot tell (timeout, error) is refused with the reason. */
async function countTriples(kg: KnowledgeGraph, options: ReadTriplesOptions): Promise<number> {
  try {
    const r = await kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", { timeoutMs: options.timeoutMs, signal: options.signal });
    const n = Number(r.results.bindings[0]?.n?.value);
    if (Number.isFinite(n)) return n;
    throw new AppError("kg_bad_response", "the COUNT query returned no number");
  } catch (e) {
    if (options.signal?.aborted) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new AppError("bad_request", `RAGONITE copies the whole KG and could not tell how large this one is (${why}).`, { cause: e });
  }
}
