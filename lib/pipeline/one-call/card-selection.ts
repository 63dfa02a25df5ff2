// Which schema cards the prompt shows: ranked by relevance to the question and to the retrieved examples (a class or
// predicate an example query uses counts most), added best first while they fit the token budget; and how they read.
import { compactIri } from "@/lib/kg/profile";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { localNameWords } from "@/lib/pipeline/common/labels";
import { normalizedBm25 } from "@/lib/pipeline/common/bm25";
import { showTerm } from "@/lib/pipeline/common/prefixes";
import type { CardPredicate, SchemaCard, SchemaCards } from "@/lib/pipeline/common/schema-cards";

export interface CardSelectionOptions {
  /** ≈ tokens (characters / 4) the cards may take in the prompt */
  budget: number;
  /** predicates shown per card (most frequent first; predicates the examples use are shown too) */
  topPredicates: number;
}

/** cards put first because the question names them: the best by BM25 of the question, and any close to it */
const QUESTION_CARDS = 2;
const QUESTION_CARD_SHARE = 0.75;

export const DEFAULT_CARD_SELECTION: CardSelectionOptions = { budget: 3000, topPredicates: 20 };

export interface SelectedCard {
  /** the class (undefined: resources without a class) */
  class?: string;
  score: number;
  /** the card as the prompt shows it */
  text: string;
  /** predicates the card shows */
  predicates: string[];
  /** every IRI the card shows: its class, predicates and range classes or datatypes */
  iris: string[];
}

export interface CardSelection {
  cards: SelectedCard[];
  /** PREFIX lines, then the cards */
  text: string;
  tokens: number;
  /** cards left out for the budget */
  omitted: number;
}

export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Every IRI a query names (an example that does not parse gives none). */
export function irisOfSparql(sparql: string): string[] {
  let ast: unknown;
  try {
    ast = parseReadOnly(sparql).ast;
  } catch {
    return [];
  }
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (o.termType === "NamedNode" && typeof o.value === "string") return void out.add(o.value);
    if (o.termType === "Literal") return;
    for (const [k, child] of Object.entries(o)) if (k !== "prefixes") walk(child);
  };
  walk(ast);
  return [...out];
}

function cardWords(card: SchemaCard): string {
  const name = card.class ? `${card.label ?? ""} ${localNameWords(card.class)}` : "things without a class";
  return `${name} ${name} ${card.predicates.slice(0, 20).map((p) => localNameWords(p.iri)).join(" ")}`;
}

function shownPredicates(card: SchemaCard, used: Set<string>, top: number): CardPredicate[] {
  return card.predicates.filter((p, i) => i < top || used.has(p.iri));
}

function renderCard(card: SchemaCard, predicates: CardPredicate[], prefixes: Record<string, string>): string {
  const show = (v: string) => compactIri(v, prefixes);
  const head = card.class ? `Class ${show(card.class)}${card.label ? ` "${card.label}"` : ""} (${card.count} instances)` : "Resources without a class";
  const lines = predicates.map((p) => {
    const ranges = p.ranges
      .slice(0, 3)
      .map((r) => (r.kind === "iri" ? "IRI" : r.kind === "bnode" ? "blank node" : show(r.iri ?? "")))
      .join(" | ");
    const example = p.example ? ` e.g. ${showTerm(p.example, prefixes)}` : "";
    return `  ${show(p.iri)} → ${ranges}${example}`;
  });
  return [head, ...lines].join("\n");
}

/** The cards for one question: relevance = examples' classes and predicates first, then the question's words. */
export function selectCards(cards: SchemaCards, question: string, exampleQueries: string[], options: CardSelectionOptions = DEFAULT_CARD_SELECTION): CardSelection {
  const used = new Set(exampleQueries.flatMap(irisOfSparql));
  const lexical = normalizedBm25(question, cards.cards.map(cardWords));
  const scored = cards.cards.map((card, i) => {
    const fromExamples = card.class && used.has(card.class) ? 3 : 0;
    const predicateHits = card.predicates.filter((p) => used.has(p.iri)).length;
    // resources without a class are the whole KG when there are no classes
    const untyped = !card.class && cards.cards.length === 1 ? 10 : 0;
    return { card, score: fromExamples + Math.min(2, predicateHits * 0.5) + lexical[i] + untyped, lexical: lexical[i] };
  });
  scored.sort((a, b) => b.score - a.score || b.card.count - a.card.count);
  // the cards the question itself names come next: examples that are only similar (a large generated pool offers
  // five for any question) must not push out the class the question asks about
  const best = Math.max(0, ...scored.map((s) => s.lexical));
  const named = best > 0 ? scored.filter((s) => s.lexical >= best * QUESTION_CARD_SHARE).sort((a, b) => b.lexical - a.lexical).slice(0, QUESTION_CARDS) : [];
  // after the best card overall (usually the closest example's class)
  const first = scored[0];
  const rest = scored.slice(1).filter((x) => !named.includes(x));
  scored.splice(0, scored.length, ...(first ? [first] : []), ...named.filter((x) => x !== first), ...rest);
  const selected: SelectedCard[] = [];
  let tokens = 0;
  let omitted = 0;
  for (const { card, score } of scored) {
    const predicates = shownPredicates(card, used, options.topPredicates);
    const text = renderCard(card, predicates, cards.prefixes);
    const cost = estimateTokens(text) + 1;
    if (tokens + cost > options.budget) {
      omitted++;
      continue;
    }
    tokens += cost;
    const iris = [...(card.class ? [card.class] : []), ...predicates.flatMap((p) => [p.iri, ...p.ranges.slice(0, 3).flatMap((r) => (r.iri ? [r.iri] : []))])];
    selected.push({ ...(card.class ? { class: card.class } : {}), score: Math.round(score * 100) / 100, text, predicates: predicates.map((p) => p.iri), iris });
  }
  // the PREFIX lines count too: drop the least relevant cards until everything fits
  let text = render(selected, cards.prefixes);
  while (selected.length > 1 && estimateTokens(text) > options.budget) {
    selected.pop();
    omitted++;
    text = render(selected, cards.prefixes);
  }
  return { cards: selected, text, tokens: estimateTokens(text), omitted };
}

function render(selected: SelectedCard[], prefixes: Record<string, string>): string {
  const body = selected.map((c) => c.text).join("\n\n");
  const prefixLines = usedPrefixes(body, prefixes);
  return prefixLines ? `${prefixLines}\n\n${body}` : body;
}

function usedPrefixes(text: string, prefixes: Record<string, string>): string {
  return Object.entries(prefixes)
    .filter(([name]) => new RegExp(`(^|[\\s(|^])${name.replace(/[.-]/g, "\\$&")}:`, "m").test(text))
    .map(([name, ns]) => `PREFIX ${name}: <${ns}>`)
    .join("\n");
}
