// Entity linking per mention: the label search's top candidates (score, IRI on hover) with the chosen vertex
// highlighted and how it was chosen; mentions linked from the dialogue show only the chosen vertex. When the turn can
// be corrected: "Use" on another candidate, or "Find another…" (label search), re-runs the turn from entity linking.
"use client";
import { useState } from "react";
import { CheckIcon, SearchIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { EntityLink } from "@/components/chat/entity-link";
import { cn } from "@/lib/utils";
import { middleTruncate, type MentionCandidates } from "./derivation-data";
import { useCorrector } from "./corrector";
import { EntitySearch } from "./entity-search";

const HOW: Record<string, string> = {
  llm: "chosen by LLM",
  exact: "exact label",
  single: "only candidate",
  context: "from the previous answer",
  user: "your choice",
};

export function EntityCandidates({ mentions, onOpenEntity }: { mentions: MentionCandidates[]; onOpenEntity: (iri: string) => void }) {
  const corrector = useCorrector("vertex");
  const [searching, setSearching] = useState<string | null>(null);
  if (mentions.length === 0) return null;
  const use = (mention: string, v: { iri: string; label: string }) => corrector?.rerun({ kind: "vertex", mention, iri: v.iri, label: v.label });
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
                      <button type="button" title={c.iri} onClick={() => onOpenEntity(c.iri)} className="max-w-[60%] shrink-0 text-left break-words hover:underline focus-visible:ring-2 focus-visible:ring-ring">
                        {c.label}
                      </button>
                      {/* same-named candidates: the IRI's last part tells them apart (cut in the middle; the whole IRI on hover) */}
                      {m.top.some((o) => o !== c && o.label === c.label) && (
                        <span className="min-w-0 overflow-hidden font-mono text-[11px] text-ellipsis whitespace-nowrap text-muted-foreground" data-testid="candidate-iri" title={c.iri}>
                          {middleTruncate(c.iri.replace(/^.*[/#]/, ""), 28)}
                        </span>
                      )}
                      {/* found through the KG lexicon: which of its names matched, and where that name came from */}
                      {c.matched && (
                        <span className="min-w-0 truncate text-[11px] text-muted-foreground" data-testid="candidate-matched" title={`matched the name “${c.matched.name}” from ${c.matched.via}`}>
                          matched “{c.matched.name}” via {c.matched.via}
                        </span>
                      )}
                      {c.score !== undefined && <span className="ml-auto tabular-nums text-muted-foreground">{c.score.toFixed(2)}</span>}
                      {corrector && (
                        // the chosen row keeps an empty slot of the same width: rows stay aligned
                        <span className="w-10 shrink-0 text-right">
                          {!chosen && (
                            <Button
                              size="sm"
                              variant="outline"
                              className="h-5 px-1.5 text-[11px]"
                              disabled={corrector.disabled}
                              onClick={() => use(m.mention, c)}
                              aria-label={`Use ${c.label} (${c.iri}) for “${m.mention}” and re-run from here`}
                              data-testid="use-candidate"
                            >
                              Use
                            </Button>
                          )}
                        </span>
                      )}
                    </li>
                  );
                })}
              </ol>
            )}
            {m.chosen && m.top.length > 0 && !chosenInTop && (
              <p className="mt-0.5 text-muted-foreground">The chosen vertex is outside the top {m.top.length} shown.</p>
            )}
            {corrector && (
              <>
                <Button
                  size="sm"
                  variant="ghost"
                  className="mt-0.5 h-6 px-1.5 text-[11px]"
                  aria-expanded={searching === m.mention}
                  onClick={() => setSearching(searching === m.mention ? null : m.mention)}
                  data-testid="find-vertex"
                >
                  <SearchIcon /> Find another vertex…
                </Button>
                {searching === m.mention && <EntitySearch kgId={corrector.kgId} mention={m.mention} disabled={corrector.disabled} onChoose={(hit) => use(m.mention, hit)} />}
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}
