// A template's triple patterns as plain triples (every group, OPTIONAL, UNION branch, NOT EXISTS and subquery; property
// paths expanded), so relation candidates can be found by walking from linked entities through them.
import type * as Sparql from "sparqljs";
import { varName } from "@/lib/pipeline/common/sparql-ast";
import { slotIdOf } from "./template";

export type TNode =
  | { kind: "var"; name: string }
  | { kind: "slot"; id: string }
  | { kind: "iri"; iri: string }
  | { kind: "literal"; term: Sparql.LiteralTerm };

export type TPredicate = { kind: "slot"; id: string } | { kind: "iri"; iri: string } | { kind: "var"; name: string };

export interface TTriple {
  s: TNode;
  p: TPredicate;
  o: TNode;
}

type Term = { termType: string; value: string };
type PathLike = { type: "path"; pathType: string; items: (PathLike | Term)[] };

function node(t: Term): TNode | undefined {
  if (t.termType === "Variable") return { kind: "var", name: varName(t.value) };
  if (t.termType === "BlankNode") return { kind: "var", name: varName(`b_${t.value}`) };
  if (t.termType === "Literal") return { kind: "literal", term: t as unknown as Sparql.LiteralTerm };
  if (t.termType === "NamedNode") {
    const id = slotIdOf(t.value);
    return id ? { kind: "slot", id } : { kind: "iri", iri: t.value };
  }
  return undefined;
}

function predicate(t: Term): TPredicate | undefined {
  if (t.termType === "Variable") return { kind: "var", name: varName(t.value) };
  if (t.termType !== "NamedNode") return undefined;
  const id = slotIdOf(t.value);
  return id ? { kind: "slot", id } : { kind: "iri", iri: t.value };
}

/** Collects plain triples from any part of a sparqljs AST. */
export function templateTriples(where: unknown): TTriple[] {
  const out: TTriple[] = [];
  let fresh = 0;
  const addPath = (s: TNode, p: PathLike | Term, o: TNode) => {
    if (!("type" in p)) {
      const pred = predicate(p);
      if (pred) out.push({ s, p: pred, o });
      return;
    }
    if (p.pathType === "/") {
      let from = s;
      p.items.forEach((item, i) => {
        const to: TNode = i === p.items.length - 1 ? o : { kind: "var", name: `path_${++fresh}` };
        addPath(from, item, to);
        from = to;
      });
    } else if (p.pathType === "^") addPath(o, p.items[0], s);
    else if (p.pathType === "|") for (const item of p.items) addPath(s, item, o);
    else if (p.pathType !== "!") addPath(s, p.items[0], o); // *, +, ?: one step of the inner predicate
  };
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (typeof n !== "object" || n === null) return;
    const o = n as Record<string, unknown>;
    if ("subject" in o && "predicate" in o && "object" in o) {
      const s = node(o.subject as Term);
      const obj = node(o.object as Term);
      if (s && obj) addPath(s, o.predicate as PathLike | Term, obj);
      return;
    }
    if ("termType" in o) return;
    for (const [k, v] of Object.entries(o)) if (k !== "prefixes") visit(v);
  };
  visit(where);
  return out;
}

/** How a node is written in prompts: "?album", "<e0>", a literal's text, or an IRI. */
export function nodeText(n: TNode, mentions: Record<string, string> = {}): string {
  if (n.kind === "var") return `?${n.name}`;
  if (n.kind === "slot") return mentions[n.id] ? JSON.stringify(mentions[n.id]) : `<${n.id}>`;
  if (n.kind === "literal") return JSON.stringify(n.term.value);
  return `<${n.iri}>`;
}
