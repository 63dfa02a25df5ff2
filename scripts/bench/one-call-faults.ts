// Planted faults for the one-call validator bench: a correct query with one mistake a model makes — another predicate
// of the KG, a triple the wrong way round, a class that does not exist, a typo in an IRI. Deterministic per item.
import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import type * as Sparql from "sparqljs";
import type { QueryResult } from "@/lib/kg/types";
import { isNamed, isStandard, queryTerms } from "@/lib/pipeline/common/query-terms";
import type { SchemaCards } from "@/lib/pipeline/common/schema-cards";

export type FaultKind = "wrong predicate" | "wrong direction" | "unknown class" | "IRI typo";
export interface Fault {
  kind: FaultKind;
  sparql: string;
}


function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The query's named nodes equal to `from` renamed to `to` (everywhere). */
function rename(v: unknown, from: string, to: string): void {
  if (Array.isArray(v)) return v.forEach((x) => rename(x, from, to));
  if (typeof v !== "object" || v === null) return;
  const o = v as Record<string, unknown>;
  if (o.termType === "NamedNode" && o.value === from) o.value = to;
  for (const [k, child] of Object.entries(o)) if (k !== "prefixes" && k !== "datatype") rename(child, from, to);
}

/** "TopologicalNode" → "TopolgoicalNode": two letters in the middle of the local name swapped. */
export function typo(iri: string): string | undefined {
  const cut = Math.max(iri.lastIndexOf("#"), iri.lastIndexOf("/"), iri.lastIndexOf(":"));
  const local = iri.slice(cut + 1);
  for (let i = Math.floor(local.length / 2); i < local.length - 1; i++) {
    if (local[i] !== local[i + 1] && /[A-Za-z]/.test(local[i] + local[i + 1])) return iri.slice(0, cut + 1) + local.slice(0, i) + local[i + 1] + local[i] + local.slice(i + 2);
  }
  return undefined;
}

export function plantFaults(gold: Sparql.SelectQuery | Sparql.AskQuery, cards: SchemaCards, typePredicates: readonly string[], seed: string): Fault[] {
  const text = stringifySparql(gold);
  const fresh = () => parseSparql(text) as Sparql.SelectQuery | Sparql.AskQuery;
  const out: Fault[] = [];
  const terms = queryTerms(gold, typePredicates);
  const plain = (q: Sparql.SelectQuery | Sparql.AskQuery) => queryTerms(q, typePredicates).required.filter((t) => isNamed(t.predicate) && !typePredicates.includes(t.predicate.value) && !isStandard(t.predicate.value));

  // another predicate of the KG in the first required triple
  const kgPredicates = [...cards.predicates.keys()].filter((p) => !typePredicates.includes(p) && !isStandard(p));
  const q1 = fresh();
  const t1 = plain(q1)[0];
  if (t1 && kgPredicates.length > 1) {
    const others = kgPredicates.filter((p) => p !== (t1.predicate as Sparql.IriTerm).value);
    (t1.predicate as Sparql.IriTerm).value = others[hash(seed) % others.length];
    out.push({ kind: "wrong predicate", sparql: stringifySparql(q1) });
  }
  // the first required triple between two resources, the wrong way round
  const q2 = fresh();
  const t2 = plain(q2).find((t) => t.object.termType !== "Literal");
  if (t2) {
    const s = t2.subject;
    t2.subject = t2.object as Sparql.Triple["subject"];
    t2.object = s as Sparql.Triple["object"];
    out.push({ kind: "wrong direction", sparql: stringifySparql(q2) });
  }
  // a class that does not exist: the first class with a made-up local name
  const cls = terms.classes[0];
  if (cls) {
    const q3 = fresh();
    rename(q3.where, cls, `${cls}Group`);
    out.push({ kind: "unknown class", sparql: stringifySparql(q3) });
  }
  // a typo in the first constant IRI (else in a predicate)
  const target = terms.constants[0] ?? terms.predicates[0];
  const wrong = target ? typo(target) : undefined;
  if (target && wrong) {
    const q4 = fresh();
    rename(q4.where, target, wrong);
    out.push({ kind: "IRI typo", sparql: stringifySparql(q4) });
  }
  return out;
}

/** A result as a comparable key: rows as sorted, order-free sets of their values. */
export function resultKey(r: QueryResult): string {
  if (r.kind === "ASK") return `ASK ${r.boolean}`;
  if (r.kind !== "SELECT") return "other";
  const rows = r.results.bindings.map((b) => JSON.stringify(Object.keys(b).sort().map((k) => b[k].value)));
  return JSON.stringify([...new Set(rows)].sort());
}
