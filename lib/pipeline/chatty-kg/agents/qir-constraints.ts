// The QIR's constraint fields (what a basic graph pattern cannot say): their JSON shape and the Triples validator's checks.
//
// Decisions:
// - Every field is optional and nullable: a plain question carries none, so nothing here costs it a token or a call.
// - Variables in constraints must be variables the triples use (or an aggregate's alias where an alias fits): a
//   constraint on a variable no triple binds is a model mistake the retry can fix, and is rejected saying so.
// - Unambiguous omissions are repaired, not rejected: a per-group aggregate without group_by groups by the target and
//   the other shown variables; a "count" question with group_by becomes a COUNT per group; an aggregated target is
//   shown as its aggregate's alias.
import { z } from "zod";
import type { AggregateFn, ComparisonOp, Qir, QirAggregate, QirAmong, QirClass, QirComparison, QirExclusion, QirOrder, QirTriple, QirValue, QuestionType } from "../state";
import type { Validation } from "@/lib/pipeline/common/validated-call";
import { isVariable, normalizeTerm, QUOTES, typedValue, unique } from "./qir-terms";

const term = z.union([z.string(), z.number()]).transform((v) => String(v));
const scalar = z.union([z.string(), z.number(), z.boolean()]).transform((v) => (typeof v === "boolean" ? String(v) : v));
const valueItem = z.union([scalar, z.object({ text: scalar.optional(), value: scalar.optional(), type: z.string().nullish() })]);
const orderItem = z.object({ var: z.string(), dir: z.string().nullish(), count: z.boolean().nullish() });

/** The constraint fields as the model may send them (loose: the checks below say what is wrong). */
export const constraintFields = {
  values: z.array(valueItem).nullish(),
  classes: z.union([z.array(z.object({ var: z.string(), class: z.string() })), z.record(z.string(), z.string())]).nullish(),
  filters: z.array(z.object({ var: z.string(), op: z.string(), value: z.union([valueItem, z.array(valueItem)]).nullish(), var2: z.string().nullish() })).nullish(),
  not: z.array(z.array(term)).nullish(),
  exclude: z.object({ var: z.string(), entities: z.array(term).nullish(), earlier_answers: z.boolean().nullish() }).nullish(),
  among: z.object({ var: z.string(), entities: z.array(term) }).nullish(),
  aggregates: z.array(z.object({ fn: z.string(), var: z.string().nullish(), as: z.string().nullish() })).nullish(),
  group_by: z.array(z.string()).nullish(),
  order_by: z.union([orderItem, z.array(orderItem)]).nullish(),
  limit: z.number().nullish(),
  offset: z.number().nullish(),
  columns: z.array(z.string()).nullish(),
  compose: z.boolean().nullish(),
};
export type ConstraintsOutput = z.output<z.ZodObject<typeof constraintFields>>;

type ValueInput = z.output<typeof valueItem>;

const AGGREGATES: readonly AggregateFn[] = ["count", "sum", "avg", "min", "max"];
const OPS: Record<string, ComparisonOp> = {
  "=": "=", "==": "=", eq: "=", "!=": "!=", "<>": "!=", "≠": "!=", ne: "!=", "<": "<", lt: "<", "<=": "<=", "≤": "<=", le: "<=",
  ">": ">", gt: ">", ">=": ">=", "≥": ">=", ge: ">=", between: "between", in: "in", contains: "contains",
};

export interface ConstraintInput {
  /** normalised triples of the question and of `not` (the caller checked their shape) */
  triples: QirTriple[];
  negated: QirTriple[];
  /** lower-cased names the model listed as unknowns (so "film" reads as ?film) */
  variableNames: ReadonlySet<string>;
  target: string | undefined;
  questionType: QuestionType;
}

/** What the constraints add to the QIR, plus the target and question type they may have repaired. */
export type Constraints = Pick<Qir, "classes" | "comparisons" | "exclude" | "among" | "aggregates" | "groupBy" | "order" | "limit" | "offset" | "columns" | "compose"> & {
  target: string | undefined;
  questionType: QuestionType;
};

const fail = <T>(reason: string): Validation<T> => ({ ok: false, reason });

/** The `values` list: literal triple ends, typed; `spelled` maps each as written (lower case) to its typed text ("2 km" → "2"). */
export function parseValues(raw: ValueInput[] | null | undefined): Validation<{ values: QirValue[]; spelled: Map<string, string> }> {
  const values: QirValue[] = [];
  const spelled = new Map<string, string>();
  for (const v of raw ?? []) {
    const text = typeof v === "object" ? (v.text ?? v.value) : v;
    if (text === undefined) return fail('"values": each value needs its text ({"text": "Alfama", "type": "string"})');
    const typed = typedValue(text, typeof v === "object" ? (v.type ?? undefined) : undefined);
    if ("error" in typed) return fail(`"values": ${typed.error}`);
    values.push(typed);
    spelled.set(String(text).replace(QUOTES, "").replace(/\s+/g, " ").trim().toLowerCase(), typed.text);
  }
  return { ok: true, value: { values: unique(values, (v) => v.text.toLowerCase()), spelled } };
}

const varsOf = (triples: QirTriple[]) => unique(triples.flatMap((t) => [t.subject, t.object]).filter(isVariable));

export function validateConstraints(out: ConstraintsOutput, input: ConstraintInput): Validation<Constraints> {
  const norm = (v: string) => normalizeTerm(v, input.variableNames);
  const positive = new Set(varsOf(input.triples));
  const negatedVars = new Set(varsOf(input.negated));
  const listed = (set: Set<string>) => [...set].join(", ") || "none";
  let { target, questionType } = input;

  // classes: "?hotel is a hotel"
  const rawClasses = Array.isArray(out.classes) ? out.classes.map((c) => [c.var, c.class] as const) : Object.entries(out.classes ?? {});
  const classes: QirClass[] = [];
  for (const [v, c] of rawClasses) {
    const variable = norm(v.startsWith("?") || v.startsWith("$") ? v : `?${v}`);
    const mention = c.replace(QUOTES, "").replace(/\s+/g, " ").trim();
    if (!mention || isVariable(mention)) return fail(`"classes": give the class of ${variable} as a word from the question ("hotel"), not ${JSON.stringify(c)}`);
    // a class-only question ("How many hotels are there?") has no triples: its class variable is what it asks for
    if (input.triples.length === 0 && positive.size === 0) positive.add(variable);
    // a composed question may name a class of its own ("what share of the staff are managers": ?m a manager, no triple)
    if (!positive.has(variable) && !negatedVars.has(variable) && out.compose) positive.add(variable);
    if (!positive.has(variable) && !negatedVars.has(variable)) return fail(`"classes": ${variable} is not a variable of the triples (${listed(positive)})`);
    classes.push({ variable, mention });
  }

  // aggregates and grouping
  const aggregates: QirAggregate[] = [];
  for (const a of out.aggregates ?? []) {
    const fn = a.fn.trim().toLowerCase() as AggregateFn;
    if (!AGGREGATES.includes(fn)) return fail(`"aggregates": "fn" must be one of ${AGGREGATES.join(", ")}, not ${JSON.stringify(a.fn)}`);
    const variable = a.var ? norm(a.var) : fn === "count" ? (target ?? "") : "";
    if (!positive.has(variable)) return fail(`"aggregates": ${fn} needs a variable of the triples to aggregate (${listed(positive)}), not ${JSON.stringify(a.var ?? null)}`);
    let alias = a.as ? norm(a.as.startsWith("?") ? a.as : `?${a.as}`) : `?${fn}_${variable.slice(1)}`;
    if (positive.has(alias) || negatedVars.has(alias)) alias = `?${fn}_${variable.slice(1)}`;
    if (aggregates.some((x) => x.alias === alias)) return fail(`"aggregates": two aggregates are named ${alias}; give each its own "as"`);
    aggregates.push({ fn, variable, alias });
  }
  let groupBy = unique((out.group_by ?? []).map(norm));
  for (const g of groupBy) if (!positive.has(g)) return fail(`"group_by": ${g} is not a variable of the triples (${listed(positive)})`);

  // "How many X per Y" sent as a count question with groups: a COUNT per group, shown beside the group
  if (questionType === "count" && groupBy.length > 0 && aggregates.length === 0 && target && positive.has(target)) {
    aggregates.push({ fn: "count", variable: target, alias: `?count_${target.slice(1)}` });
    target = groupBy[0];
    questionType = "factoid";
  }
  if (aggregates.length > 0 && questionType !== "factoid") {
    return fail(`"aggregates" need question_type "factoid" (a ${questionType} question ${questionType === "count" ? "already counts its target" : "is answered yes or no"}); remove them or change the type`);
  }
  const aliases = new Set(aggregates.map((a) => a.alias));
  const known = (v: string) => positive.has(v) || aliases.has(v);

  // columns shown beside the target
  const columns = unique((out.columns ?? []).map(norm)).filter((c) => c !== target);
  for (const c of columns) if (!known(c)) return fail(`"columns": ${c} is neither a variable of the triples (${listed(positive)}) nor an aggregate's "as"`);

  if (aggregates.length > 0) {
    // the aggregated variable asked for is shown as its aggregate ("the average rating" → ?avg_rating)
    const byInput = new Map(aggregates.map((a) => [a.variable, a.alias]));
    if (target && !aliases.has(target) && !groupBy.includes(target) && byInput.has(target)) target = byInput.get(target);
    const shown = unique([target, ...columns].filter((v): v is string => !!v));
    // a shown variable that is not aggregated describes the group ("for each neighbourhood", its name): group by it
    if (shown.some((v) => !aliases.has(v))) groupBy = unique([...groupBy, ...shown.filter((v) => !aliases.has(v))]);
  }

  // comparisons (FILTER; HAVING on an aggregate's alias)
  const comparisons: QirComparison[] = [];
  for (const f of out.filters ?? []) {
    const variable = norm(f.var);
    const op = OPS[f.op.trim().toLowerCase()];
    if (!op) return fail(`"filters": "op" must be one of =, !=, <, <=, >, >=, between, in, contains; not ${JSON.stringify(f.op)}`);
    if (!known(variable)) return fail(`"filters": ${variable} is not a variable of the triples (${listed(positive)}); add the triple that binds it`);
    if (f.var2) {
      const other = norm(f.var2);
      if (!known(other)) return fail(`"filters": ${other} ("var2") is not a variable of the triples (${listed(positive)})`);
      if (["between", "in", "contains"].includes(op)) return fail(`"filters": "${op}" compares with values, not with another variable`);
      comparisons.push({ variable, op, values: [], other });
      continue;
    }
    const raw = f.value === undefined || f.value === null ? [] : Array.isArray(f.value) ? f.value : [f.value];
    const parsed = parseValues(raw);
    if (!parsed.ok) return fail(`"filters" on ${variable}: ${parsed.reason.replace(/^"values": /, "")}`);
    const values = { value: parsed.value.values };
    const n = values.value.length;
    if (op === "between" && n !== 2) return fail(`"filters": "between" on ${variable} needs two values [low, high], got ${n}`);
    if (op === "in" && n === 0) return fail(`"filters": "in" on ${variable} needs a list of values`);
    if (!["between", "in"].includes(op) && n !== 1) return fail(`"filters": "${op}" on ${variable} needs one "value" (or "var2"), got ${n}`);
    if (["<", "<=", ">", ">=", "between"].includes(op) && values.value.some((v) => v.type === "string")) {
      return fail(`"filters": "${op}" on ${variable} compares numbers or dates, not text (${values.value.map((v) => JSON.stringify(v.text)).join(", ")})`);
    }
    if (op === "between" && values.value[0].type !== values.value[1].type) return fail(`"filters": "between" on ${variable} needs two values of one type`);
    comparisons.push({ variable, op, values: op === "contains" ? [{ text: values.value[0].text, type: "string" }] : values.value });
  }

  // order, limit, offset
  const order: QirOrder[] = [];
  for (const o of out.order_by === undefined || out.order_by === null ? [] : Array.isArray(out.order_by) ? out.order_by : [out.order_by]) {
    const variable = norm(o.var);
    if (!known(variable)) return fail(`"order_by": ${variable} is neither a variable of the triples (${listed(positive)}) nor an aggregate's "as"`);
    const dir = (o.dir ?? "asc").trim().toLowerCase();
    if (dir !== "asc" && dir !== "desc") return fail(`"order_by": "dir" must be "asc" or "desc", not ${JSON.stringify(o.dir)}`);
    order.push({ variable, direction: dir, ...(o.count ? { count: true } : {}) });
  }
  const limit = out.limit ?? undefined;
  const offset = out.offset ?? undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) return fail(`"limit" must be a whole number ≥ 1 (or null), not ${limit}`);
  if (offset !== undefined && (!Number.isInteger(offset) || offset < 0)) return fail(`"offset" must be a whole number ≥ 0 (or null), not ${offset}`);
  if (questionType === "boolean" && (order.length || limit !== undefined || aggregates.length)) {
    return fail('a yes/no question has no "order_by", "limit" or "aggregates"; remove them or change question_type');
  }
  if (order.some((o) => o.count) && aggregates.length === 0 && !target) return fail('"order_by" with "count" needs a target to count per');

  // exclusion of earlier answers / named entities
  let exclude: QirExclusion | undefined;
  if (out.exclude) {
    const variable = norm(out.exclude.var);
    if (!positive.has(variable)) return fail(`"exclude": ${variable} is not a variable of the triples (${listed(positive)})`);
    const entities = unique((out.exclude.entities ?? []).map((e) => normalizeTerm(e)).filter((e) => e && !isVariable(e)), (e) => e.toLowerCase());
    const earlierAnswers = out.exclude.earlier_answers === true;
    if (entities.length === 0 && !earlierAnswers) return fail('"exclude" needs "entities" to leave out or "earlier_answers": true');
    exclude = { variable, entities, earlierAnswers };
  }

  // "which of A and B": the variable ranges over the named entities
  let among: QirAmong | undefined;
  if (out.among) {
    const variable = norm(out.among.var);
    if (!positive.has(variable)) return fail(`"among": ${variable} is not a variable of the triples (${listed(positive)})`);
    const entities = unique(out.among.entities.map((e) => normalizeTerm(e)).filter((e) => e && !isVariable(e)), (e) => e.toLowerCase());
    if (entities.length < 2) return fail(`"among" names the entities ${variable} is chosen from: give at least two ({"var": "?x", "entities": ["A", "B"]})`);
    among = { variable, entities };
  }

  return {
    ok: true,
    value: {
      target,
      questionType,
      ...(among ? { among } : {}),
      ...(classes.length ? { classes: unique(classes, (c) => `${c.variable} ${c.mention.toLowerCase()}`) } : {}),
      ...(comparisons.length ? { comparisons } : {}),
      ...(exclude ? { exclude } : {}),
      ...(aggregates.length ? { aggregates } : {}),
      ...(groupBy.length ? { groupBy } : {}),
      ...(order.length ? { order } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(offset !== undefined && offset > 0 ? { offset } : {}),
      ...(columns.length ? { columns } : {}),
      ...(out.compose ? { compose: true } : {}),
    },
  };
}

/** Checks the negated triples: each group must touch a variable of the question's own triples (else it negates nothing). */
export function checkNegated(negated: QirTriple[], triples: QirTriple[], classVars: string[]): string | undefined {
  if (negated.length === 0) return undefined;
  const outer = new Set([...varsOf(triples), ...classVars]);
  if (!negated.some((t) => outer.has(t.subject) || outer.has(t.object))) {
    return `"not": the negated triples must use a variable of the other triples (${[...outer].join(", ") || "none"}), e.g. ["?hotel", "restaurant", "?r"] for hotels without a restaurant`;
  }
  return undefined;
}
