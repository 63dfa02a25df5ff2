// The known-IRI set of one exploration: every IRI a tool showed the model, the schema summary named, or the conversation
// gave. The final query may use only these, compared byte-exact; an IRI that differs from a known one only in its
// percent-encoding ("%40" vs "@") is refused with the exact form to use.
import { NS } from "@/lib/kg/profile";

/** Vocabularies every query may use without a tool having shown them (rdf:type, rdfs:subClassOf, xsd casts, …). */
const STANDARD = [NS.rdf, NS.rdfs, NS.xsd, NS.owl];

export type IriCheck = { ok: true } | { ok: false; kind: "unknown" } | { ok: false; kind: "encoding"; known: string };

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export class KnownIris {
  private readonly exact = new Set<string>();
  /** decoded form → the known IRIs with that form */
  private readonly byDecoded = new Map<string, string[]>();

  add(values: Iterable<string>): void {
    for (const v of values) {
      if (this.exact.has(v)) continue;
      this.exact.add(v);
      const d = decoded(v);
      this.byDecoded.set(d, [...(this.byDecoded.get(d) ?? []), v]);
    }
  }

  has(value: string): boolean {
    return this.exact.has(value);
  }

  get size(): number {
    return this.exact.size;
  }

  check(value: string): IriCheck {
    if (this.exact.has(value) || STANDARD.some((ns) => value.startsWith(ns))) return { ok: true };
    const twin = this.byDecoded.get(decoded(value))?.[0];
    return twin ? { ok: false, kind: "encoding", known: twin } : { ok: false, kind: "unknown" };
  }
}

/** IRIs written in a text as <…> (a previous answer in the dialogue context, an example query). */
export function irisInText(text: string): string[] {
  return [...text.matchAll(/<([a-z][\w+.-]*:[^<>"{}|^`\\\s]+)>/gi)].map((m) => m[1]);
}
