// Triples Validator (paper §4.2.3): assertions on the QIR agent's output, plus normalisation into a Qir.
import { z } from "zod";
import type { Qir, QirTriple, QuestionType } from "../state";
import type { Validation } from "@/lib/pipeline/common/validated-call";
import { checkNegated, constraintFields, parseValues, validateConstraints } from "./qir-constraints";
import { isVariable, normalizeTerm, QUOTES, unique } from "./qir-terms";

// Numbers are accepted where a name is expected ("released in", 2001) and kept as text.
const term = z.union([z.string(), z.number()]).transform((v) => String(v));

/** What the QIR prompt asks the model for. Triples stay loose here so the validator can say which one is wrong. */
export const qirOutputSchema = z.object({
  reasoning: z.string().optional(),
  entities: z.array(term).default([]),
  unknowns: z.array(term).default([]),
  relations: z.array(term).default([]),
  triples: z.array(z.array(term)).default([]),
  target: term.nullable().optional(),
  question_type: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(["factoid", "count", "boolean"])),
  ...constraintFields,
});
export type QirOutput = z.output<typeof qirOutputSchema>;

// Helper words that say nothing about the relation (paper: "generic or ambiguous predicates (e.g. has)").
const GENERIC_RELATIONS = new Set(["has", "have", "had", "having", "is", "are", "was", "were", "be", "been", "being", "does", "do", "did", "of", "with"]);
/** A helper word the validator refuses as a relation ("has", "with"): it names no relation by itself. */
export const isHelperRelation = (relation: string) => GENERIC_RELATIONS.has(relation.trim().toLowerCase());

export { isVariable, normalizeTerm } from "./qir-terms";

const fail = (reason: string): Validation<Qir> => ({ ok: false, reason });

/** The constraint fields a composed question may lose (classes and values anchor linking, so they stay). */
const NO_CONSTRAINTS = { filters: null, exclude: null, among: null, aggregates: null, group_by: null, order_by: null, limit: null, offset: null, columns: null };

/** Assertion (2) and the relation checks for one list of triples ("triple 2", "negated triple 1"). */
function normalizeTriples(raw: string[][], variableNames: ReadonlySet<string>, what: string): Validation<QirTriple[]> {
  const triples: QirTriple[] = [];
  for (const [i, parts] of raw.entries()) {
    const n = `${what} ${i + 1}`;
    if (parts.length !== 3) return { ok: false, reason: `(2) ${n} ${JSON.stringify(parts)} must have exactly three parts: subject, relation, object` };
    const [subject, rawRelation, object] = parts.map((p, k) => (k === 1 ? p.replace(QUOTES, "").replace(/\s+/g, " ").trim() : normalizeTerm(p, variableNames)));
    const relation = rawRelation.replace(/_/g, " ");
    if (!subject || !relation || !object) {
      const missing = [!subject && "subject", !relation && "relation", !object && "object"].filter(Boolean).join(" and ");
      return { ok: false, reason: `(2) ${n} ${JSON.stringify(parts)} has an empty ${missing}` };
    }
    if (isVariable(relation)) return { ok: false, reason: `${n}: the relation "${relation}" must be a phrase from the question, not a variable` };
    if (GENERIC_RELATIONS.has(relation.toLowerCase())) {
      return { ok: false, reason: `${n}: the relation "${relation}" is a helper word; use the verb or noun that names the relation` };
    }
    if (subject.toLowerCase() === object.toLowerCase()) return { ok: false, reason: `${n}: subject and object are both "${subject}"` };
    triples.push({ subject, relation, object });
  }
  return { ok: true, value: unique(triples, (t) => `${t.subject}\u0000${t.relation.toLowerCase()}\u0000${t.object}`) };
}

/**
 * The paper's four assertions — (1) well-formed JSON (the gateway's JSON + schema check; see `validateQirJson`),
 * (2) every triple has a non-empty subject, relation and object, (3) at least one triple references a known entity,
 * (4) a non-boolean question has at least one variable — plus consistency checks that catch real mistakes without
 * judging content: a relation is a phrase (not a variable, not a bare helper verb), a triple does not link a term to
 * itself, and a non-boolean question's target is a variable used in the triples.
 * Beyond the paper (qir-constraints.ts): a literal value ("values"), or the class of an unknown ("classes"), is as
 * good an anchor as a named entity for (3), so questions without a named entity pass, and so do relation-level
 * questions that name nothing at all; the constraint fields are checked against the triples' variables.
 */
export function validateQir(output: QirOutput): Validation<Qir> {
  // Unknowns listed without "?" ("film") still mark that word as a variable in the triples.
  const variableNames = new Set(output.unknowns.map((u) => u.replace(QUOTES, "").replace(/^[?$]+/, "").trim().toLowerCase()).filter(Boolean));
  const parsedValues = parseValues(output.values);
  if (!parsedValues.ok) return fail(parsedValues.reason);
  const values = { value: parsedValues.value.values };
  const valueKeys = new Set(values.value.map((v) => v.text.toLowerCase()));
  // a value written differently in the triples than its typed text ("2 km" → "2") takes the typed text there
  const respell = (t: QirTriple): QirTriple => {
    const fix = (x: string) => (isVariable(x) ? x : (parsedValues.value.spelled.get(x.toLowerCase()) ?? x));
    return { ...t, subject: fix(t.subject), object: fix(t.object) };
  };
  const isValue = (t: string) => !isVariable(t) && valueKeys.has(t.toLowerCase());
  const hasClasses = Array.isArray(output.classes) ? output.classes.length > 0 : Object.keys(output.classes ?? {}).length > 0;

  if (output.triples.length === 0 && !hasClasses) {
    return fail('(2) there are no triples: give at least one [subject, relation, object] (or, for "list all X", the class of the unknown in "classes")');
  }
  const positive = normalizeTriples(output.triples, variableNames, "triple");
  if (!positive.ok) return fail(positive.reason);
  const negatedList = normalizeTriples(output.not ?? [], variableNames, "negated triple");
  if (!negatedList.ok) return fail(negatedList.reason);
  const deduped = positive.value.map(respell);
  const negated = negatedList.value.map(respell);

  const terms = [...deduped, ...negated].flatMap((t) => [t.subject, t.object]);
  const grounded = unique(terms.filter((t) => !isVariable(t) && !isValue(t)), (t) => t.toLowerCase());
  const usedValues = values.value.filter((v) => terms.some((t) => t.toLowerCase() === v.text.toLowerCase()));
  const unused = values.value.filter((v) => !usedValues.includes(v));
  if (unused.length) {
    return fail(`"values" ${unused.map((v) => JSON.stringify(v.text)).join(", ")} appear in no triple: put each as the subject or object of the triple it belongs to (comparisons go in "filters")`);
  }
  const listed = unique(output.entities.map((e) => normalizeTerm(e)).filter((e) => e && !isVariable(e) && !isValue(e)), (e) => e.toLowerCase());
  const anchored = usedValues.length > 0 || hasClasses;
  // nothing named at all (no entity, value or class in the triples): a relation-level question, linked among the KG's
  // predicates; an entity used in the triples but not listed is still a mistake the retry fixes
  if (listed.length === 0 && !anchored && grounded.length > 0) {
    return fail('(3) "entities" is empty: list the entities the question mentions (or, without a named entity, give a value in "values" or the class of an unknown in "classes")');
  }
  const listedKeys = new Set(listed.map((e) => e.toLowerCase()));
  if (listed.length > 0 && !grounded.some((t) => listedKeys.has(t.toLowerCase())) && !anchored && !output.compose) {
    return fail(`(3) no triple mentions any of the entities you listed (${listed.map((e) => `"${e}"`).join(", ")})`);
  }
  const classVars = Array.isArray(output.classes) ? output.classes.map((c) => c.var) : Object.keys(output.classes ?? {});
  const variables = unique([...deduped.flatMap((t) => [t.subject, t.object]).filter(isVariable), ...(deduped.length ? [] : classVars.map((v) => normalizeTerm(v.startsWith("?") ? v : `?${v}`, variableNames)))]);
  const questionType: QuestionType = output.question_type;
  if (questionType !== "boolean" && variables.length === 0) {
    return fail("(4) the question is not yes/no, so at least one triple needs a variable (e.g. \"?x\") for what it asks");
  }

  const aliases = new Set((output.aggregates ?? []).map((a) => (a.as ? normalizeTerm(a.as.startsWith("?") ? a.as : `?${a.as}`, variableNames) : "")).filter(Boolean));
  let target: string | undefined;
  if (questionType !== "boolean") {
    const given = output.target ? normalizeTerm(output.target, variableNames) : "";
    // A single variable is unambiguous, so a missing target is filled in rather than rejected.
    target = given || (variables.length === 1 ? variables[0] : "");
    if (!target) return fail(`"target" is missing: say which of ${variables.join(", ")} the question asks for`);
    if (!variables.includes(target) && !aliases.has(target)) return fail(`"target" ${target} must be one of the variables used in the triples (${variables.join(", ")})`);
  }

  const input = { triples: deduped, negated, variableNames, target, questionType };
  let constraints = validateConstraints(output, input);
  // a composed question's query is written from the question itself (query-writer.ts): a constraint field the triples
  // cannot carry is left out rather than sent back (the prompt allows leaving out what the model is unsure of)
  if (!constraints.ok && output.compose) constraints = validateConstraints({ ...output, ...NO_CONSTRAINTS }, input);
  if (!constraints.ok) return fail(constraints.reason);
  const { target: finalTarget, questionType: finalType, ...rest } = constraints.value;
  const negationProblem = checkNegated(negated, deduped, (rest.classes ?? []).map((c) => c.variable));
  if (negationProblem) return fail(negationProblem);

  // E: every grounded term of the triples (all need linking), spelled as in the triples so later stages can key on it;
  // the ones the model listed come first.
  // A composed question also keeps the entities it lists without a triple ("more staff than B?" when no relation phrase
  // joins B): the writer gets them linked.
  const groundedKeys = new Set(grounded.map((g) => g.toLowerCase()));
  const listedOnly = output.compose ? listed.filter((e) => !groundedKeys.has(e.toLowerCase())) : [];
  const entities = [...grounded.filter((g) => listedKeys.has(g.toLowerCase())), ...grounded.filter((g) => !listedKeys.has(g.toLowerCase())), ...listedOnly];
  const allVariables = unique([...variables, ...negated.flatMap((t) => [t.subject, t.object]).filter(isVariable)]);
  return {
    ok: true,
    value: {
      entities,
      unknowns: allVariables,
      relations: unique([...deduped, ...negated].map((t) => t.relation), (r) => r.toLowerCase()),
      triples: deduped,
      target: finalTarget,
      questionType: finalType,
      ...(usedValues.length ? { values: usedValues } : {}),
      ...(negated.length ? { negated } : {}),
      ...rest,
    },
  };
}

/** Assertion (1) for raw text that was already parsed as JSON: the object must match the QIR format, then (2)–(4). */
export function validateQirJson(value: unknown): Validation<Qir> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("(1) the reply must be one JSON object");
  const parsed = qirOutputSchema.safeParse(value);
  if (!parsed.success) {
    return fail(`(1) the JSON does not match the format: ${parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
  }
  return validateQir(parsed.data);
}
