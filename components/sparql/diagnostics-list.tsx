// The editor's diagnostics as a list under it (the underlines' messages, readable without hovering, for screen
// readers too): line and column, what is wrong, and whether the KG checks finished.
"use client";
import { CircleAlertIcon, InfoIcon, TriangleAlertIcon } from "lucide-react";
import type { Diagnostic } from "@/lib/api/contract";
import type { CheckStatus } from "./editor-assist";

const ICONS = { error: CircleAlertIcon, warning: TriangleAlertIcon, info: InfoIcon };
const COLORS = { error: "text-destructive", warning: "text-warning", info: "text-muted-foreground" };

export function DiagnosticsList({ diagnostics, status }: { diagnostics: Diagnostic[] | undefined; status: CheckStatus }) {
  if (diagnostics === undefined) return <p className="sr-only" aria-live="polite">Checking the query…</p>;
  const note =
    status === "failed" ? "The query could not be checked just now (the server did not answer); Run still says what is wrong." : status === "partial" ? "Not every name could be checked on the KG in time." : null;
  if (diagnostics.length === 0)
    return note ? (
      <p className="text-[11px] text-muted-foreground" data-testid="sparql-diagnostics-note">
        {note}
      </p>
    ) : null;
  return (
    <ul className="flex max-h-32 flex-col gap-0.5 overflow-y-auto text-xs" data-testid="sparql-diagnostics" aria-live="polite" aria-label="Problems in the query">
      {diagnostics.map((d, i) => {
        const Icon = ICONS[d.severity];
        return (
          <li key={i} className="flex items-start gap-1.5" data-testid="sparql-diagnostic" data-severity={d.severity} data-source={d.source}>
            <Icon className={`mt-0.5 size-3.5 shrink-0 ${COLORS[d.severity]}`} aria-hidden />
            <span>
              <span className="text-muted-foreground tabular-nums">
                {d.line}:{d.column}
              </span>{" "}
              {d.message}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
