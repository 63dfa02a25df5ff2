// The two ways an exploration ends: finish (a final query that parses, uses only known IRIs, projects only answer
// variables, computes rather than pastes its answer, and runs) and cannot_answer (a justified "the KG does not hold
// this", only after exploring). A refusal tells the model why; it may try again within the budget.
import { z } from "zod";
import { toAppError } from "@/lib/errors";
import type { QueryResult } from "@/lib/kg/types";
import { checkFinalQuery } from "../final-check";
import { prepareQuery } from "../query-guard";
import { EXPLORE_STAGE, plural, type ExplorerTool } from "../tool-env";
import { renderRows } from "./execute-sparql";

export const FINISH = "finish";
export const CANNOT_ANSWER = "cannot_answer";
const MIN_REASON = 15;

export type ExploreOutcome =
  | { kind: "final"; sparql: string; result: QueryResult; capped: boolean; explanation?: string; warnings: string[] }
  | { kind: "cannot"; reason: string };

export interface FinalAttempt {
  sparql: string;
  accepted: boolean;
  problems: string[];
  rows?: number;
}

export interface FinishState {
  outcome?: ExploreOutcome;
  attempts: FinalAttempt[];
  /** empty final queries already refused once (a second finish with the same query is accepted as "no answer") */
  emptyOnce: Set<string>;
  /** exploration tool calls made so far (searches, describes, queries) */
  explored(): number;
  /** warnings for the derivation (e.g. percent-encoding differences) */
  warn(message: string): void;
}

const finishInput = z.object({
  sparql: z.string().min(1).max(20_000).describe("The final SELECT or ASK query; it is run and its rows are the answer."),
  explanation: z.string().max(1000).optional().describe("One sentence on how the query answers the question."),
});

const normalized = (q: string) => q.replace(/\s+/g, " ").trim();

export function finishTool(state: FinishState): ExplorerTool<z.infer<typeof finishInput>> {
  return {
    name: FINISH,
    description:
      "End with the final query. It must use only IRIs that tools returned, select only the variables that hold the answer (no label columns), compute the answer with graph patterns (never paste results of earlier queries in as VALUES/BIND/FILTER constants; the things the question names may be listed in VALUES/IN to choose among), and run. Its rows are shown to the user as the answer.",
    input: finishInput,
    async run({ sparql, explanation }, env, render) {
      const refuse = (problems: string[], rows?: number) => {
        state.attempts.push({ sparql, accepted: false, problems, ...(rows === undefined ? {} : { rows }) });
        return { text: `Not accepted:\n${problems.map((p) => `- ${p}`).join("\n")}\nFix the query and call ${FINISH} again, or explore further.`, data: { accepted: false, problems } };
      };
      // the answer's rows: at most config.rowLimit (the app's cap; evaluation runs raise it)
      const prepared = prepareQuery(sparql, env.shape.prefixes, env.ctx.config.rowLimit);
      if (!prepared.ok) return refuse([prepared.reason]);
      const check = checkFinalQuery(prepared.ast, { known: env.known, labelPredicates: env.ctx.kg.profile.labelPredicates, seenInResults: env.seenInResults, questionConstants: env.questionConstants, asked: env.asked });
      for (const w of check.warnings) state.warn(w);
      if (check.problems.length) return refuse(check.problems);
      let result: QueryResult;
      try {
        result = await env.ctx.sparql(EXPLORE_STAGE, `final query (attempt ${state.attempts.length + 1})`, prepared.sparql);
      } catch (e) {
        const err = toAppError(e);
        if (err.code === "aborted") throw err;
        return refuse([`running it failed: ${err.message}`]);
      }
      const rows = result.kind === "SELECT" ? result.results.bindings.length : 1;
      if (result.kind === "SELECT" && rows === 0 && !state.emptyOnce.has(normalized(prepared.sparql))) {
        state.emptyOnce.add(normalized(prepared.sparql));
        return refuse(
          [`it returned no rows. If the KG really holds no answer, call ${FINISH} again with the same query (the user is told the KG has no answer) or ${CANNOT_ANSWER} with the reason; otherwise check IRIs, directions and literal forms`],
          0,
        );
      }
      state.attempts.push({ sparql: prepared.written, accepted: true, problems: [], rows });
      state.outcome = { kind: "final", sparql: prepared.written, result, capped: prepared.capped, ...(explanation ? { explanation } : {}), warnings: check.warnings };
      const preview = result.kind === "SELECT" && rows > 0 ? await renderRows(env, render, result.head.vars, result.results.bindings.slice(0, 10)) : [];
      const what = result.kind === "ASK" ? `ASK → ${result.boolean}` : plural(rows, "row");
      return { text: [`Accepted: ${what}. The answer goes to the user; you are done.`, ...preview].join("\n"), data: { accepted: true, rows } };
    },
  };
}

const cannotInput = z.object({
  reason: z
    .string()
    .min(1)
    .max(2000)
    .describe("Why the KG cannot answer: what you searched for and what the tools showed (e.g. no property relates these things)."),
});

export function cannotAnswerTool(state: FinishState): ExplorerTool<z.infer<typeof cannotInput>> {
  return {
    name: CANNOT_ANSWER,
    description: "End without a query because the KG does not hold the answer. Only after exploring (search, describe, queries); give the evidence.",
    input: cannotInput,
    async run({ reason }) {
      if (state.explored() === 0) return { text: `Not accepted: explore the KG first (search, describe, run queries); ${CANNOT_ANSWER} needs evidence.`, data: { accepted: false } };
      if (reason.trim().length < MIN_REASON) return { text: "Not accepted: say what you looked for and what the tools showed.", data: { accepted: false } };
      state.outcome = { kind: "cannot", reason: reason.trim() };
      return { text: "Accepted: the user is told the KG cannot answer this, with your reason.", data: { accepted: true } };
    },
  };
}

export const PLAN = "plan";
export const planInput = z.object({
  steps: z.array(z.string().min(1).max(300)).min(1).max(8).describe("The steps you will take, in order, each one short."),
});
