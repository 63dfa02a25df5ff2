// Can the query's required patterns match at all? Per scope (the top level, each subquery): a triple with a constant
// matches something (else: does it hold the other way round?); two triples sharing a variable match together (a
// class's instances have the predicate, its values are of the class); all of them together. An ASK may rightly be
// false, so its checks are about the schema only: constants become variables first.
import { stringifySparql } from "@/lib/kg/sparql-syntax";
import type * as Sparql from "sparqljs";
import { isNamed, isPath, isVariable, type QueryTerms, type Scope } from "./query-terms";
import type { SchemaCards } from "./schema-cards";

export interface SatTools {
  ask(where: string): Promise<boolean | undefined>;
  show(v: string): string;
  env: { cards: SchemaCards; typePredicates: readonly string[] };
}

export const tripleText = (t: Sparql.Triple) =>
  stringifySparql({ type: "query", queryType: "ASK", prefixes: {}, where: [{ type: "bgp", triples: [t] }] } as Sparql.AskQuery)
    .replace(/^ASK\s*(WHERE\s*)?\{\s*|\s*\}\s*$/g, "")
    .replace(/\s*\.$/, "");

const varsOf = (t: Sparql.Triple) => [t.subject, t.object].filter(isVariable).map((v) => (v as Sparql.VariableTerm).value);

/** Constants (but the classes of type triples) as fresh variables: what the schema allows, whatever the data says. */
function generalized(triples: Sparql.Triple[], typePredicates: readonly string[]): Sparql.Triple[] {
  let n = 0;
  const fresh = () => ({ termType: "Variable", value: `schemaCheck${++n}` }) as Sparql.VariableTerm;
  return triples.map((t) => {
    const typeTriple = isNamed(t.predicate) && typePredicates.includes(t.predicate.value);
    return {
      subject: isVariable(t.subject) ? t.subject : fresh(),
      predicate: t.predicate,
      object: isVariable(t.object) || (typeTriple && isNamed(t.object)) ? t.object : fresh(),
    } as Sparql.Triple;
  });
}

export async function satisfiabilityProblems(terms: QueryTerms, kind: "SELECT" | "ASK", tools: SatTools): Promise<string[]> {
  const { env, show } = tools;
  const shown = (t: Sparql.Triple) => tripleText(t).replace(/<([^<>\s]+)>/g, (_m, v: string) => show(v));
  const usable = (s: Scope): Scope => {
    const ts = s.triples.filter((t) => isNamed(t.predicate) || isPath(t.predicate));
    return { ...s, triples: kind === "ASK" ? generalized(ts, env.typePredicates) : ts };
  };
  const scopes = terms.scopes.map(usable);
  const problems: string[] = [];
  const failed = new Set<Sparql.Triple>();
  if (kind === "SELECT") {
    for (const t of scopes.flatMap((s) => s.triples)) {
      if (!isNamed(t.predicate) || (isVariable(t.subject) && isVariable(t.object))) continue;
      if ((await tools.ask(tripleText(t))) !== false) continue;
      failed.add(t);
      const reversed = !isVariable(t.object) && t.object.termType !== "Literal" ? await tools.ask(tripleText({ subject: t.object, predicate: t.predicate, object: t.subject } as Sparql.Triple)) : false;
      problems.push(reversed ? `Nothing matches ${shown(t)}, but it holds the other way round: swap its subject and object.` : `Nothing in the KG matches ${shown(t)}.`);
    }
  }
  const pairs: [Sparql.Triple, Sparql.Triple, string][] = [];
  for (const s of scopes) {
    for (let i = 0; i < s.triples.length; i++) {
      for (let j = i + 1; j < s.triples.length; j++) {
        const v = varsOf(s.triples[j]).find((x) => varsOf(s.triples[i]).includes(x));
        if (v) pairs.push([s.triples[i], s.triples[j], v]);
      }
    }
  }
  for (const s of scopes.slice(1)) {
    if (!s.projected) continue;
    for (const a of scopes[0].triples) for (const b of s.triples) {
      const v = varsOf(b).find((x) => s.projected!.includes(x) && varsOf(a).includes(x));
      if (v) pairs.push([a, b, v]);
    }
  }
  for (const [a, b, v] of pairs) {
    if (failed.has(a) || failed.has(b)) continue;
    if ((await tools.ask(`${tripleText(a)} . ${tripleText(b)}`)) !== false) continue;
    failed.add(b);
    problems.push(await pairProblem(a, b, v, tools, shown));
  }
  if (problems.length) return problems;
  for (const s of scopes) {
    if (s.triples.length < 3) continue;
    const all = s.triples.map(tripleText).join(" . ");
    if ((await tools.ask(all)) !== false) continue;
    // blame the first triple that, added to those before it, leaves nothing
    for (let k = 2; k <= s.triples.length; k++) {
      if ((await tools.ask(s.triples.slice(0, k).map(tripleText).join(" . "))) === false) {
        problems.push(`The patterns before ${shown(s.triples[k - 1])} match, but nothing fits them together with it.`);
        break;
      }
    }
  }
  return problems;
}

/** Why two triples sharing ?v match nothing together, in the terms of the cards (domain, range, direction). */
async function pairProblem(a: Sparql.Triple, b: Sparql.Triple, v: string, tools: SatTools, shown: (t: Sparql.Triple) => string): Promise<string> {
  const { env, show } = tools;
  const isType = (t: Sparql.Triple) => isNamed(t.predicate) && env.typePredicates.includes(t.predicate.value) && isNamed(t.object);
  const typed = isType(a) ? a : isType(b) ? b : undefined;
  const other = typed === a ? b : a;
  const partner = other === a ? b : a;
  const flipped = { subject: other.object, predicate: other.predicate, object: other.subject } as Sparql.Triple;
  const flipWorks = other.object.termType !== "Literal" && (await tools.ask(`${tripleText(partner)} . ${tripleText(flipped)}`)) === true;
  const swap = flipWorks ? ` It holds the other way round: write ${shown(flipped)}.` : "";
  if (typed && isNamed(other.predicate)) {
    const p = other.predicate.value;
    const cls = (typed.object as Sparql.IriTerm).value;
    const card = env.cards.cards.find((c) => c.class === cls);
    if (isVariable(other.subject) && (other.subject as Sparql.VariableTerm).value === v) {
      const has = card ? ` ${show(cls)}'s predicates include ${card.predicates.slice(0, 8).map((x) => show(x.iri)).join(", ")}.` : "";
      return `?${v} is a ${show(cls)}, but no ${show(cls)} has ${show(p)}.${swap || has}`;
    }
    const ranges = [...new Set(env.cards.cards.flatMap((c) => c.predicates.filter((x) => x.iri === p).flatMap((x) => x.ranges.flatMap((r) => (r.iri ? [r.iri] : [])))))];
    return `?${v} is a ${show(cls)}, but no value of ${show(p)} is a ${show(cls)}.${swap || (ranges.length ? ` Values of ${show(p)} are: ${ranges.slice(0, 5).map(show).join(", ")}.` : "")}`;
  }
  return `${shown(a)} and ${shown(b)} share ?${v}, but nothing in the KG matches both.${swap}`;
}
