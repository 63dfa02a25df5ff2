// The workbench's CodeMirror extensions that talk to the KG: completion, diagnostics underlined in place (with a
// callback so the panel lists them too) and hover facts for IRIs. KG text goes into the DOM as text, never as HTML.
import { autocompletion } from "@codemirror/autocomplete";
import { linter, lintGutter, type Diagnostic as CmDiagnostic } from "@codemirror/lint";
import type { Extension, Text } from "@codemirror/state";
import { hoverTooltip, type EditorView } from "@codemirror/view";
import type { BoundedCount, Diagnostic } from "@/lib/api/contract";
import { assist } from "./assist-client";
import { entitySource, iriAt, vocabularySource } from "./completion";

/** complete: every check ran; partial: some KG checks were cut for time; failed: the server did not answer */
export type CheckStatus = "complete" | "partial" | "failed";

export interface AssistHooks {
  getKgId: () => string | undefined;
  /** the diagnostics of the text now in the editor (undefined: being checked); how far the check got */
  onDiagnostics?: (d: Diagnostic[] | undefined, status: CheckStatus) => void;
}

/** Offset of a 1-based line/column, clamped to the document. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  return Math.min(l.to, l.from + Math.max(0, column - 1));
}

export function toCm(doc: Text, d: Diagnostic): CmDiagnostic {
  const from = offsetOf(doc, d.line, d.column);
  let to = d.endLine !== undefined && d.endColumn !== undefined ? offsetOf(doc, d.endLine, d.endColumn) : from;
  if (to <= from) to = Math.min(doc.length, from + 1);
  return { from, to, severity: d.severity, source: d.source === "kg" ? "KG check" : d.source === "read-only" ? "read-only" : "syntax", message: d.message };
}

function countText(c: BoundedCount): string {
  if (c.n < 0) return "?";
  return `${c.n.toLocaleString("en")}${c.capped ? "+" : ""}`;
}

function el(tag: string, className: string, text?: string): HTMLElement {
  const e = document.createElement(tag);
  e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function assistExtensions(hooks: AssistHooks): Extension[] {
  const diagnostics = linter(
    async (view: EditorView) => {
      const kgId = hooks.getKgId();
      const text = view.state.doc.toString();
      if (!kgId || !text.trim()) {
        hooks.onDiagnostics?.([], "complete");
        return [];
      }
      hooks.onDiagnostics?.(undefined, "complete");
      try {
        const r = await assist.check(kgId, text);
        // the user typed on meanwhile: these diagnostics belong to older text (CodeMirror drops them too)
        if (view.state.doc.toString() !== text) return [];
        hooks.onDiagnostics?.(r.diagnostics, r.complete ? "complete" : "partial");
        return r.diagnostics.map((d) => toCm(view.state.doc, d));
      } catch {
        if (view.state.doc.toString() === text) hooks.onDiagnostics?.([], "failed");
        return [];
      }
    },
    { delay: 700 },
  );

  const hover = hoverTooltip(async (view, pos) => {
    const kgId = hooks.getKgId();
    if (!kgId) return null;
    const vocabulary = await assist.vocabulary(kgId).catch(() => undefined);
    const at = iriAt(view.state.doc.toString(), pos, vocabulary?.prefixes ?? {});
    if (!at) return null;
    const facts = await assist.hover(kgId, at.iri).catch(() => undefined);
    if (!facts) return null;
    return {
      pos: at.from,
      end: at.to,
      above: true,
      create: () => {
        const dom = el("div", "cm-kg-hover");
        dom.dataset.testid = "sparql-hover";
        dom.append(el("div", "cm-kg-hover-name", facts.names[0]));
        if (facts.names.length > 1) dom.append(el("div", "cm-kg-hover-muted", `also: ${facts.names.slice(1, 5).join(" · ")}`));
        dom.append(el("div", "cm-kg-hover-iri", facts.iri));
        if (facts.types.length) dom.append(el("div", "", `type: ${facts.types.map((t) => t.label).join(", ")}`));
        if (facts.description) dom.append(el("div", "cm-kg-hover-muted", facts.description));
        const { subject, object, predicate, instances } = facts.counts;
        const parts = [
          subject.n ? `${countText(subject)} as subject` : "",
          object.n ? `${countText(object)} as object` : "",
          predicate.n ? `${countText(predicate)} as predicate` : "",
          instances.n ? `${countText(instances)} instances` : "",
        ].filter(Boolean);
        dom.append(el("div", "cm-kg-hover-muted", parts.length ? parts.join(" · ") : "not in the KG"));
        return { dom };
      },
    };
  });

  return [
    autocompletion({ override: [vocabularySource(hooks.getKgId), entitySource(hooks.getKgId)], activateOnTypingDelay: 50, maxRenderedOptions: 80 }),
    diagnostics,
    lintGutter(),
    hover,
  ];
}
