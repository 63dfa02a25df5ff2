// How a KG makes its IRIs (id shapes) and writes its values (date forms, units): read from samples, for the profile
// and the KG notes ("players are <…/Firstname_LASTNAME>", "dates are xsd:date, 2014-06-12", "weights in grams").
import { localPart } from "@/lib/kg/lexicon";
import type { IdShape } from "./types";

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const HEX = /^[_-]?(?=[0-9a-f_-]*\d)[0-9a-f_-]{12,}$/i;

/** The kind of a local name, as a placeholder. */
export function localKind(local: string): { kind: string; opaque: boolean } {
  if (!local) return { kind: "{empty}", opaque: true };
  if (UUID.test(local)) return { kind: "{uuid}", opaque: true };
  if (HEX.test(local)) return { kind: "{hex}", opaque: true };
  if (/^\d+$/.test(local)) return { kind: "{number}", opaque: true };
  if (/^[A-Za-z]{0,3}[-_]?\d+$/.test(local)) return { kind: "{code}", opaque: true };
  if (/=/.test(local)) return { kind: "{key=value}", opaque: false };
  if (/_/.test(local)) return { kind: /\p{Lu}/u.test(local) ? "{Words_With_Underscores}" : "{snake_case}", opaque: false };
  if (/-/.test(local)) return { kind: "{kebab-case}", opaque: false };
  if (/\p{Ll}\p{Lu}/u.test(local)) return { kind: "{CamelCase}", opaque: false };
  return { kind: "{word}", opaque: false };
}

/** Namespace of an IRI: everything up to its last `#` or `/` (for URNs, its last `:`). */
export function namespaceOf(value: string): string {
  const cut = Math.max(value.lastIndexOf("#"), value.lastIndexOf("/"));
  return cut >= 0 ? value.slice(0, cut + 1) : value.slice(0, value.lastIndexOf(":") + 1);
}

/** A common leading word of the local names ("empl-", "prod-cat-"), when most of them have it. */
function sharedLead(locals: string[]): string {
  const leads = new Map<string, number>();
  for (const l of locals) {
    const m = /^([A-Za-z]+(?:[-_][A-Za-z]+)*[-_])(?=.)/.exec(l);
    if (m) leads.set(m[1], (leads.get(m[1]) ?? 0) + 1);
  }
  const best = [...leads.entries()].sort((a, b) => b[1] - a[1])[0];
  return best && best[1] >= Math.max(2, locals.length * 0.8) ? best[0] : "";
}

/** Id shapes of a sample of IRIs: one per namespace and kind, most frequent first. */
export function idShapes(iris: Iterable<string>, limit = 12): IdShape[] {
  const groups = new Map<string, { ns: string; locals: string[]; opaque: boolean; kind: string; example: string }>();
  for (const value of new Set(iris)) {
    const local = localPart(value);
    const ns = namespaceOf(value);
    const { kind, opaque } = localKind(local);
    const key = `${ns} ${kind}`;
    const g = groups.get(key) ?? { ns, locals: [], opaque, kind, example: value };
    g.locals.push(local);
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => b.locals.length - a.locals.length)
    .slice(0, limit)
    .map((g) => {
      const lead = sharedLead(g.locals);
      return { pattern: `${g.ns}${lead}${g.kind}`, namespace: g.ns, opaque: g.opaque, example: g.example, count: g.locals.length };
    });
}

/** Unit words a predicate's local name ends in ("weight_g", "heightMetres", "price_eur"); generic SI and currency words. */
const UNIT_SUFFIX = /(?:^|[_\-\s])(mm|cm|m|km|g|kg|t|mg|ms|s|min|h|w|kw|mw|gw|v|kv|a|ma|hz|mhz|ghz|mb|gb|tb|eur|usd|gbp|chf|pct|percent|metres|meters|kilometres|kilometers|grams|kilograms|seconds|minutes|hours|days|years|euros|dollars|degrees|celsius|volts|watts)$/i;

/** The unit a predicate's name states, or undefined. */
export function unitOf(predicateLocal: string): string | undefined {
  const words = predicateLocal.replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1_$2");
  const m = UNIT_SUFFIX.exec(words);
  return m ? m[1].toLowerCase() : undefined;
}

const DATE_TEXT: [RegExp, string][] = [
  [/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD"],
  [/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, "YYYY-MM-DDThh:mm"],
  [/^\d{1,2}\/\d{1,2}\/\d{4}$/, "DD/MM/YYYY or MM/DD/YYYY"],
  [/^\d{1,2}\.\d{1,2}\.\d{4}$/, "DD.MM.YYYY"],
  [/^\d{4}$/, "YYYY"],
];

/** "YYYY-MM-DD" etc. for a text value shaped like a date, or undefined. */
export function dateTextForm(value: string): string | undefined {
  return DATE_TEXT.find(([re]) => re.test(value.trim()))?.[1];
}
