// Builds a candidate for one scope: the query as stored and as run (a LIMIT one past what a small answer may hold, or
// the tie check of a LIMIT k), with its frame named for the scope's class. Every generator of a scope shares it.
import type { Candidate, GeneratorEnv, Make } from "./frames";
import { projects, withTieCheck } from "./query-builder";
import type { SeedScope } from "./seeds";

/** list shapes may hold this many times the usual small-answer bound */
const LIST_FACTOR = 4;

export function candidateMaker(scope: SeedScope, env: GeneratorEnv): Make {
  const { qb } = env;
  const S = scope.name || undefined;
  const limit = (list: boolean) => (list ? env.maxRows * LIST_FACTOR : env.maxRows) + 1;
  return (shape, frame, body, opts = {}): Candidate => {
    const sparql = qb.finish(body);
    let run = opts.runLimit === false ? sparql : `${sparql} LIMIT ${limit(!!opts.list)}`;
    // a LIMIT k answer runs with one row more (and the sort key projected) to see whether it cut a tie
    const tie = opts.tie ? { ...opts.tie, added: !projects(body, opts.tie.v) } : undefined;
    if (tie) run = qb.finish(withTieCheck(body, tie));
    return {
      shape,
      frame: { ...frame, ...(S ? { cls: S } : {}) },
      sparql,
      run,
      mentions: opts.mentions ?? [],
      ...(opts.unfiltered ? { unfiltered: opts.unfiltered } : {}),
      ...(opts.list ? { list: true } : {}),
      ...(tie ? { tie } : {}),
      ...(opts.keyed ? { keyed: true } : {}),
    };
  };
}
