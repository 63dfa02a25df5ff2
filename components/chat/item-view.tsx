// One answer value: an entity as a link to its Entity card, a literal with its datatype (title) and language tag.
"use client";
import type { AnswerItem } from "@/lib/pipeline/types";
import { EntityLink } from "./entity-link";

export function ItemView({ item, onOpenEntity }: { item: AnswerItem; onOpenEntity: (iri: string) => void }) {
  if (item.type === "uri") return <EntityLink iri={item.value} label={item.label} onOpen={onOpenEntity} />;
  return (
    <span title={item.datatype ?? undefined}>
      {item.value}
      {item.lang && <span className="ml-1 text-xs text-muted-foreground">@{item.lang}</span>}
    </span>
  );
}
