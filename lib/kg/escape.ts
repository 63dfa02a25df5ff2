// Escaping for user text and IRIs that enter SPARQL queries: string literals, language tags and <IRI> refs.
import { AppError } from "@/lib/errors";

// Lone UTF-16 surrogates cannot be encoded as UTF-8 (URL-encoding throws), so they become U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces unpaired surrogates so the text can always be sent over HTTP. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

const ECHAR: Record<string, string> = {
  "\\": "\\\\",
  '"': '\\"',
  "'": "\\'",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/**
 * Escapes text for the inside of a SPARQL string literal ("…" or '…').
 * Backslash, both quotes, LF, CR, TAB, BS, FF use ECHAR escapes; other C0/C1 controls and DEL use \uXXXX
 * (the grammar allows them raw, but many servers and logs do not). Other Unicode is kept as is.
 */
export function escapeLiteral(text: string): string {
  // eslint-disable-next-line no-control-regex
  return wellFormed(text).replace(/[\\"'\u0000-\u001f\u007f-\u009f]/g, (c) => {
    const e = ECHAR[c];
    return e ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  });
}

const LANG_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;

/** True for a BCP47-shaped language tag as SPARQL's LANGTAG allows. */
export function isLangTag(tag: string): boolean {
  return LANG_TAG.test(tag);
}

/** Builds a complete, safe SPARQL literal: "text", "text"@lang or "text"^^<datatype>. */
export function literal(text: string, opts: { lang?: string; datatype?: string } = {}): string {
  const body = `"${escapeLiteral(text)}"`;
  if (opts.lang !== undefined && opts.lang !== "") {
    if (!isLangTag(opts.lang)) throw new AppError("bad_request", `Not a language tag: ${JSON.stringify(opts.lang)}.`);
    return `${body}@${opts.lang}`;
  }
  if (opts.datatype !== undefined) return `${body}^^${iri(opts.datatype)}`;
  return body;
}

// IRIREF excludes <>"{}|^`\ and everything up to U+0020 (controls and space).
// eslint-disable-next-line no-control-regex
const IRI_FORBIDDEN = /[<>"{}|^`\\\u0000-\u0020\u007f-\u009f]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** True when the value can be written as <value> in a query: absolute, and free of IRIREF's forbidden characters. */
export function isSafeIri(value: string): boolean {
  return value.length > 0 && value.length <= 4096 && SCHEME.test(value) && !IRI_FORBIDDEN.test(value) && value === wellFormed(value);
}

/** Returns `<value>` for an absolute IRI, or throws AppError("bad_request") for anything that could break a query. */
export function iri(value: string): string {
  if (!isSafeIri(value)) {
    const shown = value.length > 200 ? `${value.slice(0, 200)}…` : value;
    throw new AppError("bad_request", `Not a usable IRI: ${JSON.stringify(shown)}.`, { details: { iri: shown } });
  }
  return `<${value}>`;
}

/** Escapes regex metacharacters (XPath/SPARQL REGEX syntax) so text matches literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}-]/g, (c) => `\\${c}`);
}
