// Reads a system's SPARQL per question for a replay (`--queries`): the TEXT2SPARQL answers format
// ([{ qname: "ck25:1-en", query }, …]) or a plain JSON object { "<id>": "<sparql>" }. Ids lose their language suffix.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseWith, readJson } from "./datasets/read-file";

const answersSchema = z.array(z.looseObject({ qname: z.string().min(1, "qname is empty"), query: z.string() }));
const plainSchema = z.record(z.string().min(1), z.string());

const LANG_SUFFIX = /-([a-z]{2}(?:_[A-Z]{2})?)$/;

/** "ck25:10-en" → { id: "ck25:10", lang: "en" }; an id without a suffix has no language. */
export function splitQname(qname: string): { id: string; lang?: string } {
  const m = LANG_SUFFIX.exec(qname);
  return m ? { id: qname.slice(0, m.index), lang: m[1] } : { id: qname };
}

export interface QueriesFile {
  /** SPARQL per item id (may be empty text: the system gave no query) */
  queries: Map<string, string>;
  /** SPARQL per name as the file gives it ("ck25:10-de"; a repeated name keeps its first query, as the official client) */
  byQname: Map<string, string>;
  format: "text2sparql-answers" | "plain";
}

/**
 * The query for an item: asked per language (--question-lang), the one named `<id>-<lang>` (none for that language →
 * none, as the official client scores it) or one named without a language; otherwise the one for its id.
 */
export function queryForItem(file: QueriesFile, item: { id: string; lang?: string }): string | undefined {
  if (!item.lang) return file.queries.get(item.id);
  const base = item.id.endsWith(`-${item.lang}`) ? item.id.slice(0, -(item.lang.length + 1)) : item.id;
  return file.byQname.get(item.id) ?? file.byQname.get(base);
}

/**
 * One query per id. Several languages of one question: the English one is kept (the official scorer reads "-en"),
 * else the first; a repeated qname keeps its first query, as the official scorer does.
 */
export function readQueriesFile(file: string): QueriesFile {
  const data = readJson(file);
  let entries: { qname: string; query: string }[];
  let format: QueriesFile["format"];
  if (Array.isArray(data)) {
    entries = parseWith(answersSchema, data, file, 'a TEXT2SPARQL answers file ([{ "qname": "<prefix>:<id>-<lang>", "query": "…" }, …])');
    format = "text2sparql-answers";
  } else if (data && typeof data === "object") {
    entries = Object.entries(parseWith(plainSchema, data, file, 'a queries file ({ "<id>": "<sparql>" } with string queries)')).map(([qname, query]) => ({ qname, query }));
    format = "plain";
  } else {
    throw new AppError("bad_request", `${file} is not a queries file: expected a TEXT2SPARQL answers array or a JSON object { "<id>": "<sparql>" }.`);
  }
  const queries = new Map<string, string>();
  const byQname = new Map<string, string>();
  const langs = new Map<string, string | undefined>();
  for (const { qname, query } of entries) {
    if (!byQname.has(qname.trim())) byQname.set(qname.trim(), query);
    const { id, lang } = splitQname(qname.trim());
    const had = langs.get(id);
    if (queries.has(id) && (had === "en" || had === undefined || lang !== "en")) continue;
    queries.set(id, query);
    langs.set(id, lang);
  }
  if (queries.size === 0) throw new AppError("bad_request", `${file} holds no queries.`);
  return { queries, byQname, format };
}
