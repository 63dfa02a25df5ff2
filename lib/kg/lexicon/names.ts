// Names an IRI carries in itself: its local name split into words (CamelCase, snake_case, kebab-case, dots, digits,
// percent-encoding), or none when the local name is an opaque id (urn:uuid, hex, "Q42"); and the light stemming that
// makes "plays" find "played" and "clubs" find "club" in any of the lexicon's names.
import { tokenize } from "@/lib/kg/label-index";

/** The part of an IRI after its last `#`, `/` or (for URNs and other opaque IRIs) `:`, percent-decoded. */
export function localPart(value: string): string {
  const trimmed = value.replace(/[#/]+$/, "");
  const cut = Math.max(trimmed.lastIndexOf("#"), trimmed.lastIndexOf("/"));
  let local = cut >= 0 ? trimmed.slice(cut + 1) : trimmed.slice(trimmed.lastIndexOf(":") + 1);
  try {
    local = decodeURIComponent(local);
  } catch {
    // malformed %-escapes: keep them raw
  }
  return local;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** Long runs of hex digits with at least one digit (hashes, GUIDs without dashes, "_a3f9…" ids). */
const HEX_ID = /^[_-]?(?=[0-9a-f_-]*\d)[0-9a-f_-]{12,}$/i;
/** Short code-like ids: a letter or two and digits ("Q42", "P31", "n17"); all digits. */
const CODE_ID = /^[A-Za-z]{0,2}[_-]?\d+$/;

/** True when the IRI names nothing by itself: urn:uuid, a UUID/hex/code-like local name, a blank local name. */
export function isOpaqueIri(value: string): boolean {
  if (/^urn:uuid:/i.test(value)) return true;
  const local = localPart(value).replace(/^[_-]+/, "");
  if (!local) return true;
  if (UUID.test(local) || HEX_ID.test(local) || CODE_ID.test(local)) return true;
  // nothing that reads as a word: no run of two letters
  return !/\p{L}{2}/u.test(local);
}

/** "ACLineSegment" → "AC Line Segment", "birth_place" → "birth place", "Line12" → "Line 12", "a%20b" → "a b". */
export function splitWords(local: string): string {
  return local
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/(\p{L})(\d)/gu, "$1 $2")
    .replace(/(\d)(\p{L}{2})/gu, "$1 $2")
    .replace(/[_\-.+~:,;()\s]+/g, " ")
    .trim();
}

/**
 * The names an IRI's local name gives, best first: the whole local name in words and, for a dotted `Owner.member` local
 * name (UML-style ontologies), the member alone; none for an opaque IRI.
 */
export function localNames(value: string): string[] {
  if (isOpaqueIri(value)) return [];
  const local = localPart(value);
  const words = splitWords(local);
  // a letter and its digits are one code as people type it ("hive_s03" → "hive s03"); the split form stays findable
  const out = [words.replace(/(^|\s)(\p{L}) (\d+)(?=\s|$)/gu, "$1$2$3"), words];
  const dot = local.lastIndexOf(".");
  if (dot > 0 && dot < local.length - 1) {
    const member = splitWords(local.slice(dot + 1));
    // a one-letter member ("Segment.r") is a symbol, not a name
    if (/\p{L}{2}/u.test(member)) out.push(member);
  }
  return [...new Set(out.filter((n) => /\p{L}/u.test(n)))];
}

/** Words that end like an inflection but are not one. */
const KEEP = new Set(["news", "series", "species", "always", "during", "thing", "string", "ring", "king", "bring", "red", "bed", "need", "seed", "feed", "speed", "hundred", "used"]);

/**
 * A light English stem (no dictionary): plural, -ing, -ed and -ly endings removed, a doubled final consonant undone
 * ("running" → run, "played" → play, "batteries" → battery, "clubs" → club). Tokens with digits, or shorter than five
 * letters, stay as they are; other scripts pass through (their names still match case- and accent-insensitively).
 */
export function stem(token: string): string {
  const t = token.toLowerCase();
  if (t.length < 5 || /\d/.test(t) || !/^[a-z]+$/.test(t) || KEEP.has(t)) return t;
  let s = t;
  if (s.endsWith("ies") && s.length > 5) s = `${s.slice(0, -3)}y`;
  else if (/(sses|xes|ches|shes|zes)$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith("s") && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);
  else if (s.endsWith("ing") && s.length > 6) s = s.slice(0, -3);
  else if (s.endsWith("ied") && s.length > 5) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith("ed") && s.length > 5) s = s.slice(0, -2);
  else if (s.endsWith("ly") && s.length > 5) s = s.slice(0, -2);
  // "running" → "runn" → "run", "stopped" → "stopp" → "stop"
  if (s !== t && /([b-df-hj-np-tv-z])\1$/.test(s) && !/(ll|ss|zz)$/.test(s)) s = s.slice(0, -1);
  return s;
}

/** The text's tokens (lowercased, accents folded), each stemmed; joined by spaces. */
export function stemmedText(text: string): string {
  return tokenize(text).map(stem).join(" ");
}
