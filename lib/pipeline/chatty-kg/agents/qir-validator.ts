// Triples Validator (paper §4.2.3): assertions on the QIR agent's output, plus normalisation into a Qir.
import { z } from "zod";
import type { Qir, QirTriple, QuestionType } from "../state";
import type { Validation } from "@/lib/pipeline/common/validated-call";

// Numbers are accepted where a name is expected ("released in", 2001) and kept as text.
const term = z.union([z.string(), z.number()]).transform((v) => String(v));

/** What the QIR prompt asks the model for. Triples stay loose here so the validator can say which one is wrong. */
export const qirOutputSchema = z.object({
  reasoning: z.string().optional(),
  entities: z.array(term).default([]),
  unknowns: z.array(term).default([]),
  relations: z.array(term).default([]),
  triples: z.array(z.array(term)),
  target: term.nullable().optional(),
  question_type: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(["factoid", "count", "boolean"])),
});
export type QirOutput = z.output<typeof qirOutputSchema>;

// Helper words that say nothing about the relation (paper: "generic or ambiguous predicates (e.g. has)").
const GENERIC_RELATIONS = new Set(["has", "have", "had", "having", "is", "are", "was", "were", "be", "been", "being", "does", "do", "did", "of", "with"]);

const QUOTES = /^[\s"'`“”‘’«»]+|[\s"'`“”‘’«»]+$/g;

export function isVariable(t: string): boolean {
  return t.startsWith("?");
}

/** Strips quotes and extra spaces; variables become "?name" ("$x" → "?x", "?first film" → "?first_film", "?" → "?x"). */
export function normalizeTerm(raw: string, variableNames: ReadonlySet<string> = new Set()): string {
  const t = raw.replace(QUOTES, "").replace(/\s+/g, " ").trim();
  const bare = t.replace(/^[?$]+/, "");
  const asVariable = t.startsWith("?") || t.startsWith("$") || variableNames.has(t.toLowerCase());
  if (!asVariable) return t;
  const name = bare.replace(/[\s-]+/g, "_").replace(/[^\p{L}\p{N}_]/gu, "");
  return `?${name || "x"}`;
}

function unique<T>(items: T[], key: (t: T) => string = String): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = key(i);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const fail = (reason: string): Validation<Qir> => ({ ok: false, reason });

/**
 * The paper's four assertions — (1) well-formed JSON (the gateway's JSON + schema check; see `validateQirJson`),
 * (2) every triple has a non-empty subject, relation and object, (3) at least one triple references a known entity,
 * (4) a non-boolean question has at least one variable — plus consistency checks that catch real mistakes without
 * judging content: a relation is a phrase (not a variable, not a bare helper verb), a triple does not link a term to
 * itself, and a non-boolean question's target is a variable used in the triples.
 */
export function validateQir(output: QirOutput): Validation<Qir> {
  // Unknowns listed without "?" ("film") still mark that word as a variable in the triples.
  const variableNames = new Set(output.unknowns.map((u) => u.replace(QUOTES, "").replace(/^[?$]+/, "").trim().toLowerCase()).filter(Boolean));
  const questionType: QuestionType = output.question_type;

  if (output.triples.length === 0) return fail("(2) there are no triples: give at least one [subject, relation, object]");
  const triples: QirTriple[] = [];
  for (const [i, parts] of output.triples.entries()) {
    const n = i + 1;
    if (parts.length !== 3) return fail(`(2) triple ${n} ${JSON.stringify(parts)} must have exactly three parts: subject, relation, object`);
    const [subject, rawRelation, object] = parts.map((p, k) => (k === 1 ? p.replace(QUOTES, "").replace(/\s+/g, " ").trim() : normalizeTerm(p, variableNames)));
    const relation = rawRelation.replace(/_/g, " ");
    if (!subject || !relation || !object) {
      const missing = [!subject && "subject", !relation && "relation", !object && "object"].filter(Boolean).join(" and ");
      return fail(`(2) triple ${n} ${JSON.stringify(parts)} has an empty ${missing}`);
    }
    if (isVariable(relation)) return fail(`triple ${n}: the relation "${relation}" must be a phrase from the question, not a variable`);
    if (GENERIC_RELATIONS.has(relation.toLowerCase())) {
      return fail(`triple ${n}: the relation "${relation}" is a helper word; use the verb or noun that names the relation`);
    }
    if (subject.toLowerCase() === object.toLowerCase()) return fail(`triple ${n}: subject and object are both "${subject}"`);
    triples.push({ subject, relation, object });
  }
  const deduped = unique(triples, (t) => `${t.subject}\u0000${t.relation.toLowerCase()}\u0000${t.object}`);

  const terms = deduped.flatMap((t) => [t.subject, t.object]);
  const grounded = unique(terms.filter((t) => !isVariable(t)), (t) => t.toLowerCase());
  const listed = unique(output.entities.map((e) => normalizeTerm(e)).filter((e) => e && !isVariable(e)), (e) => e.toLowerCase());
  if (listed.length === 0) return fail('(3) "entities" is empty: list the entities the question mentions');
  const listedKeys = new Set(listed.map((e) => e.toLowerCase()));
  if (!grounded.some((t) => listedKeys.has(t.toLowerCase()))) {
    return fail(`(3) no triple mentions any of the entities you listed (${listed.map((e) => `"${e}"`).join(", ")})`);
  }
  const variables = unique(terms.filter(isVariable));
  if (questionType !== "boolean" && variables.length === 0) {
    return fail("(4) the question is not yes/no, so at least one triple needs a variable (e.g. \"?x\") for what it asks");
  }

  let target: string | undefined;
  if (questionType !== "boolean") {
    const given = output.target ? normalizeTerm(output.target, variableNames) : "";
    // A single variable is unambiguous, so a missing target is filled in rather than rejected.
    target = given || (variables.length === 1 ? variables[0] : "");
    if (!target) return fail(`"target" is missing: say which of ${variables.join(", ")} the question asks for`);
    if (!variables.includes(target)) return fail(`"target" ${target} must be one of the variables used in the triples (${variables.join(", ")})`);
  }

  // E: every grounded term of the triples (all need linking), spelled as in the triples so later stages can key on it;
  // the ones the model listed come first.
  const entities = [...grounded.filter((g) => listedKeys.has(g.toLowerCase())), ...grounded.filter((g) => !listedKeys.has(g.toLowerCase()))];
  return {
    ok: true,
    value: {
      entities,
      unknowns: variables,
      relations: unique(deduped.map((t) => t.relation), (r) => r.toLowerCase()),
      triples: deduped,
      target,
      questionType,
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
