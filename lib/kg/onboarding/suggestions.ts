// Suggested questions for the start page: from the generated examples, short ones with small answers, one per shape
// first (a list, a count, a value, a filter, …) so the chips show what the KG can answer, in a stable order.
import type { Frame } from "./frames";
import type { ExampleShape, GeneratedExample, Suggestion } from "./types";

const MAX_CHARS = 90;
/** Shapes in the order chips show them (the more telling first). */
const ORDER: ExampleShape[] = ["value-of", "class-count", "superlative", "with-value", "two-hop", "count-per-group", "numeric-filter", "date-filter", "compare", "yes-no", "aggregate", "order", "class-list"];

/** Bare value lists ("List the altitude of all apiaries."): values with no subject to read them by — not a chip. */
const BARE_LISTS = new Set<Frame["kind"]>(["list-attribute", "list-ordered", "list-names"]);

export function pickSuggestions(examples: (GeneratedExample & { frame?: Frame })[], count = 5): Suggestion[] {
  const n = Math.max(1, Math.min(6, Math.floor(count)));
  const usable = examples.filter((e) => e.question.length <= MAX_CHARS && e.answerSize >= 1 && e.answerSize <= 20 && !/\b(IRI|SPARQL)\b/.test(e.question) && !(e.frame && BARE_LISTS.has(e.frame.kind)));
  // promoted first, then shorter, then the id for a stable order
  const ranked = [...usable].sort((a, b) => (a.status === b.status ? 0 : a.status === "promoted" ? -1 : 1) || a.question.length - b.question.length || a.id.localeCompare(b.id));
  const out: GeneratedExample[] = [];
  for (const shape of ORDER) {
    const e = ranked.find((x) => x.shape === shape && !out.includes(x));
    if (e) out.push(e);
    if (out.length >= n) break;
  }
  for (const e of ranked) {
    if (out.length >= n) break;
    if (!out.includes(e)) out.push(e);
  }
  return out.map((e) => ({ exampleId: e.id, question: e.question, shape: e.shape }));
}
