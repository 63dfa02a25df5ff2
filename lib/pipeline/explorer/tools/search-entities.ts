// search_entities: things named by words, from the profile's label-search adapter and the explorer's entity index
// (label-like literals of any language, decoded IRI local names), fused by rank; types shown; optional class filter.
import { z } from "zod";
import { toAppError } from "@/lib/errors";
import { iri, isSafeIri } from "@/lib/kg/escape";
import { tokenize } from "@/lib/kg/label-index";
import { allowedEdits, describeCorrection, stem, type WordCorrection } from "@/lib/kg/lexicon";
import { NS } from "@/lib/kg/profile";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { isIdLike } from "../entity-index";
import { questionWritesName } from "../question-constants";
import { expandIri } from "../render";
import { EXPLORE_STAGE, selectRows, type ExplorerTool } from "../tool-env";

export const SEARCH_ENTITIES = "search_entities";
const SHOWN = 10;
const CANDIDATES = 30;
/** rank-fusion constant: a hit's weight is 1/(K + rank) in each list */
const K = 5;

const input = z.object({
  query: z.string().min(1).max(300).describe("The name of the thing to find (a person, product, place, organisation, …), as few words as possible."),
  class: z.string().optional().describe("Only return instances of this class (an IRI or prefixed name from the schema)."),
});

interface Fused {
  iri: string;
  label?: string;
  /** the name only comes from the IRI itself (no label-like literal matched) */
  fromIri: boolean;
  score: number;
  /** the lexicon's match: the name and where it came from (a predicate, or the IRI's local name) */
  matched?: { name: string; via: string };
  /** every name a search matched it by */
  names: string[];
}

export const searchEntities: ExplorerTool<z.infer<typeof input>> = {
  name: SEARCH_ENTITIES,
  description:
    "Find entities (instances) by name or words of their labels, in any language, and by the words of their IRI. Returns up to 10 IRIs with a label and their classes. Search one thing per call.",
  input,
  async run({ query, class: cls }, env, render) {
    const notes: string[] = [];
    const classIri = cls ? expandIri(cls, env.shape.prefixes) : undefined;
    if (cls && !classIri) notes.push(`(class "${cls}" is not an IRI or known prefixed name: ignored)`);
    let { ranked, typesOf } = await findEntities(env, query, classIri, notes);
    // users misspell: when no name holds the words, the names' words within a small edit distance are tried, and the
    // output says so (a model and a user must see the match was approximate)
    let approximate: WordCorrection[] = [];
    let searched = query;
    if (!ranked.some((h) => holdsWords(h, query))) {
      const corrected = (await env.entityIndex()).correctWords(query);
      if (corrected) {
        const again = await findEntities(env, corrected.text, classIri, []);
        if (again.ranked.some((h) => holdsWords(h, corrected.text))) {
          ({ ranked, typesOf } = again);
          approximate = corrected.corrections;
          searched = corrected.text;
          notes.unshift(`(no name holds ${JSON.stringify(query)}: approximate match, ${approximate.map(describeCorrection).join(", ")} — check it is the thing meant)`);
        }
      }
    }
    const top = ranked.slice(0, SHOWN);
    // a thing named as the question names it is one of the question's constants (a final query may choose among them)
    if (questionWritesName(query, env.asked)) for (const h of top) if (holdsWords(h, searched)) env.questionConstants.add(h.iri);
    if (top.length === 0) {
      return { text: [`No entity matches "${query}"${classIri ? ` among instances of ${render.name(classIri)}` : ""}.`, ...notes, "Try other words, a shorter name, or search_values for literal values."].join("\n"), data: { query, hits: [] } };
    }
    const classLabel = new Map(env.shape.classes.map((c) => [c.iri, c.label]));
    const lines = top.map((h, i) => {
      const types = (typesOf.get(h.iri) ?? []).slice(0, 2).map((t) => render.iri(t));
      const name = h.label ? JSON.stringify(h.label) : h.matched ? `(no name literal; named by its IRI: ${JSON.stringify(h.matched.name)})` : "(no label; matched the IRI)";
      // which name matched, when it is not the one shown (an id, another language, the IRI's words)
      const via = h.matched && h.label && normalizeLabel(h.matched.name) !== normalizeLabel(h.label) ? ` (matched ${JSON.stringify(h.matched.name)} via ${h.matched.via})` : "";
      return `${i + 1}. ${render.iri(h.iri)} ${name}${via}${types.length ? ` — a ${types.join(", ")}` : ""}`;
    });
    notes.push(...lookAlikeNotes(top, typesOf));
    const more = ranked.length > SHOWN ? ` (${ranked.length - SHOWN} more candidates not shown: refine the words or pass a class)` : "";
    return {
      text: [`Entities for "${query}"${classIri ? ` of class ${render.iri(classIri)}` : ""}${more}:`, ...lines, ...notes].join("\n"),
      data: {
        query,
        ...(classIri ? { class: classIri } : {}),
        hits: top.map((h) => ({ iri: h.iri, label: h.label, ...(h.matched ? { matched: h.matched } : {}), types: (typesOf.get(h.iri) ?? []).slice(0, 3).map((t) => ({ iri: t, label: classLabel.get(t) })) })),
        candidates: ranked.length,
        ...(approximate.length ? { approximate } : {}),
      },
    };
  },
};

type Env = Parameters<ExplorerTool["run"]>[1];

/** Candidates for the words from the label-search adapter, the entity index and the IRI/id forms, fused by rank. */
async function findEntities(env: Env, query: string, classIri: string | undefined, notes: string[]): Promise<{ ranked: Fused[]; typesOf: Map<string, string[]> }> {
  const { ctx } = env;
  const want = classIri ? CANDIDATES * 3 : CANDIDATES;
  let adapter: { iri: string; label: string }[] = [];
  try {
    adapter = await ctx.searchLabels(EXPLORE_STAGE, query, { limit: want });
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted") throw err;
    notes.push(`(the label search failed: ${err.message})`);
  }
  const index = await env.entityIndex();
  const own = index.search(query, want);
  // an id written whole or shortened ("7825e759" of urn:uuid:7825e759-…), or an IRI the KG holds, is found as such
  const asIri = expandIri(query, env.shape.prefixes);
  const byIri = asIri && isSafeIri(asIri) ? await existingIri(env, asIri) : [];
  const byId = isIdLike(query) ? index.searchIdPrefix(query, want) : [];
  const wanted = normalizeLabel(query);
  const fused = new Map<string, Fused>();
  const add = (list: { iri: string; label: string; fromIri?: boolean; display?: string; via?: string }[], bonus = 0) =>
    list.forEach((h, rank) => {
      const entry = fused.get(h.iri) ?? { iri: h.iri, fromIri: true, score: 0, names: [] };
      entry.score += 1 / (K + rank) + (normalizeLabel(h.label) === wanted ? 1 : 0) + bonus;
      entry.names.push(h.label);
      const name = h.display ?? (h.fromIri ? undefined : h.label);
      if (name && (entry.fromIri || !entry.label)) {
        entry.label = name;
        entry.fromIri = false;
      }
      if (h.via && !entry.matched) entry.matched = { name: h.label, via: h.via };
      fused.set(h.iri, entry);
    });
  add(byIri, 2);
  add(byId, 1);
  add(adapter);
  add(own);
  let ranked = [...fused.values()].sort((a, b) => b.score - a.score);
  const typesOf = await fetchTypes(env, ranked.slice(0, classIri ? want : CANDIDATES).map((h) => h.iri));
  if (classIri) {
    const accepted = subclassesOf(classIri, env.shape.classes.map((c) => ({ iri: c.iri, supers: c.supers })));
    // the summary's hierarchy covers its classes only: the KG's own rdfs:subClassOf reaches the rest
    if (isSafeIri(classIri)) {
      const below = await selectRows(env, "search_entities: subclasses of the class", `SELECT DISTINCT ?c WHERE { ?c ${iri(`${NS.rdfs}subClassOf`)}+ ${iri(classIri)} } LIMIT 500`);
      for (const b of below) if (b.c?.type === "uri") accepted.add(b.c.value);
    }
    ranked = ranked.filter((h) => (typesOf.get(h.iri) ?? []).some((t) => accepted.has(t)));
  }
  return { ranked, typesOf };
}

/**
 * Does one of the names the hit matched by hold the searched words (case and inflection folded)? Words of 4+ letters
 * count when there are some: "the" or "of" in the search need not be in the name.
 */
function holdsWords(h: Fused, text: string): boolean {
  const all = tokenize(text).map(stem);
  const content = all.filter((w) => allowedEdits(w) > 0);
  const words = content.length ? content : all;
  return h.names.some((n) => {
    const have = new Set(tokenize(n).map(stem));
    return words.every((w) => have.has(w));
  });
}

/**
 * rdf:type (the profile's type predicates) of each IRI, in one query; the most specific first: with an entailed
 * hierarchy a thing is also typed by every superclass, and the two types shown must say what it is.
 */
async function fetchTypes(env: Parameters<ExplorerTool["run"]>[1], iris: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (iris.length === 0) return out;
  const preds = env.ctx.kg.profile.typePredicates.length ? env.ctx.kg.profile.typePredicates : [`${NS.rdf}type`];
  const rows = await selectRows(
    env,
    "search_entities: types",
    // one VALUES block and a FILTER: oxigraph evaluates two VALUES blocks after a scan of every triple
    `SELECT ?s ?t WHERE { VALUES ?s { ${iris.map(iri).join(" ")} } ?s ?tp ?t . FILTER(?tp IN (${preds.map(iri).join(", ")}) && isIRI(?t)) }`,
  );
  for (const b of rows) out.set(b.s.value, [...(out.get(b.s.value) ?? []), b.t.value]);
  const several = [...new Set([...out.values()].filter((ts) => ts.length > 1).flat())].filter(isSafeIri);
  if (several.length > 1) {
    const below = await superclassPairs(env, several);
    for (const [s, ts] of out) out.set(s, [...ts].sort((a, b) => depth(b, ts, below) - depth(a, ts, below)));
  }
  return out;
}

/** How many of `types` lie above `t` (more: more specific). */
const depth = (t: string, types: string[], below: Set<string>) => types.filter((u) => u !== t && below.has(`${t} ${u}`)).length;

/** "A B" for each pair of the classes where A is a (transitive) subclass of B. */
async function superclassPairs(env: Parameters<ExplorerTool["run"]>[1], classes: string[]): Promise<Set<string>> {
  const list = classes.slice(0, 60).map(iri).join(" ");
  const rows = await selectRows(
    env,
    "search_entities: which types are subclasses of which",
    `SELECT ?a ?b WHERE { VALUES ?a { ${list} } ?a ${iri(`${NS.rdfs}subClassOf`)}+ ?b . FILTER(?a != ?b && ?b IN (${classes.slice(0, 60).map(iri).join(", ")})) }`,
  );
  return new Set(rows.map((b) => `${b.a.value} ${b.b.value}`));
}

/**
 * A note per name that several shown hits share with the same types: nothing shown tells them apart, so the model is
 * told so rather than taking the first blindly.
 */
function lookAlikeNotes(top: Fused[], typesOf: Map<string, string[]>): string[] {
  const groups = new Map<string, { label: string; n: number }>();
  for (const h of top) {
    if (!h.label) continue;
    const key = `${normalizeLabel(h.label)}\u0000${(typesOf.get(h.iri) ?? []).slice(0, 2).join(" ")}`;
    const g = groups.get(key) ?? { label: h.label, n: 0 };
    g.n++;
    groups.set(key, g);
  }
  return [...groups.values()]
    .filter((g) => g.n > 1)
    .map((g) => `(${g.n} of these are named ${JSON.stringify(g.label)} and have the same types: the name alone does not tell them apart — use another constraint of the question, or describe_entity to see how each is connected)`);
}

/** The IRI as a hit when some triple has it (an IRI written in the question), else nothing. */
async function existingIri(env: Parameters<ExplorerTool["run"]>[1], value: string): Promise<{ iri: string; label: string; fromIri: boolean; via: string }[]> {
  const rows = await selectRows(env, "search_entities: is the IRI in the KG?", `SELECT ?p WHERE { { ${iri(value)} ?p ?o } UNION { ?s ?p ${iri(value)} } } LIMIT 1`);
  return rows.length ? [{ iri: value, label: value, fromIri: true, via: "the IRI itself" }] : [];
}

/** The class and every class below it in the data shape's hierarchy. */
export function subclassesOf(root: string, classes: { iri: string; supers: string[] }[]): Set<string> {
  const out = new Set([root]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of classes) {
      if (!out.has(c.iri) && c.supers.some((s) => out.has(s))) {
        out.add(c.iri);
        changed = true;
      }
    }
  }
  return out;
}
