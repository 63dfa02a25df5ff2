// Same-named options: when a search lists several things under the same name and the same types, nothing in the tool
// output tells them apart, so a model reading it cannot know which one the question means. The question-grounded
// oracle then takes the first of them (as a model would), not the one the gold query happens to use.

/** One option line of a search_entities output: `3. <iri> "Name" (matched … via …) — a ex:Type`. */
const OPTION = /^\d+\. (\S+) (.*)$/;
const MATCHED_NOTE = / \(matched .*? via [^)]*\)/;

/**
 * For each gold IRI a search listed after a look-alike (same name, same types) and never first among its look-alikes:
 * the look-alike listed first. `expand` turns an IRI as written (`<…>` or `prefix:local`) into the full IRI.
 */
export function firstLookAlikes(golds: Iterable<string>, toolTexts: string[], expand: (written: string) => string | undefined): Map<string, { first: string; alike: number }> {
  const outputs = toolTexts
    .filter((t) => /^Entities for "/.test(t))
    .map((t) =>
      t
        .split("\n")
        .slice(1)
        .flatMap((line) => {
          const m = OPTION.exec(line);
          const iri = m ? expand(m[1]) : undefined;
          return m && iri ? [{ iri, key: m[2].replace(MATCHED_NOTE, "") }] : [];
        }),
    );
  const out = new Map<string, { first: string; alike: number }>();
  for (const gold of golds) {
    let pick: { first: string; alike: number } | undefined;
    let firstSomewhere = false;
    for (const options of outputs) {
      const own = options.find((o) => o.iri === gold);
      if (!own) continue;
      const alike = options.filter((o) => o.key === own.key);
      if (alike[0].iri === gold) firstSomewhere = true;
      else pick ??= { first: alike[0].iri, alike: alike.length };
    }
    if (pick && !firstSomewhere) out.set(gold, pick);
  }
  return out;
}
