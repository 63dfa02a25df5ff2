// The one-call strategy's retrieval: the solved examples its prompt showed (with their similarity, each query openable
// in the SPARQL panel), the schema cards it chose and the entities found for the question's names.
import type { AimedReport } from "@/lib/pipeline/common/aimed-tool";
import { QueryLine } from "./query-line";

export interface ExamplesAndCards {
  examples: { question: string; similarity: number; sparql: string; source?: string; made?: boolean }[];
  cards: { class?: string; score: number; predicates: number }[];
  entities: { mention: string; iri: string; label: string }[];
}

export function isExamplesAndCards(output: unknown): output is ExamplesAndCards {
  const o = output as Partial<ExamplesAndCards> | null;
  return !!o && typeof o === "object" && Array.isArray(o.examples) && Array.isArray(o.cards) && Array.isArray(o.entities);
}

/** "Made for this question from mill and county: 3 examples (12 candidate queries, 40 queries, 310 ms)." */
export function madeSentence(r: AimedReport & { ms?: number }): string {
  const from = r.classes.length ? ` from ${r.classes.join(", ")}` : "";
  const none = r.skipped ? "none" : !r.classes.length ? "none (the question names no class of this KG)" : r.ran > 0 ? "none (no candidate query gave a small, non-empty answer)" : "none new (the stored examples have every structure these classes give)";
  const what = r.made.length === 0 ? none : `${r.made.length} example${r.made.length === 1 ? "" : "s"}, marked below`;
  // nothing run, nothing to account for
  const cost = r.queries === 0 ? "" : ` (${[`${r.ran} candidate quer${r.ran === 1 ? "y" : "ies"}`, `${r.queries} quer${r.queries === 1 ? "y" : "ies"} in all`, ...(r.ms !== undefined ? [`${Math.round(r.ms)} ms`] : [])].join(", ")})`;
  return `Made for this question${from}: ${what}${cost}${r.skipped ? `: ${r.skipped}` : ""}.`;
}

export function SolvedExamples({ output, made, onOpenQuery }: { output: ExamplesAndCards; made?: AimedReport & { ms?: number }; onOpenQuery: (q: string) => void }) {
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="one-call-retrieval">
      {made && (
        <p data-testid="aimed-examples">
          <span className="text-muted-foreground">{madeSentence(made)}</span>
        </p>
      )}
      {output.examples.length > 0 && (
        <ul className="flex flex-col gap-1" data-testid="solved-examples">
          {output.examples.map((e, i) => (
            <li key={i}>
              <QueryLine query={e.sparql} meta={`example ${i + 1}${e.made ? " · made for this question" : ""} · similarity ${e.similarity.toFixed(2)} · ${e.question}`} onOpen={onOpenQuery} />
            </li>
          ))}
        </ul>
      )}
      {output.cards.length > 0 && (
        <p data-testid="schema-cards">
          <span className="text-muted-foreground">Schema cards: </span>
          {output.cards.map((c) => `${c.class ?? "resources without a class"} (${c.predicates} predicates)`).join(", ")}
        </p>
      )}
      {output.entities.length > 0 && (
        <p>
          <span className="text-muted-foreground">Entities named in the question: </span>
          {output.entities.map((e) => `${e.label} (${e.mention})`).join(", ")}
        </p>
      )}
    </div>
  );
}
