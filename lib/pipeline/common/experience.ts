// The experience pool as strategies use it (mKGQAgent; explorer, Triad): solved questions of this KG ranked by
// similarity to the question, the best few shown as examples; and the key a KG's pool is stored under.
import path from "node:path";
import { toAppError } from "@/lib/errors";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { ExperienceExample, ExperienceSource, Stage } from "@/lib/pipeline/types";

/** how the examples made for a question at turn time (aimed-examples.ts) are told from the stored ones: their ids start so */
export const AIMED_ID = "aimed-";
/** examples shown */
export const EXAMPLES = 3;
/** below this similarity an example is more noise than help */
export const MIN_SIMILARITY = 0.3;
const MAX_CANDIDATES = 2000;

export interface RetrievedExample extends ExperienceExample {
  score: number;
}

/**
 * The pool's solved questions of the KG (at most MAX_CANDIDATES). A failing pool costs the examples, not the turn (a
 * warning says so), unless the turn was cancelled.
 */
export async function readPool(source: ExperienceSource | undefined, ctx: AgentContext, stage: Stage): Promise<ExperienceExample[]> {
  if (!source) return [];
  try {
    return (await source.examples(ctx.kg.info.id, { signal: ctx.signal })).slice(0, MAX_CANDIDATES);
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted" || ctx.signal?.aborted) throw err;
    ctx.emit({ type: "warning", stage, message: `The experience pool could not be read: ${err.message}` });
    return [];
  }
}

/** The pool's best examples for the question (see readPool for a failing pool). */
export async function retrieveExamples(
  source: ExperienceSource | undefined,
  ctx: AgentContext,
  question: string,
  k = EXAMPLES,
  stage: Stage = "plan",
): Promise<RetrievedExample[]> {
  if (!source || k <= 0) return [];
  const candidates = await readPool(source, ctx, stage);
  if (candidates.length === 0) return [];
  const scores = await ctx.similarity.scores(question, candidates.map((c) => c.question));
  return candidates
    .map((c, i) => ({ ...c, score: scores[i] ?? 0 }))
    .filter((c) => c.score >= MIN_SIMILARITY)
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

/** The examples as the system prompt shows them (empty when there are none). */
export function examplesBlock(examples: RetrievedExample[]): string {
  if (examples.length === 0) return "";
  const items = examples.map((e, i) => `Example ${i + 1}. Question: ${e.question}\n\`\`\`sparql\n${e.sparql.trim()}\n\`\`\``);
  return `\nSolved questions on this KG (their queries worked; reuse their patterns and IRIs where they fit):\n${items.join("\n")}\n`;
}

/** The key a KG's pool is stored under: its id, with file paths made absolute (a CLI run may type them relative). */
export function experienceKgKey(kgId: string, cwd = process.cwd()): string {
  if (!kgId.startsWith("files:")) return kgId;
  return `files:${kgId
    .slice("files:".length)
    .split(",")
    .map((p) => path.resolve(cwd, p))
    .join(",")}`;
}
