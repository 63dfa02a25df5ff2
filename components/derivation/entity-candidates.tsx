// Entity linking per mention: the label search's top candidates (score, IRI on hover) with the chosen vertex
// highlighted and how it was chosen; mentions linked from the dialogue show only the chosen vertex.
import { CheckIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { EntityLink } from "@/components/chat/entity-link";
import { cn } from "@/lib/utils";
import type { MentionCandidates } from "./derivation-data";

const HOW: Record<string, string> = {
  llm: "chosen by LLM",
  exact: "exact label",
  single: "only candidate",
  context: "from the previous answer",
};

export function EntityCandidates({ mentions, onOpenEntity }: { mentions: MentionCandidates[]; onOpenEntity: (iri: string) => void }) {
  if (mentions.length === 0) return null;
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="linked-vertices">
      {mentions.map((m) => {
        const chosenInTop = m.chosen ? m.top.some((c) => c.iri === m.chosen!.iri) : false;
        return (
          <section key={m.mention} data-testid="mention-candidates" data-mention={m.mention} aria-label={`Candidates for ${m.mention}`}>
            <p className="flex flex-wrap items-center gap-1.5">
              <span className="font-mono">&ldquo;{m.mention}&rdquo;</span>
              {m.chosen ? (
                <>
                  →
                  <EntityLink iri={m.chosen.iri} label={m.chosen.label} onOpen={onOpenEntity} />
                  <Badge variant="muted">{HOW[m.chosen.how] ?? m.chosen.how}</Badge>
                </>
              ) : null}
              <span className="text-muted-foreground tabular-nums">
                {m.count} candidate{m.count === 1 ? "" : "s"}
                {m.top.length > 0 && m.top.length < m.count ? `, top ${m.top.length}` : ""}
              </span>
            </p>
            {m.error && <p className="text-destructive">Label search failed: {m.error}</p>}
            {m.top.length > 0 && (
              <ol className="mt-1 ml-1 flex flex-col border-l pl-2" data-testid="candidate-list">
                {m.top.map((c) => {
                  const chosen = c.iri === m.chosen?.iri;
                  return (
                    <li
                      key={c.iri}
                      data-testid="vertex-candidate"
                      data-chosen={chosen || undefined}
                      aria-current={chosen ? "true" : undefined}
                      className={cn("flex items-center gap-1.5 rounded px-1 py-px", chosen && "bg-success/15 font-medium")}
                    >
                      {chosen ? <CheckIcon className="size-3 shrink-0 text-success" aria-label="chosen" /> : <span className="size-3 shrink-0" aria-hidden />}
                      <button type="button" title={c.iri} onClick={() => onOpenEntity(c.iri)} className="min-w-0 truncate text-left hover:underline focus-visible:ring-2 focus-visible:ring-ring">
                        {c.label}
                      </button>
                      {c.score !== undefined && <span className="ml-auto tabular-nums text-muted-foreground">{c.score.toFixed(2)}</span>}
                    </li>
                  );
                })}
              </ol>
            )}
            {m.chosen && m.top.length > 0 && !chosenInTop && (
              <p className="mt-0.5 text-muted-foreground">The chosen vertex is outside the top {m.top.length} shown.</p>
            )}
          </section>
        );
      })}
    </div>
  );
}
