// The explorer's schema summary of a KG, a "data shape": classes with instance counts and their hierarchy; per class the
// properties its instances use, in both directions, with value types or target classes and two example values; the
// remaining predicates. Built once per KG from bounded queries (samples of instances, LIMITs) and cached.
import { toAppError } from "@/lib/errors";
import { iri, isSafeIri } from "@/lib/kg/escape";
import { compactIri, NS } from "@/lib/kg/profile";
import type { KnowledgeGraph, Term } from "@/lib/kg/types";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import { schemaPrefixes } from "@/lib/pipeline/common/prefixes";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import { cachedPerKg } from "@/lib/pipeline/common/per-kg-cache";
import { renderShape } from "./shape-render";
import { DEFAULT_SHAPE_LIMITS, estimateTokens, META_NAMESPACES, RDF_TYPE, SUBCLASS, type KgShape, type ShapeClass, type ShapeLimits, type ShapeProperty, type ShapeTarget } from "./shape-types";

export { DEFAULT_SHAPE_LIMITS, estimateTokens, type KgShape, type ShapeClass, type ShapeLimits, type ShapeProperty, type ShapeTarget } from "./shape-types";

/** Local names of predicates whose literal values name their subject. */
const NAME_LIKE = /^(name|label|title|preflabel|altlabel|.+name|.+title|.+label)$/i;

/** One shape per KG object; a WeakMap so a dropped KG takes its shape with it. */
export type ShapeCache = WeakMap<KnowledgeGraph, Promise<KgShape>>;
export const createShapeCache = (): ShapeCache => new WeakMap();

/** The KG's shape from `cache`, built on first use (its queries appear in the trace under `stage`); failures are not cached. */
export async function getKgShape(cache: ShapeCache, ctx: AgentContext, stage: Stage, limits: ShapeLimits = DEFAULT_SHAPE_LIMITS): Promise<{ shape: KgShape; cached: boolean }> {
  const { value, cached } = await cachedPerKg(cache, ctx.kg, ctx.signal, () => buildKgShape(ctx, stage, limits));
  return { shape: value, cached };
}

const num = (t: Term | undefined) => (Number.isFinite(Number(t?.value)) ? Number(t?.value) : 0);
const isMeta = (value: string) => META_NAMESPACES.some((ns) => value.startsWith(ns));

async function rows(ctx: AgentContext, stage: Stage, purpose: string, query: string) {
  const r = await ctx.sparql(stage, purpose, query, { perKgBuild: true });
  return r.kind === "SELECT" ? r.results.bindings : [];
}

function typeValues(ctx: AgentContext): string {
  const preds = ctx.kg.profile.typePredicates.length ? ctx.kg.profile.typePredicates : [RDF_TYPE];
  return preds.map(iri).join(" ");
}

export async function buildKgShape(ctx: AgentContext, stage: Stage, limits: ShapeLimits = DEFAULT_SHAPE_LIMITS): Promise<KgShape> {
  const started = ctx.now();
  const types = typeValues(ctx);
  const classRows = await rows(
    ctx,
    stage,
    "shape: classes",
    `SELECT ?c (COUNT(*) AS ?n) WHERE { { SELECT ?s ?c WHERE { VALUES ?t { ${types} } ?s ?t ?c } LIMIT ${limits.sampleTriples} } FILTER(isIRI(?c)) } GROUP BY ?c ORDER BY DESC(?n) LIMIT 200`,
  );
  const counted = classRows.map((b) => ({ iri: b.c.value, count: num(b.n) }));
  const sampledClasses = counted.reduce((a, c) => a + c.count, 0) >= limits.sampleTriples;
  const hierarchy = await rows(ctx, stage, "shape: class hierarchy", `SELECT ?c ?sup WHERE { ?c ${iri(SUBCLASS)} ?sup . FILTER(isIRI(?c) && isIRI(?sup) && ?c != ?sup) } LIMIT 2000`);
  const supersOf = new Map<string, string[]>();
  for (const b of hierarchy) supersOf.set(b.c.value, [...(supersOf.get(b.c.value) ?? []), b.sup.value]);

  const described = counted.filter((c) => !isMeta(c.iri)).slice(0, limits.classes);
  const shapes = await mapBounded(described, limits.concurrency, (c) => classShape(ctx, stage, c.iri, c.count, types, limits));
  const classes: ShapeClass[] = described.map((c, i) => ({ iri: c.iri, count: c.count, supers: supersOf.get(c.iri) ?? [], out: shapes[i], in: [] }));
  // incoming edges come from the other classes' outgoing ones: no extra queries
  const byIri = new Map(classes.map((c) => [c.iri, c]));
  for (const c of classes) {
    for (const p of c.out) for (const t of p.targets) if (t.kind === "class" && t.iri) byIri.get(t.iri)?.in.push([p.predicate, c.iri]);
  }
  // superclasses without instances of their own (reached from a described class), so queries over a hierarchy can name them
  const abstract = new Set<string>();
  const climb = (c: string, depth: number) => {
    for (const s of supersOf.get(c) ?? []) {
      if (!byIri.has(s) && !abstract.has(s) && !isMeta(s) && depth < 10) {
        abstract.add(s);
        climb(s, depth + 1);
      } else if (byIri.has(s) && depth < 10) climb(s, depth + 1);
    }
  };
  for (const c of classes) climb(c.iri, 0);
  for (const c of [...abstract]) if (!supersOf.has(c)) supersOf.set(c, []);

  const predicateRows = await rows(
    ctx,
    stage,
    "shape: predicates",
    `SELECT ?p (COUNT(*) AS ?n) WHERE { { SELECT ?p WHERE { ?s ?p ?o } LIMIT ${limits.sampleTriples} } } GROUP BY ?p ORDER BY DESC(?n) LIMIT 300`,
  );
  const sampledPredicates = predicateRows.reduce((a, b) => a + num(b.n), 0) >= limits.sampleTriples;
  const covered = new Set(classes.flatMap((c) => c.out.map((p) => p.predicate)));
  covered.add(RDF_TYPE);
  covered.add(SUBCLASS);
  const others = predicateRows
    .map((b) => ({ predicate: b.p.value, count: num(b.n) }))
    .filter((p) => !covered.has(p.predicate) && !isMeta(p.predicate))
    .slice(0, limits.otherPredicates);
  const otherExamples = await mapBounded(others, limits.concurrency, (p) => exampleTriple(ctx, stage, p.predicate));
  const otherPredicates = others.map((p, i) => ({ ...p, ...(otherExamples[i] ? { example: otherExamples[i] } : {}) }));

  const labelLike = labelLikePredicates(ctx.kg.profile.labelPredicates, classes, otherPredicates, predicateRows.map((b) => b.p.value));
  const schemaIris = [...classes.map((c) => c.iri), ...abstract, ...classes.flatMap((c) => c.out.map((p) => p.predicate)), ...otherPredicates.map((p) => p.predicate)];
  const labels = await fetchLabels(ctx, stage, [...new Set([...schemaIris, ...counted.map((c) => c.iri)])], "shape: labels", { perKgBuild: true });
  const comments = await fetchComments(ctx, stage, [...new Set(schemaIris)]);
  for (const c of classes) if (labels.has(c.iri)) c.label = labels.get(c.iri);
  const exampleIris = classes.flatMap((c) => c.out.flatMap((p) => [...p.examples.filter((t) => t.type === "uri").map((t) => t.value), ...p.targets.flatMap((t) => (t.iri ? [t.iri] : []))]));
  const prefixes = schemaPrefixes([...schemaIris, ...exampleIris], { ...(await declaredPrefixes(ctx, stage)), ...ctx.kg.profile.prefixes });
  const iris = new Set<string>([...schemaIris, ...counted.map((c) => c.iri), RDF_TYPE, SUBCLASS, ...labelLike]);
  for (const c of classes) for (const p of c.out) for (const t of p.targets) if (t.kind === "class" && t.iri) iris.add(t.iri);
  const shape: Omit<KgShape, "text" | "tokens" | "buildMs"> = {
    kgId: ctx.kg.info.id,
    prefixes,
    classes,
    abstractClasses: [...abstract].map((a) => ({ iri: a, ...(labels.has(a) ? { label: labels.get(a) } : {}) })),
    otherPredicates,
    labelLike,
    labels,
    comments,
    iris,
    sampled: sampledClasses || sampledPredicates,
  };
  const metaClasses = counted.filter((c) => isMeta(c.iri)).map((c) => ({ iri: c.iri, count: c.count }));
  const { text, shown } = renderShape(shape, supersOf, metaClasses, limits.maxTokens);
  for (const value of shown) iris.add(value);
  return { ...shape, text, tokens: estimateTokens(text), buildMs: ctx.now() - started };
}

/**
 * Outgoing properties of a class, from a sample of its instances: coverage, values per instance, value kinds, examples.
 * The sample is fetched first and then listed (VALUES ?s): as a subquery beside `?s ?p ?o`, Virtuoso scanned the whole
 * store before joining it (30 s for one class of CK25 beside a 10M-triple graph; listed: well under a second).
 */
async function classShape(ctx: AgentContext, stage: Stage, cls: string, count: number, types: string, limits: ShapeLimits): Promise<ShapeProperty[]> {
  const shown = compactIri(cls, ctx.kg.profile.prefixes);
  const instances = (await rows(ctx, stage, `shape: instances of ${shown}`, `SELECT DISTINCT ?s WHERE { VALUES ?t { ${types} } ?s ?t ${iri(cls)} } LIMIT ${limits.instancesPerClass}`))
    .flatMap((b) => (b.s?.type === "uri" && isSafeIri(b.s.value) ? [iri(b.s.value)] : []));
  if (instances.length === 0) return [];
  const kinds = await rows(
    ctx,
    stage,
    `shape: properties of ${shown}`,
    `SELECT ?p ?k ?oc (COUNT(DISTINCT ?s) AS ?subjects) (COUNT(*) AS ?n) WHERE {
  VALUES ?s { ${instances.join(" ")} }
  ?s ?p ?o .
  OPTIONAL { VALUES ?t2 { ${types} } ?o ?t2 ?oc . FILTER(isIRI(?oc)) }
  BIND(IF(isLiteral(?o), STR(DATATYPE(?o)), IF(isIRI(?o), "iri", "bnode")) AS ?k)
} GROUP BY ?p ?k ?oc`,
  );
  const exampleRows = await rows(
    ctx,
    stage,
    `shape: examples of ${shown}`,
    `SELECT ?p ?o WHERE { VALUES ?s { ${instances.slice(0, limits.exampleInstances).join(" ")} } ?s ?p ?o } LIMIT ${limits.exampleInstances * 100}`,
  );
  const byPredicate = new Map<string, { subjects: number; values: number; targets: ShapeTarget[] }>();
  for (const b of kinds) {
    const p = b.p.value;
    if (!p) continue;
    const entry = byPredicate.get(p) ?? { subjects: 0, values: 0, targets: [] };
    const kind = b.k?.value ?? "iri";
    const n = num(b.n);
    // a value with two types is counted once per type: subjects and values per predicate keep the largest row
    entry.subjects = Math.max(entry.subjects, num(b.subjects));
    entry.values += b.oc ? 0 : n;
    if (kind === "iri" && b.oc) entry.targets.push({ kind: "class", iri: b.oc.value, count: n });
    else if (kind === "iri") entry.targets.push({ kind: "iri", count: n });
    else if (kind === "bnode") entry.targets.push({ kind: "bnode", count: n });
    else entry.targets.push({ kind: "literal", iri: kind || `${NS.xsd}string`, count: n });
    byPredicate.set(p, entry);
  }
  const examples = new Map<string, Term[]>();
  for (const b of exampleRows) {
    const list = examples.get(b.p.value) ?? [];
    if (list.length < 2 && !list.some((t) => t.value === b.o.value) && b.o.type !== "bnode") list.push(b.o);
    examples.set(b.p.value, list);
  }
  // the sample is the first instancesPerClass instances (all of them for a smaller class)
  const size = Math.max(1, Math.min(count, limits.instancesPerClass));
  return [...byPredicate.entries()]
    .map(([predicate, e]): ShapeProperty => {
      const classTargets = e.targets.filter((t) => t.kind === "class");
      const values = e.values + classTargets.reduce((a, t) => a + t.count, 0) / Math.max(1, new Set(classTargets.map((t) => t.iri)).size);
      return {
        predicate,
        coverage: Math.min(1, e.subjects / size),
        perSubject: e.subjects ? values / e.subjects : 0,
        targets: e.targets.sort((a, b) => b.count - a.count),
        examples: examples.get(predicate) ?? [],
      };
    })
    .sort((a, b) => b.coverage - a.coverage || a.predicate.localeCompare(b.predicate));
}

/** One description per schema IRI (the profile's description predicates; preferred language, else any). */
async function fetchComments(ctx: AgentContext, stage: Stage, values: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const preds = ctx.kg.profile.descriptionPredicates;
  if (!preds.length || !values.length) return out;
  for (let i = 0; i < values.length; i += 300) {
    const batch = values.slice(i, i + 300).filter(isSafeIri);
    const found = await rows(
      ctx,
      stage,
      "shape: descriptions",
      `SELECT ?s ?d WHERE { VALUES ?s { ${batch.map(iri).join(" ")} } ?s ?p ?d . FILTER(?p IN (${preds.map(iri).join(", ")}) && isLiteral(?d)) }`,
    );
    for (const b of found) {
      const lang = (b.d as { "xml:lang"?: string })["xml:lang"];
      if (!out.has(b.s.value) || !lang || lang.startsWith(ctx.kg.profile.language)) out.set(b.s.value, b.d.value.slice(0, 200));
    }
  }
  return out;
}

const VANN = "http://purl.org/vocab/vann/";
const PREFIX_NAME = /^[A-Za-z][\w-]{0,15}$/;

/** Prefixes the KG declares for its own vocabularies (VANN preferredNamespacePrefix/Uri), so the model sees the usual names. */
async function declaredPrefixes(ctx: AgentContext, stage: Stage): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const found = await rows(ctx, stage, "shape: declared prefixes", `SELECT ?prefix ?ns WHERE { ?v <${VANN}preferredNamespacePrefix> ?prefix ; <${VANN}preferredNamespaceUri> ?ns } LIMIT 50`);
  for (const b of found) {
    const name = b.prefix?.value ?? "";
    const ns = b.ns?.value ?? "";
    if (PREFIX_NAME.test(name) && /^[a-z][\w+.-]*:\/\/\S+[/#]$/i.test(ns) && !Object.values(out).includes(ns)) out[name] = ns;
  }
  return out;
}

async function exampleTriple(ctx: AgentContext, stage: Stage, predicate: string): Promise<[Term, Term] | undefined> {
  try {
    const b = (await rows(ctx, stage, "shape: example triple", `SELECT ?s ?o WHERE { ?s ${iri(predicate)} ?o } LIMIT 1`))[0];
    return b?.s && b?.o ? [b.s, b.o] : undefined;
  } catch (e) {
    // an example is a help, not a fact (unless the turn was cancelled)
    if (toAppError(e).code === "aborted" || ctx.signal?.aborted) throw e;
    return undefined;
  }
}

/** The profile's label predicates, then literal-valued predicates whose local name says they name things (name, title, …). */
export function labelLikePredicates(profileLabels: string[], classes: ShapeClass[], others: { predicate: string; example?: [Term, Term] }[], allPredicates: string[] = []): string[] {
  const literalValued = new Set<string>();
  for (const c of classes) for (const p of c.out) if (p.targets.some((t) => t.kind === "literal")) literalValued.add(p.predicate);
  for (const o of others) if (o.example?.[1].type === "literal") literalValued.add(o.predicate);
  const named = [...new Set([...allPredicates, ...literalValued])].filter((p) => literalValued.has(p) && NAME_LIKE.test(localNameWords(p).replace(/\s+/g, "")));
  return [...new Set([...profileLabels, ...named])];
}

