// CodeMirror 6 editor for SPARQL or SQL (legacy modes via StreamLanguage); Ctrl/Cmd+Enter runs the query.
"use client";
import { useEffect, useRef } from "react";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { defaultHighlightStyle, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { sparql } from "@codemirror/legacy-modes/mode/sparql";
import { standardSQL } from "@codemirror/legacy-modes/mode/sql";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";

const theme = EditorView.theme({
  "&": { fontSize: "12px", backgroundColor: "var(--card)", color: "var(--foreground)", height: "100%" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", caretColor: "var(--foreground)" },
  ".cm-gutters": { backgroundColor: "var(--muted)", color: "var(--muted-foreground)", border: "none" },
  "&.cm-focused": { outline: "2px solid var(--ring)" },
  ".cm-scroller": { overflow: "auto" },
});

export type QueryLanguage = "sparql" | "sql";

const languageExtensions = (language: QueryLanguage) => [
  StreamLanguage.define(language === "sql" ? standardSQL : sparql),
  EditorView.contentAttributes.of({ "aria-label": language === "sql" ? "SQL query" : "SPARQL query", "data-testid": "sparql-editor", "data-language": language }),
];

export function SparqlEditor({
  value,
  onChange,
  onRun,
  language = "sparql",
}: {
  value: string;
  onChange: (v: string) => void;
  onRun: () => void;
  language?: QueryLanguage;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const lang = useRef(new Compartment());
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
          lang.current.of(languageExtensions(language)),
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

  useEffect(() => {
    view.current?.dispatch({ effects: lang.current.reconfigure(languageExtensions(language)) });
  }, [language]);

  return <div ref={host} className="h-full min-h-40 overflow-hidden rounded-md border" />;
}
