// QIR term helpers shared by the Triples validator and its constraint checks: variables, quotes, normalisation.
import type { QirValue, ValueType } from "../state";

export const QUOTES = /^[\s"'`“”‘’«»]+|[\s"'`“”‘’«»]+$/g;

export function isVariable(t: string): boolean {
  return t.startsWith("?");
}

/** Strips quotes and extra spaces; variables become "?name" ("$x" → "?x", "?first film" → "?first_film", "?" → "?x"). */
export function normalizeTerm(raw: string, variableNames: ReadonlySet<string> = new Set()): string {
  const t = raw.replace(QUOTES, "").replace(/\s+/g, " ").trim();
  const bare = t.replace(/^[?$]+/, "");
  const asVariable = t.startsWith("?") || t.startsWith("$") || variableNames.has(t.toLowerCase());
  if (!asVariable) return t;
  const name = bare.replace(/[\s-]+/g, "_").replace(/[^\p{L}\p{N}_]/gu, "");
  return `?${name || "x"}`;
}

export function unique<T>(items: T[], key: (t: T) => string = String): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = key(i);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const YEAR = /^\d{4}$/;

/**
 * A literal with its type: the stated type when it fits the text, else inferred (a number, a YYYY-MM-DD date, text).
 * Returns a reason when the stated type cannot hold the text ("number" for "Alfama").
 */
export function typedValue(raw: string | number, stated?: string): QirValue | { error: string } {
  const text = String(raw).replace(QUOTES, "").replace(/\s+/g, " ").trim();
  if (!text) return { error: "a value is empty" };
  const type = (stated ?? "").trim().toLowerCase();
  if (type === "number") {
    // "2 km", "40 m": the number is what is compared; the unit is for the relation phrase
    const num = /^[+-]?(\d+\.?\d*|\.\d+)/.exec(text.replace(/,/g, ""))?.[0];
    return num ? { text: num, type: "number" } : { error: `${JSON.stringify(text)} is not a number` };
  }
  if (type === "date") {
    return DATE.test(text) || YEAR.test(text) ? { text, type: "date" } : { error: `${JSON.stringify(text)} is not a date (write YYYY-MM-DD, or YYYY for a year)` };
  }
  if (type === "string" || type === "text") return { text, type: "string" };
  if (type) return { error: `the type ${JSON.stringify(stated)} of ${JSON.stringify(text)} must be "string", "number" or "date"` };
  if (typeof raw === "number" || NUMBER.test(text)) return { text, type: "number" };
  if (DATE.test(text)) return { text, type: "date" };
  return { text, type: "string" as ValueType };
}
