// What a new chat shows: the KG in use (named, with its size), the LLM status (or what to set), and questions to start
// with: the KG's suggested questions from its onboarding (until they exist, its preparation's progress; the sample KG
// shows its own starters meanwhile), never another KG's questions. With no model set up the chips are off and say why.
import type { ApiError, KgListItem } from "@/lib/api/contract";
import type { LlmStatus } from "@/lib/llm/config";
import { SuggestedQuestions } from "@/components/onboarding/suggested-questions";
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
  onOpenOverview,
  strategy,
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
  /** opens the KG overview */
  onOpenOverview?: () => void;
  /** the strategy the next question is answered with (label and one-line description) */
  strategy?: { label: string; description: string };
}) {
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
        <p className="text-muted-foreground">
          Pick another in the settings, upload RDF files, or add a SPARQL endpoint.
          {onOpenOverview && kg && (
            <>
              {" "}
              <button type="button" onClick={onOpenOverview} className="text-primary underline-offset-2 hover:underline" data-testid="kg-status-overview">
                See what this KG holds
              </button>
            </>
          )}
        </p>
        {strategy && (
          <p className="mt-2 border-t pt-2" data-testid="strategy-in-use">
            Answered with the <strong>{strategy.label}</strong> strategy
            {strategy.description ? <span className="text-muted-foreground">: {strategy.description.replace(/\.$/, "")}.</span> : "."}{" "}
            <span className="text-muted-foreground">Change it in the settings; its parameters are under Advanced.</span>
          </p>
        )}
      </section>
      <LlmNotice llm={llm} overridden={llmOverridden} />
      <SuggestedQuestions
        kgId={kg?.id}
        kgName={kg?.name ?? defaultKgLabel}
        onAsk={onAsk}
        canAsk={askBlocked === null}
        disabledReason={askBlocked ?? undefined}
        onOpenOverview={onOpenOverview}
        fallback={kg?.kind === "sample" ? SAMPLE_EXAMPLES : []}
      />
    </div>
  );
}
