// CodeMirror 6 editor for SPARQL (legacy sparql mode via StreamLanguage); Ctrl/Cmd+Enter runs the query.
"use client";
import { useEffect, useRef } from "react";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { defaultHighlightStyle, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { sparql } from "@codemirror/legacy-modes/mode/sparql";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";

const theme = EditorView.theme({
  "&": { fontSize: "12px", backgroundColor: "var(--card)", color: "var(--foreground)", height: "100%" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", caretColor: "var(--foreground)" },
  ".cm-gutters": { backgroundColor: "var(--muted)", color: "var(--muted-foreground)", border: "none" },
  "&.cm-focused": { outline: "2px solid var(--ring)" },
  ".cm-scroller": { overflow: "auto" },
});

export function SparqlEditor({ value, onChange, onRun }: { value: string; onChange: (v: string) => void; onRun: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const handlers = useRef({ onChange, onRun });
  handlers.current = { onChange, onRun };

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          StreamLanguage.define(sparql),
          syntaxHighlighting(defaultHighlightStyle),
          EditorView.lineWrapping,
          theme,
          keymap.of([
            { key: "Mod-Enter", run: () => (handlers.current.onRun(), true) },
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) handlers.current.onChange(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ "aria-label": "SPARQL query", "data-testid": "sparql-editor" }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // the editor is created once; later `value` changes are applied below
  }, []);

  // a query opened from the derivation replaces the text (typing does not come back through here)
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="h-full min-h-40 overflow-hidden rounded-md border" />;
}
