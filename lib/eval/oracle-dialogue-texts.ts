// The texts an oracle may take from the dataset instead of writing them (docs/eval.md "Oracle kinds"): dialogue roles
// the dataset's gold standalone rewrite, the translator the dataset's own English version of the question. Each use is
// labelled on the question's oracle log. Every strategy translates the question before it links anything (the Chat
// agent's tool call carries the English question: docs/strategies.md), so after that step an oracle writes from the
// English version; everything else comes from the asked question itself.
import { noteDatasetText, type OracleLog } from "./oracle-grounding";
import type { BenchmarkItem } from "./types";

export const STANDALONE_LABEL = "dialogue roles: the dataset's gold standalone rewrite";
export const ENGLISH_LABEL = "translator: the dataset's own English version of the question";

export interface DialogueTexts {
  /** the question as asked (any language) */
  asked: string;
  /** its language: the key of the dataset's version equal to it, else "en" */
  language: string;
  /** English: the asked text when English, else the dataset's English version (labelled), else the asked text */
  english: string;
  /** the standalone question (English): the dataset's rewrite (labelled) when it has one, else `english` */
  standalone: string;
  /** what the Chat agent's KG tool call carries as its standalone English question */
  chatQuestion: string;
  /**
   * the text mentions and relation phrases are grounded in: what the strategy's translation step hands on — the
   * dataset's standalone rewrite of a dialogue turn, else the English question (the dataset's English version standing
   * for the translator's output), else the asked question
   */
  groundOn: string;
  /** the language of `groundOn` (normalisations such as number words are read in it) */
  groundLanguage: string;
}

/** The language code of the asked question: the item's, else by the dataset's per-language versions ("en" when it has none). */
export function questionLanguage(item: Pick<BenchmarkItem, "question" | "questions" | "lang">): string {
  if (item.lang) return item.lang; // --question-lang says which version is asked
  const asked = item.question.trim();
  const hit = Object.entries(item.questions ?? {}).find(([, text]) => text.trim() === asked);
  return hit?.[0] ?? "en";
}

export function dialogueTexts(item: BenchmarkItem, log?: OracleLog): DialogueTexts {
  const asked = item.question;
  const language = questionLanguage(item);
  const datasetEnglish = language !== "en" ? item.questions?.en : undefined;
  if (datasetEnglish && log) noteDatasetText(log, ENGLISH_LABEL);
  const english = datasetEnglish ?? asked;
  const rewrite = item.standalone !== undefined && item.standalone !== asked ? item.standalone : undefined;
  if (rewrite && log) noteDatasetText(log, STANDALONE_LABEL);
  const standalone = rewrite ?? english;
  return { asked, language, english, standalone, chatQuestion: standalone, groundOn: rewrite ?? english, groundLanguage: datasetEnglish ? "en" : language };
}
