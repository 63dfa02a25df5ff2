// Scripted questions over a KG written by scripts/gen-triples.ts, for the pipeline bench on large graphs: entities are
// picked among the first 150,000 (present from a 1M-triple file up), so the 1M and 10M benches ask the same questions.
import type { Ck25Question } from "@/lib/eval/ck25-scripted";
import { generateTriples, GEN_NAMESPACE } from "../gen-triples";

/** Entity indices asked about: spread over the first 150,000 entities. */
export const GEN_QUESTION_ENTITIES = [7, 15_011, 30_029, 45_047, 60_061, 75_079, 90_089, 105_097, 120_103, 135_119];

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The @en label of each entity index (the generator is deterministic: same seed, same names, whatever the size). */
export function generatedLabels(indices: number[] = GEN_QUESTION_ENTITIES): Map<number, string> {
  const wanted = new Set(indices);
  const labels = new Map<number, string>();
  const last = Math.max(...indices);
  const label = new RegExp(`^<${escapeRegex(GEN_NAMESPACE)}e(\\d+)> <http://www\\.w3\\.org/2000/01/rdf-schema#label> "([^"]*)"@en \\.$`);
  for (const line of generateTriples((last + 1) * 6)) {
    const m = label.exec(line);
    if (m && wanted.has(Number(m[1]))) labels.set(Number(m[1]), m[2]);
  }
  return labels;
}

function ask(id: number, question: string, entity: string, relation: string, unknown: string, predicate: string): Ck25Question {
  const qir = { entities: [entity], unknowns: [unknown], relations: [relation], triples: [[entity, relation, unknown]], target: unknown, question_type: "factoid" };
  return {
    id,
    kind: "generated",
    question,
    replies: {
      chat: [{ toolCall: { name: "ask_knowledge_graph", input: { question, language: "en", context_dependent: false, qir } } }],
      // the entity's own label, not "<name> (city)" or another entity whose label contains it
      vertex: [{ choices: { [entity]: `#^${escapeRegex(entity)}( —|$)` } }],
      predicates: [{ reasoning: `The question asks for '${relation}'.`, predicates: [`#^${predicate}( \\(|$)`] }],
    },
  };
}

/** Two questions per entity: what it is related to, and its rank. */
export function generatedQuestions(indices: number[] = GEN_QUESTION_ENTITIES): Ck25Question[] {
  const labels = generatedLabels(indices);
  return indices.flatMap((i, k) => {
    const name = labels.get(i);
    if (!name) throw new Error(`entity e${i} has no label in the generated KG`);
    return [
      ask(2 * k + 1, `What is ${name} related to?`, name, "related to", "?thing", "related to"),
      ask(2 * k + 2, `What is the rank of ${name}?`, name, "rank", "?rank", "rank"),
    ];
  });
}
