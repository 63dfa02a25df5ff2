// What a new chat shows: the KG in use (named, with its size), the LLM status (or what to set), and questions to start
// with: the sample KG's own examples; another KG shows its onboarding suggestions (kgui mounts its chips below) or
// none, never another KG's questions. With no model set up the chips are off and say why.
import type { ApiError, KgListItem } from "@/lib/api/contract";
import type { LlmStatus } from "@/lib/llm/config";
import { ErrorNote } from "./error-note";
import { LlmNotice } from "./llm-notice";

/** Starter questions of the embedded sample KG (it is about the Harry Potter films). */
const SAMPLE_EXAMPLES = ["Who is the author of Harry Potter?", "How many Harry Potter films are there?", "Who founded Warner Bros.?"];

export function EmptyChat({
  llm,
  llmOverridden,
  kg,
  defaultKgLabel,
  loadError,
  onAsk,
  askBlocked,
}: {
  llm: LlmStatus;
  llmOverridden: boolean;
  /** the KG the next question goes to (undefined while the list loads) */
  kg: KgListItem | undefined;
  defaultKgLabel: string;
  /** the URL named a conversation that could not be opened */
  loadError?: ApiError | null;
  onAsk: (q: string) => void;
  /** why questions cannot be sent now (null: they can) */
  askBlocked: string | null;
}) {
  const examples = kg?.kind === "sample" ? SAMPLE_EXAMPLES : [];
  return (
    <div className="flex flex-col gap-4" data-testid="empty-chat">
      {loadError && <ErrorNote error={loadError} testId="conversation-load-error" />}
      <div>
        <h2 className="text-xl font-semibold tracking-tight sm:text-2xl">Ask a knowledge graph</h2>
        <p className="text-sm text-muted-foreground sm:text-base">
          Chat, in any language and over several turns, with any RDF knowledge graph: agents turn your questions into SPARQL and show
          how they got the answer.
        </p>
      </div>
      <section className="rounded-lg border bg-card p-4 text-sm" data-testid="kg-status" aria-labelledby="kg-heading">
        <h2 id="kg-heading" className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">
          Knowledge graph in use
        </h2>
        <p className="font-medium" data-testid="kg-in-use">
          {kg ? kg.name : defaultKgLabel}
          {kg?.triples !== undefined && <span className="font-normal text-muted-foreground"> · {kg.triples.toLocaleString("en")} triples</span>}
        </p>
        <p className="text-muted-foreground">Pick another in the settings, upload RDF files, or add a SPARQL endpoint.</p>
      </section>
      <LlmNotice llm={llm} overridden={llmOverridden} />
      {examples.length > 0 && (
        <section aria-label="Questions to start with" className="flex flex-col gap-2" data-testid="starter-questions">
          <div className="flex flex-wrap gap-2">
            {examples.map((q) => (
              <button
                key={q}
                type="button"
                disabled={askBlocked !== null}
                title={askBlocked ?? undefined}
                onClick={() => onAsk(q)}
                className="rounded-full border bg-card px-3 py-1 text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50"
              >
                {q}
              </button>
            ))}
          </div>
          {askBlocked && (
            <p className="text-xs text-muted-foreground" data-testid="chips-disabled-reason">
              {askBlocked}
            </p>
          )}
        </section>
      )}
      {/* kgui chips: the KG's suggested questions from onboarding mount here (kg?.id, onAsk, askBlocked) */}
    </div>
  );
}
