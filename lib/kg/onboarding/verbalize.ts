// Questions for the generated queries. Offline (tests, `npm run eval`, no model configured): from templates over the
// frame's names, the KG's own words. With a model: written in batches from the query and the names it uses, and
// checked — a question must name every entity and value the query uses, in the KG's words (case, accents and
// inflection aside); a question that does not is replaced by the template's.
import { z } from "zod";
import { toAppError } from "@/lib/errors";
import { tokenize } from "@/lib/kg/label-index";
import { splitWords, stem } from "@/lib/kg/lexicon";
import type { LlmGateway } from "@/lib/llm/types";
import { renderPromptPair } from "@/lib/prompts";
import type { Candidate, Frame } from "./frames";

/** "department" → "departments", "city" → "cities", "box" → "boxes"; a name of several words pluralises its last. */
export function plural(name: string): string {
  const words = name.trim().split(/\s+/);
  const last = words.pop() ?? "";
  let p: string;
  if (/[^aeiou]y$/i.test(last)) p = `${last.slice(0, -1)}ies`;
  else if (/(s|x|z|ch|sh)$/i.test(last)) p = `${last}es`;
  else if (/\p{Lu}{2,}$/u.test(last) || /\d$/.test(last)) p = `${last}s`;
  else p = `${last}s`;
  return [...words, p].join(" ");
}

/** Class and predicate names as running text: lower case unless an acronym or a proper name with capitals inside. */
function words(name: string | undefined, fallback: string): string {
  if (!name) return fallback;
  // "LoadArea" reads "load area", "ACLineSegment" "AC line segment": class names are often written as one word
  return splitWords(name)
    .split(/\s+/)
    .map((w) => (/^\p{Lu}[\p{Ll}\d]*$/u.test(w) ? w.toLowerCase() : w))
    .join(" ");
}

/** A predicate named as a relation ending in a preposition ("kept by", "located in"): "X is kept by Y". */
const RELATIONAL = /\s(by|in|at|of|on|to|for|from|with|into|under|near)$/i;

const AGG: Record<NonNullable<Frame["agg"]>, string> = { avg: "average", max: "highest", min: "lowest", sum: "total" };

/** The template question for a frame (deterministic). */
export function templateQuestion(f: Frame): string {
  const c = words(f.cls, "thing");
  const cs = f.cls ? plural(c) : "things";
  const p = words(f.p, "value");
  const q = words(f.q, "value");
  const who = f.names ? `names of the ${cs}` : cs;
  const high = f.dir !== "low";
  switch (f.kind) {
    case "list":
      return `List all ${cs}.`;
    case "list-names":
      return `What are the ${p}s of all ${cs}?`;
    case "list-attribute":
      return `List the ${p} of all ${cs}.`;
    case "list-two":
      return `List the ${words(f.key, "name")} and ${p} of every ${c}.`;
    case "list-ordered":
      return `List the ${p} of all ${cs} in ascending order.`;
    case "count":
      return `How many ${cs} are there?`;
    case "count-with-attribute":
      return `How many ${cs} have a ${p}?`;
    case "count-with-value":
      return RELATIONAL.test(p) ? `How many ${cs} are ${p} ${f.value}?` : `How many ${cs} have ${p} ${f.value}?`;
    case "count-distinct":
      return `How many different ${p} values do the ${cs} have?`;
    case "attribute-with-value":
      return `What is the ${q} of the ${cs} with ${p} ${f.value}?`;
    case "list-sorted-by":
      return `List the ${words(f.key, "name")} of all ${cs} sorted by ${p}.`;
    case "aggregate-per-group":
      return `What is the ${AGG[f.agg ?? "avg"]} ${p} of the ${cs} for each ${q}?`;
    case "above-average":
      return f.names ? `What are the names of the ${cs} with a ${p} above the average?` : `Which ${cs} have a ${p} above the average?`;
    case "aggregates": {
      const names = (f.aggs ?? ["max", "min"]).map((a) => AGG[a]);
      return `What are the ${names.slice(0, -1).join(", ")} and ${names.at(-1)} ${p} of all ${cs}?`;
    }
    case "value-of":
      return RELATIONAL.test(p) ? `What is ${f.entity} ${p}?` : `What is the ${p} of ${f.entity}?`;
    case "value-of-by-key":
      return `What is the ${p} of the ${c} whose ${words(f.key, "name")} is ${f.value}?`;
    case "with-value":
      if (RELATIONAL.test(p)) return f.names ? `What are the ${who} ${p} ${f.value}?` : `Which ${cs} are ${p} ${f.value}?`;
      return f.names ? `What are the ${who} with ${p} ${f.value}?` : `Which ${cs} have ${p} ${f.value}?`;
    case "numeric-filter":
      return f.names ? `What are the ${who} with a ${p} greater than ${f.n}?` : `Which ${cs} have a ${p} greater than ${f.n}?`;
    case "date-filter":
      return f.names ? `What are the ${who} with a ${p} after ${f.n}?` : `Which ${cs} have a ${p} after ${f.n}?`;
    case "count-filter":
      return /^\d{4}$/.test(f.n ?? "") ? `How many ${cs} have a ${p} in ${f.n}?` : `How many ${cs} have a ${p} greater than ${f.n}?`;
    case "superlative":
      return f.names ? `What is the name of the ${c} with the ${high ? "highest" : "lowest"} ${p}?` : `Which ${c} has the ${high ? "highest" : "lowest"} ${p}?`;
    case "aggregate":
      return `What is the ${AGG[f.agg ?? "avg"]} ${p} of all ${cs}?`;
    case "top-k":
      return `Which ${f.n ?? "5"} ${cs} have the ${high ? "highest" : "lowest"} ${p}, with their ${p}?`;
    case "count-per-group":
      return `How many ${cs} are there for each ${p}?`;
    case "group-most":
      return `Which ${p} has the most ${cs}?`;
    case "group-having":
      return `Which ${p} values are shared by more than ${f.n ?? "1"} ${cs}?`;
    case "chain":
      return `What is the ${q} of the ${p} of ${f.entity}?`;
    case "chain-by-key":
      return `What is the ${q} of the ${p} of the ${c} whose ${words(f.key, "name")} is ${f.value}?`;
    case "join-filter":
      return f.names ? `What are the ${who} whose ${p} has ${q} ${f.value}?` : `Which ${cs} have a ${p} whose ${q} is ${f.value}?`;
    case "join-count":
      return `How many ${cs} have a ${p} whose ${q} is ${f.value}?`;
    case "compare":
      return `Which has the ${high ? "higher" : "lower"} ${p}, ${f.entity} or ${f.entity2}?`;
    case "yes-no":
      return RELATIONAL.test(p) ? `Is ${f.entity} ${p} ${f.value}?` : `Is the ${p} of ${f.entity} ${f.value}?`;
  }
}

const fold = (text: string) => tokenize(text).map(stem);

/** Does the question name each mention (all its words, in order of the KG's text, case/accents/inflection aside)? */
export function namesAll(question: string, mentions: string[]): { ok: true } | { ok: false; missing: string[] } {
  const have = fold(question);
  const joined = ` ${have.join(" ")} `;
  const missing = mentions.filter((m) => {
    const want = fold(m);
    if (want.length === 0) return !question.includes(m);
    return !joined.includes(` ${want.join(" ")} `) && !question.toLowerCase().includes(m.toLowerCase());
  });
  return missing.length ? { ok: false, missing } : { ok: true };
}

const replySchema = z.object({ questions: z.array(z.object({ id: z.number().int(), question: z.string().min(3).max(400) })) });

export interface Verbalized {
  question: string;
  verbalizer: "llm" | "template";
}

export const BATCH = 10;

/**
 * Questions for candidates; with a model, in batches of BATCH, each checked. A failing model call (or a question that
 * fails the check) falls back to the template; a cancelled job throws.
 */
export async function verbalize(candidates: Candidate[], options: { llm?: LlmGateway; kgName: string; signal?: AbortSignal; onBatch?: (done: number) => void }): Promise<Verbalized[]> {
  const out: Verbalized[] = candidates.map((c) => ({ question: templateQuestion(c.frame), verbalizer: "template" }));
  if (!options.llm) return out;
  for (let i = 0; i < candidates.length; i += BATCH) {
    const batch = candidates.slice(i, i + BATCH);
    const items = batch.map((c, j) => `${j + 1}. Query:\n${c.sparql}\nNames to use: ${c.mentions.length ? c.mentions.map((m) => JSON.stringify(m)).join(", ") : "(none)"}\nDraft: ${out[i + j].question}`).join("\n\n");
    const { system, prompt } = renderPromptPair("onboarding-questions", { kgName: options.kgName, items });
    try {
      const result = await options.llm.call({ role: "onboarding", system, prompt, schema: replySchema, signal: options.signal });
      if (result.ok) {
        for (const q of result.value.questions) {
          const j = q.id - 1;
          const c = batch[j];
          if (!c) continue;
          if (namesAll(q.question, c.mentions).ok) out[i + j] = { question: q.question.trim(), verbalizer: "llm" };
        }
      }
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "aborted" || options.signal?.aborted) throw err;
      // the templates stand; the next batch tries again
    }
    options.onBatch?.(Math.min(candidates.length, i + BATCH));
  }
  return out;
}
