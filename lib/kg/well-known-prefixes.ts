// The W3C/DCMI/FOAF/schema.org prefixes every SPARQL user writes without thinking: a query that uses one undeclared
// gets the declaration added before it is parsed (endpoints such as Virtuoso predefine them; sparqljs does not). The
// read-only guard (sparql-guard.ts) applies this to every query, so users, models, replays and gold queries agree.

/** Prefix → namespace. Only these are ever added; a prefix the query declares itself is left as it is. */
export const WELL_KNOWN_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
  owl: "http://www.w3.org/2002/07/owl#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  dc: "http://purl.org/dc/elements/1.1/",
  dcterms: "http://purl.org/dc/terms/",
  foaf: "http://xmlns.com/foaf/0.1/",
  schema: "http://schema.org/",
});

export function isWellKnownPrefix(name: string): boolean {
  return Object.hasOwn(WELL_KNOWN_PREFIXES, name);
}

/** The prefix sparqljs reports as undeclared ("Unknown prefix: rdfs"), if that is the error. */
export function unknownPrefixOf(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== "string") return undefined;
  return /^Unknown prefix: ([A-Za-z][\w.-]*)\s*$/.exec(message.split("\n")[0])?.[1];
}

/** The query with one `PREFIX` line per name in front (each on its own line, so later lines keep their content). */
export function withDeclarations(query: string, names: readonly string[]): string {
  if (names.length === 0) return query;
  return `${names.map((n) => `PREFIX ${n}: <${WELL_KNOWN_PREFIXES[n]}>`).join("\n")}\n${query}`;
}

export type Declared<T> =
  | {
      ok: true;
      /** what `parse` returned for the query as it runs */
      parsed: T;
      /** the query as it runs: the text given, or it with the missing well-known prefixes declared in front */
      query: string;
      /** the prefixes added, in the order the parser asked for them (empty: the query runs as written) */
      declared: string[];
    }
  /** the last attempt's error; `lineOffset` lines were added in front of the text the user wrote */
  | { ok: false; error: unknown; lineOffset: number };

/**
 * Parses `query`; while the parser names an undeclared well-known prefix, declares it and parses again. Any other
 * error (or an unknown prefix that is not well known) is returned from the last attempt.
 */
export function parseDeclaring<T>(query: string, parse: (text: string) => T): Declared<T> {
  const declared: string[] = [];
  for (;;) {
    const text = withDeclarations(query, declared);
    try {
      return { ok: true, parsed: parse(text), query: text, declared };
    } catch (error) {
      const name = unknownPrefixOf(error);
      if (!name || !isWellKnownPrefix(name) || declared.includes(name)) return { ok: false, error, lineOffset: declared.length };
      declared.push(name);
    }
  }
}
