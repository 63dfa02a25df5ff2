// The KG profile an onboarding job builds: the explorer's data shape (classes, their predicates with value types and
// examples; lib/pipeline/explorer/kg-shape.ts), the KG lexicon (names; lib/kg/lexicon), the KG's own schema
// (lib/kg/schema), plus what only onboarding needs: sample entities with names, the predicates of resources without a
// class, id shapes and literal forms. Every query is bounded; what a bound cut is said in `skipped`.
import { iri, isSafeIri } from "@/lib/kg/escape";
import { Lexicon, type NamePredicate } from "@/lib/kg/lexicon";
import { toAppError } from "@/lib/errors";
import { NS } from "@/lib/kg/profile";
import { KgSchema } from "@/lib/kg/schema";
import type { Term } from "@/lib/kg/types";
import { getKgSchema } from "@/lib/pipeline/common/kg-schema-facts";
import { getLexicon } from "@/lib/pipeline/common/lexicon";
import { localNameWords } from "@/lib/pipeline/common/labels";
import { createShapeCache, getKgShape, DEFAULT_SHAPE_LIMITS, type KgShape, type ShapeProperty, type ShapeTarget } from "@/lib/pipeline/explorer/kg-shape";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import { ONBOARDING_STAGE, selectRows, type OnboardingContext } from "./context";
import { dateTextForm, idShapes, unitOf } from "./id-shapes";
import { ONBOARDING_VERSION, type KgOnboardingProfile, type OnboardingLimits, type ProfileClass, type ProfilePredicate, type ProfileTerm, type SampleEntity } from "./types";

export interface BuiltProfile {
  profile: KgOnboardingProfile;
  lexicon: Lexicon;
  schema: KgSchema;
}

const SAMPLES_PER_CLASS = 8;
const UNTYPED_SUBJECTS = 600;
const BLANK_SUBJECTS = 200;
const EXAMPLES_PER_PREDICATE = 3;
const NUMERIC = /#(integer|decimal|double|float|int|long|short|byte|nonNegativeInteger|positiveInteger|negativeInteger|nonPositiveInteger|unsignedInt|unsignedLong|unsignedShort)$/;
const DATE = /#(date|dateTime|dateTimeStamp|gYear|gYearMonth)$/;
const shapeCache = createShapeCache();

const num = (t: Term | undefined) => (Number.isFinite(Number(t?.value)) ? Number(t?.value) : 0);

/** What the generators read a predicate as, from its value types and the lexicon's naming predicates. */
export function predicateRole(predicate: string, targets: ShapeTarget[], naming: Map<string, string>): ProfilePredicate["role"] {
  const named = naming.get(predicate);
  if (named === "id") return "id";
  if (named) return "name";
  const top = targets[0];
  if (!top) return "other";
  if (top.kind === "class" || top.kind === "iri") return "object";
  if (top.kind === "bnode") return "other";
  const dt = top.iri ?? "";
  if (NUMERIC.test(dt)) return "number";
  if (DATE.test(dt)) return "date";
  if (dt === `${NS.xsd}boolean`) return "boolean";
  return "text";
}

function toTerm(t: Term): ProfileTerm {
  return t.type === "literal" ? { type: "literal", value: t.value.slice(0, 200), ...(t["xml:lang"] ? { "xml:lang": t["xml:lang"] } : {}), ...(t.datatype ? { datatype: t.datatype } : {}) } : { type: t.type, value: t.value };
}

function nameOf(lexicon: Lexicon, value: string): string {
  return lexicon.displayName(value) ?? localNameWords(value);
}

/** A predicate's name: its label or name literal, else the member of a dotted `Owner.member` local name ("description"). */
function predicateName(lexicon: Lexicon, value: string): string {
  const names = lexicon.namesOf(value);
  const named = names.find((n) => n.source.kind === "predicate");
  if (named) return named.text;
  const local = names.filter((n) => n.source.kind === "local-name");
  return local.at(-1)?.text ?? localNameWords(value);
}

function toPredicate(p: ShapeProperty, lexicon: Lexicon, naming: Map<string, string>): ProfilePredicate {
  const examples = p.examples.slice(0, 3).map(toTerm);
  const exampleNames: Record<string, string> = {};
  for (const e of examples) if (e.type === "uri") exampleNames[e.value] = nameOf(lexicon, e.value);
  return {
    iri: p.predicate,
    name: predicateName(lexicon, p.predicate),
    coverage: Math.min(1, Math.max(0, p.coverage)),
    perSubject: Math.max(0, p.perSubject),
    valueTypes: p.targets.map((t) => ({ kind: t.kind, ...(t.iri ? { iri: t.iri } : {}), count: t.count })),
    examples,
    exampleNames,
    role: predicateRole(p.predicate, p.targets, naming),
  };
}

/** The predicates of subjects without a class, from a bounded sample of them (all of a KG without types). */
async function untypedPredicates(octx: OnboardingContext, typePredicate: string): Promise<{ subjects: string[]; predicates: ShapeProperty[] }> {
  const ctx = octx.ctx;
  const subjects = (await selectRows(ctx, "onboarding: resources without a class", `SELECT DISTINCT ?s WHERE { ?s ?p ?o . FILTER(isIRI(?s)) FILTER NOT EXISTS { ?s ${iri(typePredicate)} ?c } } LIMIT ${UNTYPED_SUBJECTS}`))
    .flatMap((b) => (b.s?.type === "uri" && isSafeIri(b.s.value) ? [b.s.value] : []));
  if (subjects.length === 0) return { subjects, predicates: [] };
  const rows = await selectRows(
    ctx,
    "onboarding: predicates of resources without a class",
    `SELECT ?p ?k (COUNT(DISTINCT ?s) AS ?subjects) (COUNT(*) AS ?n) (SAMPLE(?o) AS ?ex) WHERE { VALUES ?s { ${subjects.map(iri).join(" ")} } ?s ?p ?o . BIND(IF(isLiteral(?o), STR(DATATYPE(?o)), IF(isIRI(?o), "iri", "bnode")) AS ?k) } GROUP BY ?p ?k`,
  );
  return { subjects, predicates: propertiesOf(rows, typePredicate, subjects.length) };
}

/** Rows of `?p ?k [?oc] ?subjects ?n ?ex` (per predicate, value kind and value class) as the shape's properties. */
function propertiesOf(rows: Record<string, Term>[], typePredicate: string, size: number): ShapeProperty[] {
  const byP = new Map<string, { subjects: number; values: number; targets: ShapeTarget[]; examples: Term[] }>();
  for (const b of rows) {
    if (b.p?.type !== "uri" || b.p.value === typePredicate) continue;
    const e = byP.get(b.p.value) ?? { subjects: 0, values: 0, targets: [], examples: [] };
    const kind = b.k?.value ?? "iri";
    const n = num(b.n);
    e.subjects = Math.max(e.subjects, num(b.subjects));
    e.values += n;
    e.targets.push(b.oc?.type === "uri" ? { kind: "class", iri: b.oc.value, count: n } : kind === "iri" ? { kind: "iri", count: n } : kind === "bnode" ? { kind: "bnode", count: n } : { kind: "literal", iri: kind || `${NS.xsd}string`, count: n });
    if (b.ex && b.ex.type !== "bnode" && e.examples.length < 3 && !e.examples.some((x) => x.value === b.ex.value)) e.examples.push(b.ex);
    byP.set(b.p.value, e);
  }
  return [...byP.entries()]
    .map(([predicate, e]): ShapeProperty => ({ predicate, coverage: Math.min(1, e.subjects / Math.max(1, size)), perSubject: e.subjects ? e.values / e.subjects : 0, targets: e.targets.sort((a, b) => b.count - a.count), examples: e.examples }))
    .sort((a, b) => b.coverage - a.coverage || a.predicate.localeCompare(b.predicate));
}

/**
 * The predicates of a class whose instances are blank nodes (rows mapped without IRIs): the data shape lists a class's
 * instances by IRI and so finds none; here they come from a bounded sample of the class (a subquery, as blank nodes
 * cannot be listed), each value's class included so that links between such rows read as relations.
 */
async function blankClassPredicates(octx: OnboardingContext, cls: string, count: number, typePredicate: string): Promise<ShapeProperty[]> {
  if (!isSafeIri(cls)) return [];
  const T = iri(typePredicate);
  const rows = await selectRows(
    octx.ctx,
    "onboarding: predicates of a class of blank nodes",
    `SELECT ?p ?k ?oc (COUNT(DISTINCT ?s) AS ?subjects) (COUNT(*) AS ?n) (SAMPLE(?o) AS ?ex) WHERE { { SELECT DISTINCT ?s WHERE { ?s ${T} ${iri(cls)} . FILTER(isBlank(?s)) } LIMIT ${BLANK_SUBJECTS} } ?s ?p ?o . OPTIONAL { ?o ${T} ?oc . FILTER(isIRI(?oc)) } BIND(IF(isLiteral(?o), STR(DATATYPE(?o)), IF(isIRI(?o), "iri", "bnode")) AS ?k) } GROUP BY ?p ?k ?oc`,
  );
  return propertiesOf(rows, typePredicate, Math.min(count, BLANK_SUBJECTS));
}

async function classSamples(octx: OnboardingContext, shape: KgShape, typePredicate: string, concurrency: number): Promise<string[][]> {
  return mapBounded(shape.classes, concurrency, async (c) =>
    (await selectRows(octx.ctx, "onboarding: sample instances", `SELECT DISTINCT ?s WHERE { ?s ${iri(typePredicate)} ${iri(c.iri)} . FILTER(isIRI(?s)) } LIMIT ${SAMPLES_PER_CLASS}`)).flatMap((b) =>
      b.s?.type === "uri" ? [b.s.value] : [],
    ),
  );
}

async function languages(octx: OnboardingContext): Promise<string[]> {
  const rows = await selectRows(
    octx.ctx,
    "onboarding: language tags",
    `SELECT DISTINCT ?l WHERE { { SELECT ?o WHERE { ?s ?p ?o } LIMIT 20000 } FILTER(isLiteral(?o)) BIND(LANG(?o) AS ?l) FILTER(?l != "") } LIMIT 20`,
  );
  return rows.flatMap((b) => (b.l ? [b.l.value] : []));
}

/**
 * A few values of the class's predicates that have none: the data shape takes its examples from a few instances only,
 * so a predicate most instances have can show none ("—" in the overview). One query per class, a LIMITed subquery per
 * predicate.
 */
async function missingExamples(octx: OnboardingContext, cls: string, predicates: string[], typePredicate: string): Promise<Map<string, Term[]>> {
  const out = new Map<string, Term[]>();
  const safe = predicates.filter(isSafeIri).slice(0, 12);
  if (!safe.length || !isSafeIri(cls)) return out;
  const parts = safe.map((p) => `{ SELECT (${iri(p)} AS ?p) ?o WHERE { ?s ${iri(typePredicate)} ${iri(cls)} ; ${iri(p)} ?o . FILTER(!isBlank(?o)) } LIMIT ${EXAMPLES_PER_PREDICATE} }`);
  const rows = await selectRows(octx.ctx, "onboarding: example values", `SELECT ?p ?o WHERE { ${parts.join(" UNION ")} }`);
  for (const b of rows) {
    if (!b.p || !b.o || b.o.type === "bnode") continue;
    const list = out.get(b.p.value) ?? [];
    if (list.length < EXAMPLES_PER_PREDICATE && !list.some((t) => t.value === b.o.value)) list.push(b.o);
    out.set(b.p.value, list);
  }
  return out;
}

/** The KG's lexicon, or an empty one (names then come from IRIs alone) when building it failed; `skipped` says so. */
export async function lexiconOrEmpty(octx: OnboardingContext, skipped: string[] = []): Promise<{ lexicon: Lexicon; stats: { names: number; namePredicates: NamePredicate[]; truncated: boolean } }> {
  try {
    return await getLexicon(octx.ctx, ONBOARDING_STAGE);
  } catch (e) {
    if (octx.ctx.signal?.aborted) throw e;
    const err = toAppError(e);
    if (err.code === "kg_unreachable" || err.code === "kg_unavailable") throw err;
    skipped.push(`names were not read (the lexicon's queries failed: ${err.message}); entities are named by their IRIs`);
    return { lexicon: new Lexicon(), stats: { names: 0, namePredicates: [], truncated: false } };
  }
}

/** Builds the profile; `report` gets a line per step done (for the job's progress). */
export async function buildOnboardingProfile(octx: OnboardingContext, meta: { kgKey: string; kgName: string }, limits: OnboardingLimits, report: (done: number, total: number, message: string) => void): Promise<BuiltProfile> {
  const ctx = octx.ctx;
  const total = 5;
  const skipped: string[] = [];
  // names and the KG's own schema help; a KG too slow for them is still profiled from its data shape
  const { lexicon, stats } = await lexiconOrEmpty(octx, skipped);
  if (stats.truncated) skipped.push("the lexicon hit a bound: names of some entities were not read");
  report(1, total, `names: ${stats.names} (${stats.namePredicates.length} name predicate(s))`);
  const schema = await getKgSchema(ctx, ONBOARDING_STAGE).catch((e: unknown) => {
    if (ctx.signal?.aborted) throw e;
    skipped.push(`the KG's own schema was not read (${toAppError(e).message})`);
    return new KgSchema({ subClassOf: [], subPropertyOf: [], inverseOf: [], domain: [], range: [], enumerations: [], truncated: true });
  });
  if (schema.facts.truncated) skipped.push("the KG's own schema is larger than the bound read: some schema statements were not read");
  report(2, total, "the KG's own schema");
  const { shape } = await getKgShape(shapeCache, ctx, ONBOARDING_STAGE, { ...DEFAULT_SHAPE_LIMITS, classes: limits.classes });
  if (shape.sampled) skipped.push("instance and predicate counts come from a sample of 200,000 triples (lower bounds)");
  report(3, total, `${shape.classes.length} class(es)`);

  const typePredicate = ctx.kg.profile.typePredicates[0] ?? `${NS.rdf}type`;
  const naming = new Map(stats.namePredicates.map((p) => [p.predicate, p.role]));
  const samples = await classSamples(octx, shape, typePredicate, 4);
  const sampleOf = (value: string, cls?: string): SampleEntity => {
    const name = lexicon.displayName(value);
    return { iri: value, ...(name ? { name } : {}), ...(cls ? { class: cls } : {}) };
  };
  // a class with instances but no predicate in the shape has blank-node instances: read its predicates here
  const blankProps = await mapBounded(shape.classes.map((c, i) => ({ c, i })), 4, async ({ c, i }): Promise<ShapeProperty[] | undefined> =>
    c.out.length === 0 && c.count > 0 && (samples[i] ?? []).length === 0
      ? blankClassPredicates(octx, c.iri, c.count, typePredicate).catch((e: unknown) => {
          if (ctx.signal?.aborted) throw e;
          skipped.push(`the blank-node instances of ${nameOf(lexicon, c.iri)} were not described (${toAppError(e).message})`);
          return [] as ShapeProperty[];
        })
      : undefined,
  );
  const classes: ProfileClass[] = shape.classes.map((c, i) => {
    const own = samples[i] ?? [];
    const shapes = idShapes(own, 1);
    const blank = blankProps[i];
    return {
      iri: c.iri,
      name: c.label ?? nameOf(lexicon, c.iri),
      count: c.count,
      countSampled: shape.sampled,
      superClasses: c.supers,
      subClasses: schema.childrenOfClass(c.iri),
      predicates: (blank ?? c.out).filter((p) => p.predicate !== typePredicate).map((p) => toPredicate(p, lexicon, naming)),
      incoming: c.in,
      samples: own.map((s) => sampleOf(s, c.iri)),
      ...(shapes[0] && shapes[0].count >= Math.max(2, own.length * 0.6) ? { idShape: shapes[0].pattern } : {}),
      ...(blank?.length ? { blankNodes: true } : {}),
    };
  });
  await mapBounded(classes, 4, async (c) => {
    const missing = c.predicates.filter((p) => p.examples.length === 0 && p.role !== "other");
    if (!missing.length) return;
    const found = await missingExamples(octx, c.iri, missing.map((p) => p.iri), typePredicate).catch((e: unknown) => {
      if (ctx.signal?.aborted) throw e;
      return new Map<string, Term[]>();
    });
    for (const p of missing) {
      p.examples = (found.get(p.iri) ?? []).map(toTerm);
      for (const e of p.examples) if (e.type === "uri") p.exampleNames[e.value] = nameOf(lexicon, e.value);
    }
  });
  report(4, total, "sample entities");

  let untyped: KgOnboardingProfile["untyped"];
  try {
    const u = await untypedPredicates(octx, typePredicate);
    if (u.predicates.length) untyped = { count: u.subjects.length, predicates: u.predicates.map((p) => toPredicate(p, lexicon, naming)), samples: u.subjects.slice(0, 10).map((s) => sampleOf(s)) };
    if (u.subjects.length >= UNTYPED_SUBJECTS) skipped.push(`resources without a class: described from a sample of ${UNTYPED_SUBJECTS}`);
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    skipped.push(`resources without a class: not described (${e instanceof Error ? e.message : String(e)})`);
  }
  const langs = await languages(octx).catch((e: unknown) => {
    if (ctx.signal?.aborted) throw e;
    return [] as string[];
  });
  report(5, total, "id shapes and value forms");

  const allPredicates = [...classes.flatMap((c) => c.predicates), ...(untyped?.predicates ?? [])];
  const datatypes = new Map<string, number>();
  for (const p of allPredicates) for (const t of p.valueTypes) if (t.kind === "literal" && t.iri) datatypes.set(t.iri, (datatypes.get(t.iri) ?? 0) + t.count);
  // one line per date form: a datatype, or a text pattern
  const dateForms = new Map<string, string>();
  for (const p of allPredicates) {
    for (const e of p.examples) {
      if (e.type !== "literal") continue;
      // four digits alone are a year only where the predicate says so (else a code, a phone extension, a count)
      const form = p.role === "text" ? dateTextForm(e.value) : undefined;
      const textForm = form === "YYYY" && !/\b(year|date)s?\b/i.test(p.name) ? undefined : form;
      if (p.role === "date" && !dateForms.has(e.datatype ?? "text")) dateForms.set(e.datatype ?? "text", `${e.datatype ?? "text"} e.g. ${e.value}`);
      else if (textForm && !dateForms.has(textForm)) dateForms.set(textForm, `text ${textForm} (${p.name}, e.g. ${e.value})`);
    }
  }
  const units = new Set<string>();
  for (const p of allPredicates) {
    const u = unitOf(p.iri.slice(Math.max(p.iri.lastIndexOf("#"), p.iri.lastIndexOf("/")) + 1));
    if (u && (p.role === "number" || p.role === "text")) units.add(`${p.name}: ${u}`);
  }
  const sampleIris = [...classes.flatMap((c) => c.samples.map((s) => s.iri)), ...(untyped?.samples.map((s) => s.iri) ?? []), ...allPredicates.flatMap((p) => p.examples.filter((e) => e.type === "uri").map((e) => e.value))];
  if (shape.classes.length >= limits.classes) skipped.push(`classes beyond the ${limits.classes} largest are not described`);

  const f = schema.facts;
  const profile: KgOnboardingProfile = {
    version: ONBOARDING_VERSION,
    kgKey: meta.kgKey,
    kgName: meta.kgName,
    builtAt: new Date().toISOString(),
    ...(ctx.kg.info.triples !== undefined ? { triples: ctx.kg.info.triples } : {}),
    prefixes: shape.prefixes,
    classes,
    ...(untyped ? { untyped } : {}),
    otherPredicates: shape.otherPredicates.map((p) => ({ iri: p.predicate, name: nameOf(lexicon, p.predicate), count: p.count })),
    namingPredicates: stats.namePredicates.map((p) => ({ iri: p.predicate, role: p.role, why: p.why })),
    idShapes: idShapes(sampleIris),
    schema: { subClassOf: f.subClassOf, subPropertyOf: f.subPropertyOf, domain: f.domain, range: f.range, inverseOf: f.inverseOf, enumerations: f.enumerations },
    literalForms: { datatypes: [...datatypes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12), languages: langs, dateForms: [...dateForms.values()].slice(0, 6), units: [...units].slice(0, 12) },
    skipped,
  };
  return { profile, lexicon, schema };
}
