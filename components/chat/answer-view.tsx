// Renders a turn's answer by kind: entity links, literals, tables, counts, yes/no, "no answer", conversation replies,
// clarifications. With a provenance target, each item (and a "yes") can be expanded to the KG triples behind it.
"use client";
import { useState } from "react";
import { CircleHelpIcon, MessageCircleIcon, SearchXIcon } from "lucide-react";
import type { Answer } from "@/lib/pipeline/types";
import { itemText } from "@/lib/pipeline/answer-format";
import { ItemView } from "./item-view";
import { ProvenanceToggle, type ProvenanceTarget } from "./provenance-view";
import { CiteMarks } from "./citations-view";
import { TableAnswer } from "./table-answer";
import { AnswerVisual } from "@/components/answer-visuals/answer-visual";

const FIRST_ITEMS = 10;

type AnswerViewProps = { answer: Answer; provenance?: ProvenanceTarget; onOpenEntity: (iri: string) => void };

/** The answer, drawn as a chart, map or graph where its shape fits one (components/answer-visuals, the workbench's). */
export function AnswerView(props: AnswerViewProps) {
  return (
    <AnswerVisual answer={props.answer} target={props.provenance} onOpenEntity={props.onOpenEntity}>
      <AnswerBody {...props} />
    </AnswerVisual>
  );
}

function AnswerBody({ answer, provenance, onOpenEntity }: AnswerViewProps) {
  const [all, setAll] = useState(false);
  const why = (index: number | undefined, what: string) =>
    provenance ? <ProvenanceToggle target={provenance} index={index} what={what} onOpenEntity={onOpenEntity} /> : null;
  switch (answer.kind) {
    case "items": {
      if (answer.items.length === 1)
        return (
          <div data-testid="answer" data-kind="items" className="text-base">
            <ItemView item={answer.items[0]} onOpenEntity={onOpenEntity} />
            <CiteMarks cite={answer.items[0].cite} />
            {why(0, itemText(answer.items[0]))}
          </div>
        );
      const shown = all ? answer.items : answer.items.slice(0, FIRST_ITEMS);
      return (
        <div data-testid="answer" data-kind="items">
          <p className="mb-1 text-xs text-muted-foreground">{answer.items.length} results</p>
          <ul className="flex list-disc flex-col gap-0.5 pl-5">
            {shown.map((it, i) => (
              <li key={`${it.value}-${i}`}>
                <ItemView item={it} onOpenEntity={onOpenEntity} />
                <CiteMarks cite={it.cite} />
                {why(i, itemText(it))}
              </li>
            ))}
          </ul>
          {answer.items.length > FIRST_ITEMS && (
            <button type="button" className="mt-1 text-sm text-primary hover:underline" onClick={() => setAll((v) => !v)}>
              {all ? "Show fewer" : `Show all ${answer.items.length}`}
            </button>
          )}
        </div>
      );
    }
    case "table":
      return <TableAnswer answer={answer} provenance={provenance} onOpenEntity={onOpenEntity} />;
    case "count":
      return (
        <p data-testid="answer" data-kind="count" className="text-base">
          <span className="text-2xl font-semibold tabular-nums">{answer.count}</span>
        </p>
      );
    case "boolean":
      return (
        <div data-testid="answer" data-kind="boolean">
          <span className="text-2xl font-semibold">{answer.value ? "Yes" : "No"}</span>
          {answer.value && why(undefined, "this yes")}
        </div>
      );
    case "none":
      return (
        <div data-testid="answer" data-kind="none" className="flex items-start gap-2 rounded-md border border-dashed border-warning/60 bg-warning/10 px-3 py-2">
          <SearchXIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
          <div>
            <p className="font-medium">The KG has no answer</p>
            {answer.reason && <p className="text-sm text-muted-foreground">{answer.reason}</p>}
          </div>
        </div>
      );
    case "chat":
      return (
        <div data-testid="answer" data-kind="chat" className="flex items-start gap-2">
          <MessageCircleIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
          <p className="whitespace-pre-wrap">{answer.text}</p>
        </div>
      );
    case "clarify":
      return (
        <div data-testid="answer" data-kind="clarify" className="flex items-start gap-2 rounded-md bg-accent px-3 py-2 text-accent-foreground">
          <CircleHelpIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p className="whitespace-pre-wrap">{answer.text}</p>
        </div>
      );
  }
}
