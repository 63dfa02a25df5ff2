// Completion that knows the KG: in a predicate slot the predicates the subject's class uses (then all the KG's), after
// `a` its classes, in a subject/object slot entities by name (the KG's label search), after `?` the query's variables,
// after PREFIX the KG's namespaces, elsewhere SPARQL's keywords. Picking a prefixed name whose prefix is not declared
// adds its PREFIX line. Every source is async and cancellable, so a slow endpoint never holds up typing.
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import { EditorSelection } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import type { VocabularyTerm } from "@/lib/api/contract";
import { assist, compact } from "./assist-client";
import { cursorContext, expand, isTypePredicate, type CursorContext } from "./query-context";

const KEYWORDS = [
  "SELECT", "DISTINCT", "WHERE", "FILTER", "OPTIONAL", "UNION", "MINUS", "BIND", "VALUES", "GRAPH", "LIMIT", "OFFSET", "ORDER BY",
  "GROUP BY", "HAVING", "ASK", "CONSTRUCT", "DESCRIBE", "PREFIX", "AS", "ASC", "DESC", "NOT EXISTS", "EXISTS",
];
const FUNCTIONS = [
  "COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT", "STR", "LANG", "LANGMATCHES", "DATATYPE", "REGEX", "CONTAINS",
  "STRSTARTS", "STRENDS", "LCASE", "UCASE", "STRLEN", "YEAR", "MONTH", "DAY", "NOW", "IF", "COALESCE", "BOUND", "isIRI", "isLiteral", "isBlank",
];
const TERM_CHARS = /^[\p{L}\p{N}_:.-]*$/u;

/** Where a PREFIX line goes: after the query's last PREFIX/BASE line, else at the top. */
function prefixInsertPos(text: string): number {
  let pos = 0;
  for (const m of text.matchAll(/^[ \t]*(PREFIX|BASE)\b[^\n]*\n?/gim)) pos = m.index + m[0].length;
  return pos;
}

/** Inserts `text` for [from, to), plus the PREFIX line it needs when the query does not declare its prefix yet. */
export function insertWithPrefix(view: EditorView, text: string, from: number, to: number, prefix?: { name: string; ns: string }): void {
  const doc = view.state.doc.toString();
  const needs = prefix && !(prefix.name in cursorContext(doc, 0).prefixes);
  const line = needs ? `PREFIX ${prefix.name}: <${prefix.ns}>\n` : "";
  const at = prefixInsertPos(doc);
  const changes = [{ from, to, insert: text }, ...(line ? [{ from: at, insert: line }] : [])];
  const end = from + text.length + (line && at <= from ? line.length : 0);
  view.dispatch({ changes, selection: EditorSelection.cursor(end), scrollIntoView: true, userEvent: "input.complete" });
}

function termOption(term: VocabularyTerm, prefixes: Record<string, string>, kind: "class" | "property", section: { name: string; rank: number }, boost = 0): Completion {
  const { text, prefix } = compact(term.iri, prefixes);
  return {
    label: text,
    // a count of 0: listed by the store but not in the counted sample
    detail: [term.label, term.count ? `${term.count.toLocaleString("en")} ${term.count === 1 ? "use" : "uses"}` : ""].filter(Boolean).join(" · "),
    type: kind,
    section,
    boost,
    apply: (view, _c, from, to) => insertWithPrefix(view, text, from, to, prefix ? { name: prefix, ns: prefixes[prefix] } : undefined),
  };
}

function termRange(ctx: CompletionContext, c: CursorContext): { from: number; typed: string } {
  const w = c.word && c.word.kind !== "iri" ? c.word : undefined;
  return w ? { from: w.from, typed: ctx.state.sliceDoc(w.from, ctx.pos) } : { from: ctx.pos, typed: "" };
}

/** The KG's vocabulary, variables, prefixes and keywords (filtered by CodeMirror as the user types on). */
export function vocabularySource(getKgId: () => string | undefined): CompletionSource {
  return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
    const kgId = getKgId();
    const c = cursorContext(ctx.state.doc.toString(), ctx.pos);
    const { from, typed } = termRange(ctx, c);
    if (!ctx.explicit && !typed) return null;
    if (c.word?.kind === "var") {
      const mine = c.word.text.slice(1);
      return {
        from: c.word.from,
        options: c.variables.filter((v) => v !== mine || ctx.explicit).map((v) => ({ label: `${c.word!.text[0]}${v}`, type: "variable" })),
        validFor: /^[?$][\p{L}\p{N}_]*$/u,
      };
    }
    if (c.slot === "expression") {
      return { from, options: [...FUNCTIONS.map((f) => ({ label: f, type: "function", apply: `${f}(` })), ...c.variables.map((v) => ({ label: `?${v}`, type: "variable" }))], validFor: TERM_CHARS };
    }
    if (!kgId) return null;
    const vocabulary = await assist.vocabulary(kgId).catch(() => undefined);
    if (ctx.aborted || !vocabulary) return null;
    const prefixes = { ...vocabulary.prefixes, ...c.prefixes };
    if (c.slot === "prefix-decl") {
      return {
        from,
        options: Object.entries(vocabulary.prefixes)
          .filter(([name]) => !(name in c.prefixes))
          .map(([name, ns]) => ({ label: `${name}:`, detail: ns, type: "namespace", apply: `${name}: <${ns}>` })),
        validFor: TERM_CHARS,
      };
    }
    const options: Completion[] = [];
    if (c.slot === "predicate") {
      const classes = c.subjectClasses.slice(0, 3);
      const own = await Promise.all(classes.map((cls) => assist.classPredicates(kgId, cls).catch(() => undefined)));
      if (ctx.aborted) return null;
      const seen = new Set<string>();
      own.forEach((r, i) => {
        if (!r) return;
        const section = { name: `Used by ${compact(classes[i], prefixes).text}`, rank: i };
        for (const p of r.predicates) {
          if (seen.has(p.iri)) continue;
          seen.add(p.iri);
          options.push(termOption(p, prefixes, "property", section, 50));
        }
      });
      options.push({ label: "a", detail: "rdf:type", type: "keyword", section: { name: "Predicates", rank: 9 } });
      for (const p of vocabulary.predicates) if (!seen.has(p.iri)) options.push(termOption(p, prefixes, "property", { name: "Predicates", rank: 9 }));
    } else if (c.slot === "object" && c.predicate && isTypePredicate(c.predicate, prefixes)) {
      for (const cls of vocabulary.classes) options.push(termOption(cls, prefixes, "class", { name: "Classes", rank: 0 }));
    } else if (c.slot === "subject" || c.slot === "object") {
      // a prefixed name being typed: the KG's terms in that namespace
      const ns = typed.includes(":") ? prefixes[typed.slice(0, typed.indexOf(":"))] : undefined;
      if (ns !== undefined) {
        for (const cls of vocabulary.classes) if (cls.iri.startsWith(ns)) options.push(termOption(cls, prefixes, "class", { name: "Classes", rank: 1 }));
        for (const p of vocabulary.predicates) if (p.iri.startsWith(ns)) options.push(termOption(p, prefixes, "property", { name: "Predicates", rank: 2 }));
      } else if (c.slot === "subject") {
        options.push(...KEYWORDS.map((k) => ({ label: k, type: "keyword", section: { name: "Keywords", rank: 5 } })));
      }
    } else {
      options.push(...KEYWORDS.map((k) => ({ label: k, type: "keyword" })));
    }
    if (!typed.includes(":") && c.slot !== "other") {
      for (const [name, ns] of Object.entries(prefixes)) options.push({ label: `${name}:`, detail: ns, type: "namespace", section: { name: "Prefixes", rank: 8 }, boost: -10 });
    }
    return { from, options, validFor: TERM_CHARS };
  };
}

/** Entities by name in subject and object slots (a word of 3+ letters, no prefix): the KG's own label search. */
export function entitySource(getKgId: () => string | undefined, waitMs = 250): CompletionSource {
  return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
    const kgId = getKgId();
    if (!kgId) return null;
    const c = cursorContext(ctx.state.doc.toString(), ctx.pos);
    if ((c.slot !== "subject" && c.slot !== "object") || c.word?.kind !== "word") return null;
    if (c.slot === "object" && c.predicate && isTypePredicate(c.predicate, c.prefixes)) return null;
    const typed = ctx.state.sliceDoc(c.word.from, ctx.pos);
    if (typed.length < 3 || /^(FILTER|OPTIONAL|BIND|VALUES|MINUS|UNION|GRAPH)$/i.test(typed)) return null;
    // wait for a pause in typing before asking the KG
    await new Promise((r) => setTimeout(r, waitMs));
    if (ctx.aborted) return null;
    const [hits, vocabulary] = await Promise.all([assist.entities(kgId, typed).catch(() => undefined), assist.vocabulary(kgId).catch(() => undefined)]);
    if (ctx.aborted || !hits?.hits.length) return null;
    const prefixes = { ...(vocabulary?.prefixes ?? {}), ...c.prefixes };
    return {
      from: c.word.from,
      filter: false,
      options: hits.hits.map((h, i) => {
        const { text, prefix } = compact(h.iri, prefixes);
        return {
          label: h.label,
          detail: [text, h.types.slice(0, 2).join(", ")].filter(Boolean).join(" · "),
          type: "variable entity",
          boost: -i,
          section: { name: "Entities by name", rank: 3 },
          apply: (view: EditorView, _c: Completion, from: number, to: number) => insertWithPrefix(view, text, from, to, prefix ? { name: prefix, ns: prefixes[prefix] } : undefined),
        };
      }),
    };
  };
}

/** The IRI under the cursor, expanded with the query's and the KG's prefixes (for hover). */
export function iriAt(text: string, pos: number, kgPrefixes: Record<string, string>): { iri: string; from: number; to: number } | undefined {
  const c = cursorContext(text, pos + 1);
  const w = c.word;
  if (!w || w.from > pos || (w.kind !== "iri" && w.kind !== "pname")) return undefined;
  const value = expand(w, { ...kgPrefixes, ...c.prefixes });
  return value ? { iri: value, from: w.from, to: w.to } : undefined;
}
