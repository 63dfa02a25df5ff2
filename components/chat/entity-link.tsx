// An entity shown by its label: the IRI in the title, a copy button, and a click that opens its Entity card.
"use client";
import { CopyButton } from "./copy-button";

export function localName(iri: string): string {
  const m = /[#/:]([^#/:]+)\/?$/.exec(iri);
  return decodeURIComponent(m?.[1] ?? iri).replace(/_/g, " ");
}

export function EntityLink({ iri, label, onOpen }: { iri: string; label?: string; onOpen: (iri: string) => void }) {
  return (
    <span className="inline-flex items-center gap-0.5" data-testid="entity-link">
      <button
        type="button"
        title={iri}
        onClick={() => onOpen(iri)}
        className="rounded text-left text-primary underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-ring"
      >
        {label || localName(iri)}
      </button>
      <CopyButton text={iri} label="Copy IRI" />
    </span>
  );
}
