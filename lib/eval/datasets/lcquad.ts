// LC-QuAD 1.0 JSON (`[{_id, corrected_question, intermediary_question, sparql_query, sparql_template_id}]`), gold by SPARQL only.
import { z } from "zod";
import { checkItems, type BenchmarkItem } from "../types";
import { parseWith, readJson, readText } from "./read-file";

const lcquadSchema = z.array(
  z
    .object({
      _id: z.union([z.string(), z.number()]),
      corrected_question: z.string().nullable().optional(),
      intermediary_question: z.string().optional(),
      sparql_query: z.string(),
      sparql_template_id: z.union([z.number(), z.string()]).optional(),
    })
    .loose(),
);

/**
 * Reads LC-QuAD 1.0. `idsFile` (e.g. KGQAn's TestingIDs_LCQuAD1.txt, one id a line) keeps only those questions.
 * The answers are not in the file: recompute them from the gold SPARQL on a DBpedia 2016-04 endpoint.
 */
export function readLcquad(file: string, options: { idsFile?: string } = {}): BenchmarkItem[] {
  const parsed = parseWith(lcquadSchema, readJson(file), file, "LC-QuAD 1.0 JSON ([{_id, corrected_question, sparql_query}])");
  const keep = options.idsFile ? new Set(readText(options.idsFile).split(/\s+/).filter(Boolean)) : null;
  const items = parsed
    .filter((q) => !keep || keep.has(String(q._id)))
    .map((q) => {
      const question = (q.corrected_question?.trim() || q.intermediary_question?.trim() || "").replace(/\s+/g, " ");
      return {
        id: `lcquad:${q._id}`,
        question,
        goldSparql: q.sparql_query,
        ...(/^\s*ASK\b/i.test(q.sparql_query) ? { type: "boolean" as const } : /\bCOUNT\s*\(/i.test(q.sparql_query) ? { type: "count" as const } : {}),
        ...(q.sparql_template_id !== undefined ? { features: [`template-${q.sparql_template_id}`] } : {}),
      };
    });
  return checkItems(items, file);
}
