// Builds a KG's lexicon from bounded SPARQL (every query has a LIMIT; counting queries read a LIMITed sample), so it
// runs the same on an embedded store and on a large endpoint: the name predicates (discover.ts), the classes and
// properties, the name literals, and the IRIs named only by their local names.
import { iri, isSafeIri } from "@/lib/kg/escape";
import { NS } from "@/lib/kg/profile";
import type { KgProfile } from "@/lib/kg/types";
import { DEFAULT_DISCOVER_LIMITS, discoverNamePredicates, type DiscoverLimits, type LexiconSelect, type NamePredicate } from "./discover";
import { Lexicon } from "./lexicon";

export interface LexiconLimits extends DiscoverLimits {
  /** name literals read */
  names: number;
  /** IRIs (subjects, then IRI objects) whose local names are indexed */
  iris: number;
  /** classes and properties read (used or declared) */
  schemaTerms: number;
}

export const DEFAULT_LEXICON_LIMITS: LexiconLimits = { ...DEFAULT_DISCOVER_LIMITS, names: 400_000, iris: 300_000, schemaTerms: 5000 };

export interface LexiconStats {
  namePredicates: NamePredicate[];
  /** names indexed */
  names: number;
  entities: number;
  classes: number;
  properties: number;
  /** a bound was hit: part of the KG is not in the lexicon */
  truncated: boolean;
  buildMs: number;
}

export interface BuiltLexicon {
  lexicon: Lexicon;
  stats: LexiconStats;
}

const CLASS_DECLARATIONS = [`${NS.owl}Class`, `${NS.rdfs}Class`];
const PROPERTY_DECLARATIONS = [`${NS.rdf}Property`, `${NS.owl}ObjectProperty`, `${NS.owl}DatatypeProperty`, `${NS.owl}AnnotationProperty`, `${NS.owl}FunctionalProperty`];
/** Entries added between yields to the event loop (a big KG's lexicon must not block a server for seconds). */
const CHUNK = 20_000;
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

const values = (list: string[]) => list.filter(isSafeIri).map(iri).join(" ");

export async function buildLexicon(
  select: LexiconSelect,
  profile: Pick<KgProfile, "labelPredicates" | "descriptionPredicates" | "typePredicates" | "language">,
  limits: LexiconLimits = DEFAULT_LEXICON_LIMITS,
  now: () => number = () => performance.now(),
): Promise<BuiltLexicon> {
  const started = now();
  let truncated = false;
  let added = 0;
  const pace = async () => {
    if (++added % CHUNK === 0) await yieldNow();
  };
  const types = profile.typePredicates.length ? profile.typePredicates : [`${NS.rdf}type`];

  const namePredicates = await discoverNamePredicates(select, profile, limits);
  const lexicon = new Lexicon(profile.language.toLowerCase(), new Map(namePredicates.map((p, i) => [p.predicate, i])));

  // classes: used as types, in the class hierarchy, or declared
  const classRows = await select(
    "lexicon: classes",
    `SELECT DISTINCT ?c WHERE { { VALUES ?t { ${values(types)} } ?x ?t ?c } UNION { ?c ${iri(`${NS.rdfs}subClassOf`)} ?d } UNION { ?d ${iri(`${NS.rdfs}subClassOf`)} ?c } UNION { VALUES ?k { ${values(CLASS_DECLARATIONS)} } ?c ${iri(`${NS.rdf}type`)} ?k } FILTER(isIRI(?c)) } LIMIT ${limits.schemaTerms}`,
  );
  truncated ||= classRows.length >= limits.schemaTerms;
  for (const b of classRows) if (b.c) lexicon.addTerm(b.c.value, "class");

  // properties: used (in a sample of triples) or declared
  const usedRows = await select("lexicon: predicates", `SELECT DISTINCT ?p WHERE { { SELECT ?p WHERE { ?s ?p ?o } LIMIT ${limits.sampleTriples} } } LIMIT ${limits.schemaTerms}`);
  const declaredRows = await select(
    "lexicon: declared properties",
    `SELECT DISTINCT ?p WHERE { { VALUES ?k { ${values(PROPERTY_DECLARATIONS)} } ?p ${iri(`${NS.rdf}type`)} ?k } UNION { ?p ${iri(`${NS.rdfs}subPropertyOf`)} ?q } UNION { ?q ${iri(`${NS.rdfs}subPropertyOf`)} ?p } UNION { ?p ${iri(`${NS.owl}inverseOf`)} ?q } UNION { ?p ${iri(`${NS.rdfs}domain`)} ?q } FILTER(isIRI(?p)) } LIMIT ${limits.schemaTerms}`,
  );
  truncated ||= usedRows.length >= limits.schemaTerms || declaredRows.length >= limits.schemaTerms;
  for (const b of [...usedRows, ...declaredRows]) if (b.p) lexicon.addTerm(b.p.value, "property");

  // name literals, for whatever they name (entities, classes and properties alike), in every language
  const byPredicate = new Map(namePredicates.map((p) => [p.predicate, p]));
  // one source object per predicate, shared by all its names
  const sources = new Map(namePredicates.map((p) => [p.predicate, { kind: "predicate" as const, predicate: p.predicate, role: p.role }]));
  if (byPredicate.size) {
    const rows = await select(
      "lexicon: names",
      `SELECT ?s ?p ?l WHERE { VALUES ?p { ${values([...byPredicate.keys()])} } ?s ?p ?l . FILTER(isIRI(?s) && isLiteral(?l)) } LIMIT ${limits.names}`,
    );
    truncated ||= rows.length >= limits.names;
    for (const b of rows) {
      const np = b.p ? byPredicate.get(b.p.value) : undefined;
      if (!b.s || !b.l || !np) continue;
      const lang = (b.l as { "xml:lang"?: string })["xml:lang"];
      lexicon.addName(b.s.value, { text: b.l.value, ...(lang ? { lang } : {}), source: sources.get(np.predicate) ?? { kind: "predicate", predicate: np.predicate, role: np.role } });
      await pace();
    }
  }

  // every other IRI is named by its local name (an object that is only pointed to is found no other way)
  let left = limits.iris;
  const subjects = await select("lexicon: subjects", `SELECT DISTINCT ?x WHERE { ?x ?p ?o . FILTER(isIRI(?x)) } LIMIT ${left}`);
  truncated ||= subjects.length >= left;
  left -= subjects.length;
  const objects = left > 0 ? await select("lexicon: IRI objects", `SELECT DISTINCT ?x WHERE { ?s ?p ?x . FILTER(isIRI(?x)) } LIMIT ${left}`) : [];
  truncated ||= left <= 0 || objects.length >= left;
  for (const b of [...subjects, ...objects]) {
    if (!b.x) continue;
    if (lexicon.kindsOf(b.x.value).length === 0) lexicon.addTerm(b.x.value, "entity");
    await pace();
  }

  return {
    lexicon,
    stats: {
      namePredicates,
      names: lexicon.size,
      entities: lexicon.count("entity"),
      classes: lexicon.count("class"),
      properties: lexicon.count("property"),
      truncated,
      buildMs: now() - started,
    },
  };
}
