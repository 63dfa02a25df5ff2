// What a new chat shows: the LLM status (or what to set), the default KG, and example questions to start with.
import type { LlmStatus } from "@/lib/llm/config";
import { LlmNotice } from "./llm-notice";

const EXAMPLES = ["Who is the author of Harry Potter?", "How many Harry Potter films are there?", "Who founded Warner Bros.?"];

export function EmptyChat({ llm, llmOverridden, defaultKgLabel, onAsk, canAsk }: { llm: LlmStatus; llmOverridden: boolean; defaultKgLabel: string; onAsk: (q: string) => void; canAsk: boolean }) {
  return (
    <div className="flex flex-col gap-4" data-testid="empty-chat">
      <div>
        <h2 className="text-2xl font-semibold tracking-tight">Ask a knowledge graph</h2>
        <p className="text-muted-foreground">
          Chat, in any language and over several turns, with any RDF knowledge graph: agents turn your questions into SPARQL and show
          how they got the answer.
        </p>
      </div>
      <LlmNotice llm={llm} overridden={llmOverridden} />
      <section className="rounded-lg border bg-card p-4 text-sm" data-testid="kg-status" aria-labelledby="kg-heading">
        <h2 id="kg-heading" className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">
          Knowledge graph
        </h2>
        <p>Default: {defaultKgLabel}</p>
        <p className="text-muted-foreground">Pick another above, upload RDF files, or add a SPARQL endpoint.</p>
      </section>
      <div className="flex flex-wrap gap-2">
        {EXAMPLES.map((q) => (
          <button
            key={q}
            type="button"
            disabled={!canAsk}
            onClick={() => onAsk(q)}
            className="rounded-full border bg-card px-3 py-1 text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
          >
            {q}
          </button>
        ))}
      </div>
    </div>
  );
}
