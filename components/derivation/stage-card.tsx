// One card per pipeline stage: status and time, its summary, its structured output, and its LLM calls, queries, warnings.
"use client";
import { CheckIcon, CircleSlashIcon, LoaderCircleIcon, TriangleAlertIcon, WrenchIcon } from "lucide-react";
import { STAGE_LABELS } from "@/components/chat/stage-labels";
import { Badge } from "@/components/ui/badge";
import { USER_CHOICE_TOOL } from "@/lib/pipeline/corrections";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { cn } from "@/lib/utils";
import { isSetupWarning, type queryRuns } from "./derivation-data";
import type { StageGroup } from "./group-events";
import { LlmCallView } from "./llm-call-view";
import { QueryLine } from "./query-line";
import { StageOutput, STRUCTURED_TOOLS } from "./stage-output";

export function StageCard({
  group,
  events,
  running,
  runs,
  mark,
  onOpenQuery,
  onOpenEntity,
}: {
  group: StageGroup;
  /** every event of the attempt */
  events: DerivationEvent[];
  running: boolean;
  runs: ReturnType<typeof queryRuns>;
  /** in a re-run: this step was kept from the corrected attempt (not run again), or is the one the user corrected */
  mark?: { kind: "kept" | "decided"; from: number };
  onOpenQuery: (q: string, language?: "sparql" | "sql") => void;
  onOpenEntity: (iri: string) => void;
}) {
  const { stage, end, part, continued } = group;
  const failed = end?.summary.startsWith("Failed");
  const live = !end && running;
  // tool calls shown above as candidates/rankings, and candidate queries listed in the execution output, are not repeated
  const executedListed = stage === "execution" && Array.isArray(end?.output);
  const details = group.details.filter(
    (e) =>
      !(e.type === "tool-call" && STRUCTURED_TOOLS[stage]?.includes(e.tool) && (!e.error || stage === "retrieval")) &&
      // only the latest progress line of a long step is worth showing
      !(e.type === "progress" && e !== group.details.findLast((x) => x.type === "progress")) &&
      !(executedListed && e.type === "sparql" && e.purpose.startsWith("candidate #")) &&
      // the correction itself is said by the card's mark and summary
      !(e.type === "tool-call" && e.tool === USER_CHOICE_TOOL) &&
      // notes about the installation are shown once in the settings, not on every turn
      !isSetupWarning(e),
  );
  return (
    <section
      data-testid="stage-card"
      data-stage={stage}
      data-state={end ? (end.skipped ? "skipped" : failed ? "failed" : "done") : continued ? "continued" : live ? "running" : "open"}
      data-part={part || undefined}
      data-mark={mark?.kind}
      className={cn("rounded-lg border bg-card p-3", failed && "border-destructive/50", end?.skipped && "opacity-70")}
    >
      <header className="mb-1 flex items-center gap-2">
        {end ? (
          end.skipped ? (
            <CircleSlashIcon className="size-4 text-muted-foreground" aria-label="skipped" />
          ) : failed ? (
            <TriangleAlertIcon className="size-4 text-destructive" aria-label="failed" />
          ) : (
            <CheckIcon className="size-4 text-success" aria-label="done" />
          )
        ) : continued ? null : live ? (
          <LoaderCircleIcon className="size-4 animate-spin text-primary" aria-label="running" />
        ) : null}
        <h3 className="text-sm font-semibold">
          {STAGE_LABELS[stage]}
          {part > 0 && <span className="font-normal text-muted-foreground"> (continued)</span>}
        </h3>
        {mark && (
          <Badge variant={mark.kind === "decided" ? "default" : "muted"} data-testid="stage-mark">
            {mark.kind === "decided" ? "your correction" : `kept from attempt ${mark.from}`}
          </Badge>
        )}
        {continued && !end && <span className="ml-auto text-xs text-muted-foreground">continues below</span>}
        {end && <span className="ml-auto text-xs tabular-nums text-muted-foreground">{mark?.kind === "kept" ? "not run again" : `${Math.round(end.ms)} ms`}</span>}
      </header>
      {end?.summary && <p className="mb-2 text-sm break-words">{end.summary}</p>}
      {!end?.skipped && (
        <StageOutput stage={stage} output={end?.output} details={group.details} events={events} runs={runs} onOpenQuery={onOpenQuery} onOpenEntity={onOpenEntity} />
      )}
      {details.length > 0 && (
        <div className="mt-2 flex flex-col gap-1">
          {details.map((e, i) => {
            if (e.type === "llm-call") return <LlmCallView key={e.call.id ?? i} call={e.call} />;
            if (e.type === "sparql")
              return (
                <QueryLine
                  key={i}
                  query={e.query}
                  meta={`${e.purpose} · ${e.rows} rows · ${Math.round(e.ms)} ms`}
                  error={e.error}
                  onOpen={onOpenQuery}
                />
              );
            if (e.type === "progress")
              return (
                <p key={i} data-testid="derivation-progress" className="text-xs text-muted-foreground">
                  … {e.message}
                </p>
              );
            if (e.type === "warning")
              return (
                <p key={i} data-testid="derivation-warning" className="flex items-start gap-1.5 rounded bg-warning/15 px-2 py-1 text-xs">
                  <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-warning" aria-hidden /> {e.message}
                </p>
              );
            if (e.type === "tool-call")
              return (
                <details key={i} className="rounded border bg-background text-xs" data-testid="tool-call">
                  <summary className="flex cursor-pointer list-none items-center gap-1.5 px-2 py-1">
                    <WrenchIcon className="size-3.5" aria-hidden /> tool <code>{e.tool}</code>
                    {e.error && <span className="text-destructive">{e.error}</span>}
                    {e.ms !== undefined && <span className="ml-auto tabular-nums text-muted-foreground">{Math.round(e.ms)} ms</span>}
                  </summary>
                  <pre className="max-h-48 overflow-auto border-t p-2 whitespace-pre-wrap">
                    {JSON.stringify({ input: e.input, output: e.output }, null, 2)}
                  </pre>
                </details>
              );
            return null;
          })}
        </div>
      )}
    </section>
  );
}
