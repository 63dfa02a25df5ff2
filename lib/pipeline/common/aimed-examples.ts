// Solved examples generated for the question at turn time (lib/kg/onboarding/aimed.ts), beside the pool's stored ones:
// the KG's onboarding profile says what the classes and columns are, the strategy's own ranking says which candidates
// read like the question. Its queries run on a context of their own — bounded, not drawn from the turn's KG budget,
// not listed one by one in the trace (one tool-call event says what was made) — and a failure costs the examples only.
import { toAppError } from "@/lib/errors";
import { aimExamples, type AimDoc } from "@/lib/kg/onboarding/aimed";
import { impliedTypes, queryTemplate } from "@/lib/kg/onboarding/template";
import { NS } from "@/lib/kg/profile";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { AIMED_EXAMPLES_TOOL, type AimedReport } from "@/lib/pipeline/common/aimed-tool";
import { AIMED_ID } from "@/lib/pipeline/common/experience";
import { getLexicon } from "@/lib/pipeline/common/lexicon";
import type { ExperienceExample, ExperienceSource, Stage } from "@/lib/pipeline/types";

/** wall time the examples may take, ms: a turn waits for them */
export const AIM_MS = 4000;
/** queries they may run (sample reads, two-hop reads and candidates) */
const AIM_QUERIES = 400;
/** candidate queries run at most */
const AIM_CANDIDATES = 24;

// The pool's templates, kept between turns (a pool is read afresh each turn; parsing 300 queries each time is waste);
// by KG and query. A stale one (the KG re-prepared) only lets an example be made twice or not at all.
const TEMPLATES = new Map<string, string | undefined>();
const TEMPLATES_MAX = 20_000;
function templateOf(key: string, make: () => string | undefined): string | undefined {
  if (TEMPLATES.has(key)) return TEMPLATES.get(key);
  if (TEMPLATES.size >= TEMPLATES_MAX) TEMPLATES.clear();
  const t = make();
  TEMPLATES.set(key, t);
  return t;
}

export async function aimedExamples(
  source: ExperienceSource | undefined,
  ctx: AgentContext,
  question: string,
  pool: ExperienceExample[],
  k: number,
  rank: (docs: AimDoc[]) => Promise<AimDoc[]>,
  stage: Stage,
): Promise<ExperienceExample[]> {
  if (!source?.profile || k <= 0) return [];
  const started = ctx.now();
  try {
    const profile = await source.profile(ctx.kg.info.id, { signal: ctx.signal });
    if (!profile) return [];
    if (profile.candidatesExhausted) {
      // the job ran every candidate it could make: the stored examples are all that answer; say so, run nothing
      const report: AimedReport = { classes: [], made: [], ran: 0, queries: 0, skipped: "the KG's preparation ran every candidate query the generators make, and the stored examples hold all that answered" };
      const { classes, ...rest } = report;
      ctx.emit({ type: "tool-call", stage, tool: AIMED_EXAMPLES_TOOL, input: { question, classes }, output: rest, ms: ctx.now() - started });
      return [];
    }
    let queries = 0;
    const own = createAgentContext({
      kg: ctx.kg,
      llm: ctx.llm,
      similarity: ctx.similarity,
      config: ctx.config,
      signal: ctx.signal,
      now: ctx.now,
      budget: { queries: AIM_QUERIES, ms: AIM_MS },
      emit: (e) => {
        if (e.type === "sparql") queries++;
      },
    });
    const { lexicon } = await getLexicon(ctx, stage);
    const typePredicates = [ctx.kg.profile.typePredicates[0] ?? `${NS.rdf}type`];
    const implied = impliedTypes(profile);
    const have = new Set(pool.flatMap((e) => templateOf(`${ctx.kg.info.id}\n${e.sparql}`, () => queryTemplate(e.sparql, { typePredicates, impliedTypes: implied })) ?? []));
    const out = await aimExamples({ ctx: own, queries: () => queries, errors: () => [] }, profile, lexicon, { rank, have, examples: k, candidates: AIM_CANDIDATES, deadline: Date.now() + AIM_MS });
    const { classes, ...report }: AimedReport = { classes: out.classes, made: out.examples.map((e) => e.question), ran: out.ran, queries, ...(out.skipped ? { skipped: out.skipped } : {}) };
    ctx.emit({ type: "tool-call", stage, tool: AIMED_EXAMPLES_TOOL, input: { question, classes }, output: report, ms: ctx.now() - started });
    return out.examples.map((e, i) => ({ id: `${AIMED_ID}${i + 1}`, question: e.question, sparql: e.sparql, source: "generated" as const }));
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted" || ctx.signal?.aborted) throw err;
    ctx.emit({ type: "warning", stage, message: `No examples could be generated for this question: ${err.message}` });
    return [];
  }
}
