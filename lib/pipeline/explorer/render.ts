// How the explorer's tools write KG terms for the model: IRIs compact with the summary's prefixes (or <full>, byte-exact),
// literals quoted with language or datatype, long text cut and marked; every IRI written is remembered (the known set).
import { compactIri } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";

const LITERAL_CHARS = 160;

export class Render {
  /** IRIs this tool output showed the model */
  readonly shown = new Set<string>();
  /** prefixes the output wrote IRIs with */
  readonly prefixesUsed = new Set<string>();

  constructor(private readonly prefixes: Record<string, string>) {}

  iri(value: string): string {
    this.shown.add(value);
    const c = compactIri(value, this.prefixes);
    if (!c.startsWith("<")) this.prefixesUsed.add(c.slice(0, c.indexOf(":")));
    return c;
  }

  /**
   * An IRI written compactly without counting it as returned by the KG: datatypes, and IRIs the model itself passed in
   * that no triple confirmed (an invented IRI echoed back must not become "known").
   */
  name(value: string): string {
    const c = compactIri(value, this.prefixes);
    if (!c.startsWith("<")) this.prefixesUsed.add(c.slice(0, c.indexOf(":")));
    return c;
  }

  literal(t: { value: string; "xml:lang"?: string; datatype?: string }): string {
    const cut = t.value.length > LITERAL_CHARS ? `${t.value.slice(0, LITERAL_CHARS - 1)}…` : t.value;
    const quoted = JSON.stringify(cut);
    if (t["xml:lang"]) return `${quoted}@${t["xml:lang"]}`;
    if (t.datatype && !t.datatype.endsWith("#string")) return `${quoted}^^${this.name(t.datatype)}`;
    return quoted;
  }

  term(t: Term | undefined): string {
    if (!t) return "–";
    if (t.type === "uri") return this.iri(t.value);
    if (t.type === "bnode") return `_:${t.value}`;
    return this.literal(t);
  }

  /** An IRI with its label when it has one: `pv:x "Label"`. */
  labelled(value: string, label: string | undefined): string {
    return label ? `${this.iri(value)} ${JSON.stringify(label.length > 80 ? `${label.slice(0, 79)}…` : label)}` : this.iri(value);
  }
}

/**
 * An IRI as the model wrote it in a tool argument: `<…>`, `prefix:local` with a known prefix, or a bare absolute IRI.
 * Undefined when it is none of these.
 */
export function expandIri(text: string, prefixes: Record<string, string>): string | undefined {
  const t = text.trim();
  const bracketed = /^<([^<>\s]+)>$/.exec(t);
  if (bracketed) return bracketed[1];
  const compact = /^([A-Za-z][\w.-]*)?:([^\s<>]*)$/.exec(t);
  if (compact && prefixes[compact[1] ?? ""] !== undefined && !t.includes("://")) return `${prefixes[compact[1] ?? ""]}${compact[2]}`;
  if (/^[a-z][\w+.-]*:\/\/\S+$/i.test(t) || /^urn:\S+$/i.test(t)) return t;
  return undefined;
}
