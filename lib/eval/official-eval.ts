// A published TEXT2SPARQL evaluation (`<team>/ck25_eval.json`: set_P/set_recall/set_F[/ndcg] per "<id>-<lang>" and
// "average") read, and a replay's per-question F1 compared with it.
import { z } from "zod";
import { parseWith, readJson } from "./datasets/read-file";
import { splitQname } from "./queries-file";
import type { QuestionRecord } from "./result-schema";

const measuresSchema = z.looseObject({ set_P: z.number(), set_recall: z.number(), set_F: z.number(), ndcg: z.number().optional(), set_F_ndcg: z.number().optional() });
const evalSchema = z.record(z.string(), measuresSchema);

export interface OfficialScores {
  precision: number;
  recall: number;
  f1: number;
  ndcg?: number;
  f1Ndcg?: number;
}

export interface OfficialEval {
  file: string;
  /** by item id without language (the first language's entry) */
  perQuestion: Map<string, OfficialScores>;
  /** by the file's own key ("ck26:27-de") */
  byQname: Map<string, OfficialScores>;
  average?: OfficialScores;
  /** the client's "average-<lang>" entries (2026 files evaluated with several languages) */
  languageAverages: Map<string, OfficialScores>;
}

const scores = (m: z.infer<typeof measuresSchema>): OfficialScores => ({
  precision: m.set_P,
  recall: m.set_recall,
  f1: m.set_F,
  ...(m.ndcg !== undefined ? { ndcg: m.ndcg } : {}),
  ...(m.set_F_ndcg !== undefined ? { f1Ndcg: m.set_F_ndcg } : {}),
});

export function readOfficialEval(file: string): OfficialEval {
  const data = parseWith(evalSchema, readJson(file), file, 'a TEXT2SPARQL evaluation file ({ "<prefix>:<id>-<lang>": { "set_P", "set_recall", "set_F" }, "average": … })');
  const perQuestion = new Map<string, OfficialScores>();
  const byQname = new Map<string, OfficialScores>();
  const languageAverages = new Map<string, OfficialScores>();
  let average: OfficialScores | undefined;
  for (const [key, m] of Object.entries(data)) {
    if (key === "average") average = scores(m);
    else if (key.startsWith("average-")) languageAverages.set(key.slice("average-".length), scores(m));
    else {
      byQname.set(key, scores(m));
      const { id } = splitQname(key);
      if (!perQuestion.has(id)) perQuestion.set(id, scores(m));
    }
  }
  return { file, perQuestion, byQname, languageAverages, ...(average ? { average } : {}) };
}

/** F1 values closer than this are the same number printed by two programs. */
const SAME = 1e-6;

export interface OfficialComparison {
  file: string;
  /** questions in both the run and the official file */
  compared: number;
  /** of those, with the same F1 (and ndcg where the official file has one) */
  equal: number;
  differing: { id: string; official: OfficialScores; ours: { precision: number; recall: number; f1: number; ndcg?: number } | null }[];
  /** the official file's average, when it has one */
  officialAverage?: OfficialScores;
  languageAverages?: Record<string, OfficialScores>;
}

/** Per question, the run's scores against the official ones (records without metrics count as differing). */
export function compareWithOfficial(records: QuestionRecord[], official: OfficialEval): OfficialComparison {
  const differing: OfficialComparison["differing"] = [];
  let compared = 0;
  for (const r of records) {
    // a question asked per language is its own entry ("<id>-<lang>"); otherwise the entry of its id
    const o = r.lang ? official.byQname.get(r.id) : official.perQuestion.get(r.id);
    if (!o) continue;
    compared++;
    const m = r.metrics;
    const ours = m ? { precision: m.precision, recall: m.recall, f1: m.f1, ...(m.ndcg !== undefined ? { ndcg: m.ndcg } : {}) } : null;
    const same = !!m && Math.abs(m.f1 - o.f1) < SAME && (o.ndcg === undefined || (m.ndcg !== undefined && Math.abs(m.ndcg - o.ndcg) < SAME));
    if (!same) differing.push({ id: r.id, official: o, ours });
  }
  return {
    file: official.file,
    compared,
    equal: compared - differing.length,
    differing,
    ...(official.average ? { officialAverage: official.average } : {}),
    ...(official.languageAverages.size ? { languageAverages: Object.fromEntries(official.languageAverages) } : {}),
  };
}
