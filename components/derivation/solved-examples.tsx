// The one-call strategy's retrieval: the solved examples its prompt showed (with their similarity, each query openable
// in the SPARQL panel), the schema cards it chose and the entities found for the question's names.
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

export function SolvedExamples({ output, onOpenQuery }: { output: ExamplesAndCards; onOpenQuery: (q: string) => void }) {
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="one-call-retrieval">
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
