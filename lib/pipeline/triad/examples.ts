// The G-agent's few-shot examples: the KG's own (the experience pool when one is given, then the KG profile's
// `examples`, both real queries turned into templates with the KG's labels), topped up from the project's defaults
// (prompts/triad-examples.json); the N most similar to the question are shown.
import { z } from "zod";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { readPromptJson } from "@/lib/prompts";
import { ANSWER_TYPES, type AnswerType } from "./state";
import type { ParsedTemplate } from "./template";
import { templateFromQuery } from "./template-from-query";
import { nodeText, templateTriples, type TPredicate } from "./template-triples";

/** A question with a SPARQL query answering it on the KG (profile examples, the experience pool). */
export interface QueryExample {
  question: string;
  sparql: string;
}

/** Where KG-specific examples come from besides the profile: the experience pool, when the app has one for this KG. */
export type ExampleSource = (question: string, ctx: AgentContext) => Promise<QueryExample[]>;

/** An example as the G-agent's prompt shows it: the question and the answer we want for it. */
export const templateExampleSchema = z.object({
  question: z.string().min(1),
  triplets: z.array(z.tuple([z.string(), z.string(), z.string()])),
  slots: z.record(z.string(), z.string()),
  template: z.string().min(1),
  answer_type: z.enum(ANSWER_TYPES),
});
export type TemplateExample = z.infer<typeof templateExampleSchema>;

export type ExampleOrigin = "pool" | "profile" | "default";

let defaults: TemplateExample[] | undefined;

/** The project's default examples (generic, invented vocabulary). */
export function defaultExamples(): TemplateExample[] {
  defaults ??= z.object({ examples: z.array(templateExampleSchema).min(1) }).parse(readPromptJson("triad-examples")).examples;
  return defaults;
}

/** What a template asks for: yes/no, a count (only a COUNT projected), a value (other aggregates), else entities. */
export function answerTypeOf(template: ParsedTemplate): AnswerType {
  if (template.kind === "ASK") return "boolean";
  const vars = template.ast.queryType === "SELECT" ? template.ast.variables : [];
  const aggregates = vars.flatMap((v) => ("expression" in v && (v.expression as { type?: string }).type === "aggregate" ? [(v.expression as { aggregation?: string }).aggregation] : []));
  if (aggregates.length > 0 && aggregates.length === vars.length) return aggregates.every((a) => a === "count") ? "count" : "value";
  return aggregates.length > 0 ? "value" : "entities";
}

const predicateText = (p: TPredicate, mentions: Record<string, string>) => {
  if (p.kind === "slot") return mentions[p.id] ?? `<${p.id}>`;
  if (p.kind === "var") return `?${p.name}`;
  return p.iri.endsWith("#type") ? "type" : localNameWords(p.iri);
};

/** A real query as a template example: slots named by the KG labels of the IRIs they replaced (else their local names). */
async function toTemplateExamples(examples: QueryExample[], ctx: AgentContext): Promise<TemplateExample[]> {
  const converted = examples.flatMap((e) => {
    try {
      return [{ question: e.question, ...templateFromQuery(e.sparql) }];
    } catch {
      return []; // an example that does not parse is skipped, never shown half-converted
    }
  });
  const iris = [...new Set(converted.flatMap((c) => Object.values(c.slots)))];
  const labels = iris.length ? await fetchLabels(ctx, "qir", iris, "labels of the few-shot examples' IRIs") : new Map<string, string>();
  return converted.map(({ question, template, slots }) => {
    const mentions = Object.fromEntries(Object.entries(slots).map(([id, iri]) => [id, labels.get(iri) ?? localNameWords(iri)]));
    const triplets = templateTriples(template.ast.where).map((t): [string, string, string] => [
      nodeText(t.s, mentions).replace(/^"(.*)"$/, "$1"),
      predicateText(t.p, mentions),
      nodeText(t.o, mentions).replace(/^"(.*)"$/, "$1"),
    ]);
    return { question, triplets, slots: mentions, template: template.text, answer_type: answerTypeOf(template) };
  });
}

/** The N examples shown for `question`: the KG's own (pool and profile) by similarity, then the defaults by similarity. */
export async function selectExamples(
  question: string,
  n: number,
  ctx: AgentContext,
  source?: ExampleSource,
): Promise<{ examples: TemplateExample[]; origins: ExampleOrigin[] }> {
  if (n <= 0) return { examples: [], origins: [] };
  const pool = source ? await source(question, ctx) : [];
  const own: { e: TemplateExample; origin: ExampleOrigin }[] = [
    ...(await toTemplateExamples(pool, ctx)).map((e) => ({ e, origin: "pool" as const })),
    ...(await toTemplateExamples(ctx.kg.profile.examples ?? [], ctx)).map((e) => ({ e, origin: "profile" as const })),
  ];
  const ranked = async <T extends { e: TemplateExample }>(list: T[]): Promise<T[]> => {
    if (list.length <= 1) return list;
    const scores = await ctx.similarity.scores(question, list.map((x) => x.e.question));
    return list.map((x, i) => ({ x, s: scores[i] ?? 0, i })).sort((a, b) => b.s - a.s || a.i - b.i).map((y) => y.x);
  };
  const chosen = (await ranked(own)).slice(0, n);
  if (chosen.length < n) chosen.push(...(await ranked(defaultExamples().map((e) => ({ e, origin: "default" as const })))).slice(0, n - chosen.length));
  return { examples: chosen.map((c) => c.e), origins: chosen.map((c) => c.origin) };
}

/** The examples as the prompt shows them: each question followed by the JSON answer expected for it. */
export function renderExamples(examples: TemplateExample[]): string {
  if (examples.length === 0) return "(no examples)";
  return examples
    .map((e, i) => {
      const { question, ...answer } = e;
      return `Example ${i + 1}\nQuestion: ${question}\nAnswer: ${JSON.stringify(answer)}`;
    })
    .join("\n\n");
}
