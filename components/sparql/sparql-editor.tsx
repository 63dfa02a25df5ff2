// CodeMirror 6 editor for SPARQL or SQL (legacy modes via StreamLanguage); Ctrl/Cmd+Enter runs the query. For SPARQL
// with `assist`, the KG-aware completion, diagnostics and hover of editor-assist.ts are on.
"use client";
import { useEffect, useRef } from "react";
import { completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";
import { sparql } from "@codemirror/legacy-modes/mode/sparql";
import { standardSQL } from "@codemirror/legacy-modes/mode/sql";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { assistExtensions, type AssistHooks } from "./editor-assist";

const theme = EditorView.theme({
  "&": { fontSize: "12px", backgroundColor: "var(--card)", color: "var(--foreground)", height: "100%" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", caretColor: "var(--foreground)" },
  ".cm-gutters": { backgroundColor: "var(--muted)", color: "var(--muted-foreground)", border: "none" },
  "&.cm-focused": { outline: "2px solid var(--ring)" },
  ".cm-scroller": { overflow: "auto" },
  ".cm-tooltip": { backgroundColor: "var(--popover)", color: "var(--popover-foreground)", border: "1px solid var(--border)", borderRadius: "6px", fontSize: "12px" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--accent-foreground)" },
  ".cm-completionDetail": { color: "var(--muted-foreground)", fontStyle: "normal", marginLeft: "1em" },
  ".cm-tooltip-autocomplete completion-section": { color: "var(--muted-foreground)", fontSize: "11px", borderBottom: "1px solid var(--border)" },
  ".cm-kg-hover": { padding: "6px 8px", maxWidth: "360px", display: "flex", flexDirection: "column", gap: "2px" },
  ".cm-kg-hover-name": { fontWeight: "600" },
  ".cm-kg-hover-iri": { fontFamily: "ui-monospace, monospace", fontSize: "11px", wordBreak: "break-all", color: "var(--muted-foreground)" },
  ".cm-kg-hover-muted": { color: "var(--muted-foreground)" },
  ".cm-diagnostic": { padding: "4px 8px", maxWidth: "420px" },
});

// colours from the app's tokens, so the query reads as well in the dark theme as in the light one
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.controlKeyword], color: "var(--primary)", fontWeight: "600" },
  { tag: t.standard(t.variableName), color: "var(--primary)" },
  { tag: [t.variableName, t.special(t.variableName), t.definition(t.variableName)], color: "var(--destructive)" },
  { tag: [t.atom, t.url, t.link], color: "var(--success)" },
  { tag: [t.string, t.special(t.string), t.number, t.bool], color: "color-mix(in oklch, var(--warning) 70%, var(--foreground))" },
  { tag: [t.meta, t.comment, t.lineComment, t.blockComment], color: "var(--muted-foreground)" },
  { tag: [t.comment, t.lineComment, t.blockComment], fontStyle: "italic" },
]);

export type QueryLanguage = "sparql" | "sql";

const languageExtensions = (language: QueryLanguage, assist: AssistHooks | undefined) => [
  StreamLanguage.define(language === "sql" ? standardSQL : sparql),
  EditorView.contentAttributes.of({ "aria-label": language === "sql" ? "SQL query" : "SPARQL query", "data-testid": "sparql-editor", "data-language": language }),
  ...(language === "sparql" && assist ? assistExtensions(assist) : []),
];

export function SparqlEditor({
  value,
  onChange,
  onRun,
  language = "sparql",
  assist,
}: {
  value: string;
  onChange: (v: string) => void;
  onRun: () => void;
  language?: QueryLanguage;
  /** KG-aware completion, diagnostics and hover (SPARQL only); read once when the editor is made */
  assist?: AssistHooks;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const lang = useRef(new Compartment());
  const handlers = useRef({ onChange, onRun });
  handlers.current = { onChange, onRun };
  const assistRef = useRef(assist);

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          lang.current.of(languageExtensions(language, assistRef.current)),
          syntaxHighlighting(highlight),
          EditorView.lineWrapping,
          theme,
          keymap.of([
            { key: "Mod-Enter", run: () => (handlers.current.onRun(), true) },
            ...completionKeymap,
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
    view.current?.dispatch({ effects: lang.current.reconfigure(languageExtensions(language, assistRef.current)) });
  }, [language]);

  return <div ref={host} className="h-full min-h-24 overflow-hidden rounded-md border" />;
}
