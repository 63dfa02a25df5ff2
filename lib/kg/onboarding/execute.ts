// Runs a candidate and decides whether it makes a good solved example: a non-empty, small answer that is not
// degenerate (a filter that keeps every instance, a lone 0, an aggregate over nothing, one group only or a group per
// instance), and a structure (template) the pool does not hold yet.
import { toAppError } from "@/lib/errors";
import type { Lexicon } from "@/lib/kg/lexicon";
import type { QueryResult, Term } from "@/lib/kg/types";
import { ONBOARDING_STAGE, type OnboardingContext } from "./context";
import { repeats, sameText, type Candidate } from "./frames";
import { mentionOf } from "./generators";
import { GROUP_COUNT_KINDS } from "./generators-groups";

export type Verdict = { keep: true; answerSize: number; preview: string[] } | { keep: false; reason: string };

const COUNT_VAR = /^(count|sum|avg|max|min)$/;

/** The verdict on a candidate's result (exported for the degenerate-answer tests). */
export function judgeResult(c: Candidate, result: QueryResult, maxRows: number, lexicon?: Lexicon): Verdict {
  if (result.kind === "ASK") return { keep: true, answerSize: 1, preview: [result.boolean ? "yes" : "no"] };
  if (result.kind !== "SELECT") return { keep: false, reason: "not a SELECT or ASK" };
  let rows = result.results.bindings;
  if (rows.length === 0) return { keep: false, reason: "empty answer" };
  let vars = result.head.vars;
  if (c.tie) {
    // ran with one row more than the query keeps: equal sort keys there mean the LIMIT cut a tie
    const key = (r: (typeof rows)[number]) => r[c.tie?.v ?? ""]?.value;
    const { k } = c.tie;
    if (rows.length > k && key(rows[k - 1]) !== undefined && key(rows[k - 1]) === key(rows[k])) return { keep: false, reason: "a tie at the limit (LIMIT would cut equal values)" };
    rows = rows.slice(0, k);
    // the sort key added to the run's projection is no part of the answer
    if (c.tie.added) vars = vars.filter((v) => v !== c.tie?.v);
  }
  const bound = rows.filter((r) => Object.keys(r).length > 0);
  if (bound.length === 0) return { keep: false, reason: "no value bound (an aggregate over nothing)" };
  const cap = c.list ? maxRows * 4 : maxRows;
  if (rows.length > cap) return { keep: false, reason: `answer too big (more than ${cap} rows)` };
  const single = rows.length === 1 && vars.length === 1 ? rows[0][vars[0]] : undefined;
  if (single && COUNT_VAR.test(vars[0])) {
    const n = Number(single.value);
    if (!Number.isFinite(n)) return { keep: false, reason: "an aggregate that is not a number" };
    if (vars[0] === "count" && n === 0) return { keep: false, reason: "a lone 0" };
    if (vars[0] === "count" && c.unfiltered !== undefined && n >= c.unfiltered && c.unfiltered > 1) return { keep: false, reason: "the filter keeps every instance" };
  }
  if (c.unfiltered !== undefined && c.unfiltered > 1 && !single && rows.length >= c.unfiltered) return { keep: false, reason: "the filter keeps every instance" };
  if (c.frame.kind === "count-per-group" || GROUP_COUNT_KINDS.has(c.frame.kind)) {
    if (rows.length < 2) return { keep: false, reason: "one group only" };
    if (rows.every((r) => r.count?.value === "1")) return { keep: false, reason: "a group per instance" };
  }
  if (c.frame.kind === "group-having" && rows.length < 1) return { keep: false, reason: "no group passes" };
  // looking a thing up by its own key returns the thing itself (or a count of 1): nothing learnt
  if (c.keyed && rows.length === 1 && (!COUNT_VAR.test(vars[0] ?? "") || Number(rows[0][vars[0]]?.value) === 1)) return { keep: false, reason: "looks a thing up by its own key" };
  const first = rows.length === 1 && vars.length === 1 ? rows[0][vars[0]] : undefined;
  // a text that contains the word asked for holds it by design: only the word alone is an echo
  const echoes = (m: string, a: string) => (c.frame.kind === "contains" ? sameText(m, a) : repeats(m, a));
  if (first && c.frame.kind !== "compare" && !COUNT_VAR.test(vars[0]) && c.mentions.some((m) => echoes(m, show(first, lexicon)))) return { keep: false, reason: "the answer repeats what the question names" };
  const preview = rows.slice(0, 5).map((r) => vars.map((v) => show(r[v], lexicon)).filter(Boolean).join(", "));
  return { keep: true, answerSize: single && COUNT_VAR.test(vars[0]) ? 1 : rows.length, preview };
}

function show(t: Term | undefined, lexicon?: Lexicon): string {
  if (!t) return "";
  if (t.type === "uri") return (lexicon && mentionOf(lexicon, t.value)) ?? t.value;
  return t.value.slice(0, 80);
}

/** Runs one candidate (its bounded form); a failed query is a rejected candidate, not a failed job, unless cancelled. */
export async function executeCandidate(octx: OnboardingContext, c: Candidate, maxRows: number, lexicon?: Lexicon): Promise<Verdict> {
  try {
    const result = await octx.ctx.sparql(ONBOARDING_STAGE, `onboarding: candidate ${c.shape}`, c.run, { perKgBuild: true });
    return judgeResult(c, result, maxRows, lexicon);
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted" || octx.ctx.signal?.aborted) throw err;
    // the KG itself is gone: the job cannot go on
    if (err.code === "kg_unreachable" || err.code === "kg_unavailable") throw err;
    return { keep: false, reason: `did not run: ${err.message}` };
  }
}
