// Same-named options: when a search lists several things under the same name and the same types, nothing in the tool
// output tells them apart, so a model reading it cannot know which one the question means. The question-grounded
// oracle then takes the first of them (as a model would), not the one the gold query happens to use. Likewise when an
// option of the gold's types bears exactly the searched name and the gold's own name differs: a model takes that one.

/** One option line of a search_entities output: `3. <iri> "Name" (matched … via …) — a ex:Type`. */
const OPTION = /^\d+\. (\S+) (.*)$/;
const MATCHED_NOTE = / \(matched .*? via [^)]*\)/;
const HEADER = /^Entities for "(.*?)"(?: of class \S+)?(?: \(\d+ more candidates.*\))?:$/;

const fold = (s: string) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, " ").trim().toLowerCase();

interface Option {
  iri: string;
  name: string | undefined;
  types: string;
}

function parseOption(line: string, expand: (written: string) => string | undefined): Option | undefined {
  const m = OPTION.exec(line);
  const iri = m ? expand(m[1]) : undefined;
  if (!m || !iri) return undefined;
  const rest = m[2].replace(MATCHED_NOTE, "");
  const at = rest.lastIndexOf(" — a ");
  const head = at >= 0 ? rest.slice(0, at) : rest;
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(head);
  let name: string | undefined;
  if (quoted) {
    try {
      name = JSON.parse(`"${quoted[1]}"`) as string;
    } catch {
      name = quoted[1];
    }
  }
  return { iri, name, types: at >= 0 ? rest.slice(at + 5) : "" };
}

/**
 * For each gold IRI a search listed after a look-alike (same name and types, or of the same types and named exactly
 * what was searched while the gold is not) and never first among its look-alikes: the look-alike listed first.
 * `expand` turns an IRI as written (`<…>` or `prefix:local`) into the full IRI.
 */
export function firstLookAlikes(golds: Iterable<string>, toolTexts: string[], expand: (written: string) => string | undefined): Map<string, { first: string; alike: number }> {
  const outputs = toolTexts.flatMap((t) => {
    const lines = t.split("\n");
    const h = HEADER.exec(lines[0] ?? "");
    if (!h) return [];
    return [{ query: fold(h[1]), options: lines.slice(1).flatMap((l) => parseOption(l, expand) ?? []) }];
  });
  const out = new Map<string, { first: string; alike: number }>();
  for (const gold of golds) {
    let pick: { first: string; alike: number } | undefined;
    let firstSomewhere = false;
    for (const { query, options } of outputs) {
      const own = options.find((o) => o.iri === gold);
      if (!own) continue;
      const ownExact = own.name !== undefined && fold(own.name) === query;
      const alike = options.filter(
        (o) => o.types === own.types && ((o.name !== undefined && own.name !== undefined && fold(o.name) === fold(own.name)) || (!ownExact && o.name !== undefined && fold(o.name) === query) || o.iri === gold),
      );
      if (alike[0].iri === gold) firstSomewhere = true;
      else pick ??= { first: alike[0].iri, alike: alike.length };
    }
    if (pick && !firstSomewhere) out.set(gold, pick);
  }
  return out;
}
