// One QIR triple, correctable: "Edit" turns the row into three fields (subject, relation, object; "?name" is a
// variable); re-running links and answers the edited QIR without asking the model for a new one.
"use client";
import { useState } from "react";
import { PencilIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { QirTriple } from "@/lib/pipeline/chatty-kg/state";
import type { Corrector } from "./corrector";

const FIELDS = ["subject", "relation", "object"] as const;

export function QirTripleRow({ triple, index, corrector }: { triple: QirTriple; index: number; corrector: Corrector | null }) {
  const [draft, setDraft] = useState<QirTriple | null>(null);
  if (draft && corrector) {
    const changed = FIELDS.some((f) => draft[f].trim() !== triple[f]);
    const complete = FIELDS.every((f) => draft[f].trim());
    return (
      <tr className="border-t" data-testid="qir-triple-editor">
        {FIELDS.map((f) => (
          <td key={f} className="py-0.5 pr-1">
            <input
              className="w-full min-w-0 rounded border bg-card px-1 py-0.5 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
              value={draft[f]}
              aria-label={`Triple ${index + 1} ${f}`}
              onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
              onKeyDown={(e) => e.key === "Escape" && setDraft(null)}
            />
          </td>
        ))}
        <td className="py-0.5 whitespace-nowrap">
          <Button
            size="sm"
            className="h-6 px-2 text-[11px]"
            disabled={corrector.disabled || !changed || !complete}
            onClick={() => corrector.rerun({ kind: "qir-triple", index, triple: { subject: draft.subject.trim(), relation: draft.relation.trim(), object: draft.object.trim() } })}
          >
            Re-run
          </Button>
          <Button size="sm" variant="ghost" className="h-6 px-2 text-[11px]" onClick={() => setDraft(null)}>
            Cancel
          </Button>
        </td>
      </tr>
    );
  }
  return (
    <tr className="border-t">
      <td className="py-0.5 pr-2">{triple.subject}</td>
      <td className="py-0.5 pr-2 text-primary">{triple.relation}</td>
      <td className="py-0.5">{triple.object}</td>
      {corrector && (
        <td className="py-0.5 text-right">
          <Button size="icon" variant="ghost" className="size-6" disabled={corrector.disabled} onClick={() => setDraft({ ...triple })} aria-label={`Edit triple ${index + 1}`} data-testid="edit-qir-triple">
            <PencilIcon className="size-3.5" />
          </Button>
        </td>
      )}
    </tr>
  );
}
