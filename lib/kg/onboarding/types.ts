// The onboarding contract (issue 27): what preparing a KG produces — its profile, solved examples generated from its
// own shapes, short KG notes — and the job that produces them, with its progress events. zod schemas at the boundary
// (database JSON, API bodies); the UI, the API routes and the MCP server import the types from here. Client-safe: no
// server imports.
import { z } from "zod";

/** Bumped when the profile or the generators change so much that stored results should be rebuilt. */
export const ONBOARDING_VERSION = 1;

/**
 * A KG's key: the id its experience pool is stored under — `KgListItem.id` in the app ("sample" for the default KG,
 * the KgSource id of an upload or endpoint), `experienceKgKey(kg.info.id)` on the command line.
 */
export const kgKeySchema = z.string().min(1).max(5000);

/** An RDF term as SPARQL JSON results write it. */
export const termSchema = z.union([
  z.object({ type: z.literal("uri"), value: z.string() }),
  z.object({ type: z.literal("bnode"), value: z.string() }),
  z.object({ type: z.literal("literal"), value: z.string(), "xml:lang": z.string().optional(), datatype: z.string().optional() }),
]);
export type ProfileTerm = z.infer<typeof termSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Profile: what the KG holds, as the overview page, MCP describe_schema, the generators and the notes read it.

/** What a predicate's values are: instances of a class, other IRIs, blank nodes, or literals of a datatype. */
export const valueTypeSchema = z.object({
  kind: z.enum(["class", "iri", "bnode", "literal"]),
  /** the class (kind "class") or the datatype (kind "literal"; rdf:langString for language-tagged text) */
  iri: z.string().optional(),
  /** values of this type in the sample */
  count: z.number().int().nonnegative(),
});
export type ValueType = z.infer<typeof valueTypeSchema>;

/** One predicate of a class (outgoing), or of the resources without a class. */
export const profilePredicateSchema = z.object({
  iri: z.string(),
  /** the KG's name for it (lexicon display name: label, name predicate or local name split into words) */
  name: z.string(),
  /** share (0..1) of the sampled instances that have it */
  coverage: z.number().min(0).max(1),
  /** values per instance that has it */
  perSubject: z.number().nonnegative(),
  /** most frequent first */
  valueTypes: z.array(valueTypeSchema),
  /** up to 3 example values (IRIs shown with their names in `exampleNames`) */
  examples: z.array(termSchema).max(3),
  /** IRI value → its name, for the examples */
  exampleNames: z.record(z.string(), z.string()).default({}),
  /** what the generators read it as */
  role: z.enum(["object", "number", "date", "text", "name", "id", "boolean", "other"]),
});
export type ProfilePredicate = z.infer<typeof profilePredicateSchema>;

export const sampleEntitySchema = z.object({
  iri: z.string(),
  /** its display name, or undefined for an opaque IRI without a name literal */
  name: z.string().optional(),
  /** the class it was sampled from (undefined: a resource without a class) */
  class: z.string().optional(),
});
export type SampleEntity = z.infer<typeof sampleEntitySchema>;

export const profileClassSchema = z.object({
  iri: z.string(),
  name: z.string(),
  /** instances (exact unless `countSampled`) */
  count: z.number().int().nonnegative(),
  /** the count comes from a bounded sample of the type triples: a lower bound */
  countSampled: z.boolean(),
  superClasses: z.array(z.string()),
  subClasses: z.array(z.string()),
  /** outgoing predicates, by coverage */
  predicates: z.array(profilePredicateSchema),
  /** predicates whose values are instances of this class: [predicate, class of the subjects] */
  incoming: z.array(z.tuple([z.string(), z.string()])),
  /** a few instances with their names */
  samples: z.array(sampleEntitySchema).max(10),
  /** the id shape most of its instances' IRIs have (an IdShape.pattern), when one does */
  idShape: z.string().optional(),
  /** its instances are blank nodes (no IRI to name them): asked about by their values, as rows */
  blankNodes: z.boolean().optional(),
});
export type ProfileClass = z.infer<typeof profileClassSchema>;

/** A predicate whose literal values name things (lib/kg/lexicon discover.ts): a label, a discovered name or an id. */
export const namingPredicateSchema = z.object({
  iri: z.string(),
  role: z.enum(["label", "name", "id"]),
  /** why it was taken ("profile", or the sample's figures) */
  why: z.string(),
});
export type NamingPredicate = z.infer<typeof namingPredicateSchema>;

/** How the IRIs of one namespace are made, e.g. `http://ex.org/person/{words}` or `urn:uuid:{uuid}`. */
export const idShapeSchema = z.object({
  /** the namespace with a placeholder for the varying part: {words} {Words} {snake_case} {kebab-case} {CamelCase} {number} {code} {uuid} {hex} {key=value} */
  pattern: z.string(),
  namespace: z.string(),
  /** opaque ids name nothing: their names come from name predicates only */
  opaque: z.boolean(),
  example: z.string(),
  /** IRIs of the sample with this shape */
  count: z.number().int().nonnegative(),
});
export type IdShape = z.infer<typeof idShapeSchema>;

/** The KG's own schema: what it declares about itself (lib/kg/schema). */
export const ownSchemaSchema = z.object({
  subClassOf: z.array(z.tuple([z.string(), z.string()])),
  subPropertyOf: z.array(z.tuple([z.string(), z.string()])),
  domain: z.array(z.tuple([z.string(), z.string()])),
  range: z.array(z.tuple([z.string(), z.string()])),
  inverseOf: z.array(z.tuple([z.string(), z.string()])),
  /** class → its members (a closed list) */
  enumerations: z.array(z.tuple([z.string(), z.array(z.string())])),
});
export type OwnSchema = z.infer<typeof ownSchemaSchema>;

export const kgProfileSchema = z.object({
  version: z.number().int(),
  kgKey: kgKeySchema,
  kgName: z.string(),
  builtAt: z.string(),
  /** triples, when the store knows them */
  triples: z.number().int().nonnegative().optional(),
  /** prefix → namespace, for compact display (compactIri) */
  prefixes: z.record(z.string(), z.string()),
  /** most instances first */
  classes: z.array(profileClassSchema),
  /** predicates of resources without a class (all of a KG without types); undefined when every subject has a class */
  untyped: z.object({ count: z.number().int().nonnegative(), predicates: z.array(profilePredicateSchema), samples: z.array(sampleEntitySchema) }).optional(),
  /** predicates no described class uses, most used first */
  otherPredicates: z.array(z.object({ iri: z.string(), name: z.string(), count: z.number().int().nonnegative() })),
  namingPredicates: z.array(namingPredicateSchema),
  idShapes: z.array(idShapeSchema),
  schema: ownSchemaSchema,
  /** literal forms seen: datatypes with counts, language tags, date forms and units found in predicate names */
  literalForms: z.object({
    datatypes: z.array(z.tuple([z.string(), z.number()])),
    languages: z.array(z.string()),
    /** e.g. "xsd:date 2014-06-12", "text 12/06/2014" */
    dateForms: z.array(z.string()),
    /** units named by predicates or values ("heightMetres" → metres) */
    units: z.array(z.string()),
  }),
  /** what the bounds left out, in words ("classes beyond the 40 largest", "instance counts of 3 classes sampled") */
  skipped: z.array(z.string()),
  /**
   * set by the examples phase: every candidate query the generators made was run (both passes) and the pool still had
   * room, so examples made for a question (aimed.ts) could only repeat what the job rejected
   */
  candidatesExhausted: z.boolean().optional(),
});
export type KgOnboardingProfile = z.infer<typeof kgProfileSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Generated solved examples

/** The query shapes the generators build (one generator each). */
export const EXAMPLE_SHAPES = [
  "class-list",
  "class-count",
  "value-of",
  "with-value",
  "numeric-filter",
  "date-filter",
  "superlative",
  "aggregate",
  "order",
  "count-per-group",
  "two-hop",
  "compare",
  "yes-no",
] as const;
export const exampleShapeSchema = z.enum(EXAMPLE_SHAPES);
export type ExampleShape = z.infer<typeof exampleShapeSchema>;

/** generated: made by onboarding; promoted: a user's thumbs-up kept it (it survives a re-run of the onboarding). */
export const exampleStatusSchema = z.enum(["generated", "promoted"]);
export type ExampleStatus = z.infer<typeof exampleStatusSchema>;

export const generatedExampleSchema = z.object({
  id: z.string(),
  kgKey: kgKeySchema,
  question: z.string(),
  sparql: z.string(),
  shape: exampleShapeSchema,
  /** the query's template (lib/kg/onboarding/template.ts): individuals and literals as typed placeholders */
  template: z.string(),
  /** rows (or 1 for a count / yes-no) the query returned when it was generated */
  answerSize: z.number().int().nonnegative(),
  /** the first few answer values as text (names for IRIs), for the overview */
  preview: z.array(z.string()).max(5).default([]),
  status: exampleStatusSchema,
  /** who wrote the question: the configured model (checked) or the offline templates */
  verbalizer: z.enum(["llm", "template"]),
  createdAt: z.string(),
});
export type GeneratedExample = z.infer<typeof generatedExampleSchema>;

/** A suggested question for the start page's chips: a generated example, varied shapes, short. */
export const suggestionSchema = z.object({ exampleId: z.string(), question: z.string(), shape: exampleShapeSchema });
export type Suggestion = z.infer<typeof suggestionSchema>;

// ---------------------------------------------------------------------------------------------------------------
// KG notes: a short text every strategy's prompt gets

export const NOTES_MAX_CHARS = 2000;

export const kgNotesSchema = z.object({
  kgKey: kgKeySchema,
  /** what the prompts get: the user's text when edited, else `derived` */
  text: z.string().max(NOTES_MAX_CHARS),
  /** derived from the profile (where names are, main classes, id shapes, units and date forms) */
  derived: z.string().max(NOTES_MAX_CHARS),
  edited: z.boolean(),
  updatedAt: z.string(),
});
export type KgNotes = z.infer<typeof kgNotesSchema>;

/** Body of "set notes": the user's text, or null to go back to the derived notes. */
export const setNotesRequestSchema = z.object({ text: z.string().trim().max(NOTES_MAX_CHARS).nullable() });

// ---------------------------------------------------------------------------------------------------------------
// The job

/** stale: the KG changed since (file content hash, or a user said so for an endpoint); its results are not used. */
export const JOB_STATUSES = ["queued", "running", "done", "failed", "cancelled", "stale"] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** The phases in order; a resumed job starts at the first unfinished one. */
export const JOB_PHASES = ["profile", "examples", "questions", "notes"] as const;
export const jobPhaseSchema = z.enum(JOB_PHASES);
export type JobPhase = z.infer<typeof jobPhaseSchema>;

export const onboardingJobSchema = z.object({
  id: z.string(),
  kgKey: kgKeySchema,
  kgName: z.string(),
  status: jobStatusSchema,
  /** the phase running (or where it stopped) */
  phase: jobPhaseSchema,
  /** within the phase */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** phases finished (results kept; a resume skips them) */
  finishedPhases: z.array(jobPhaseSchema),
  /** what started it */
  trigger: z.enum(["added", "default", "user", "cli"]),
  /** files: sha-256 of their content; endpoints: the URL and a user-bumped generation */
  contentHash: z.string(),
  /** SPARQL queries run so far */
  queries: z.number().int().nonnegative(),
  /** candidates executed, and kept */
  candidates: z.number().int().nonnegative(),
  examples: z.number().int().nonnegative(),
  /** what the bounds left out, in words */
  skipped: z.array(z.string()),
  /** failed: why, as a sentence (e.g. the endpoint timed out) */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  startedAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().optional(),
});
export type OnboardingJob = z.infer<typeof onboardingJobSchema>;

/** What a progress stream sends (Server-Sent Events in the app, lines on the command line). */
export const onboardingEventSchema = z.discriminatedUnion("type", [
  /** the job as it is now (first event of every subscription, and after each phase) */
  z.object({ type: z.literal("job"), job: onboardingJobSchema }),
  z.object({ type: z.literal("progress"), phase: jobPhaseSchema, done: z.number().int(), total: z.number().int(), message: z.string().optional() }),
  /** an example was kept */
  z.object({ type: z.literal("example"), example: generatedExampleSchema }),
  z.object({ type: z.literal("skipped"), message: z.string() }),
  /** the job ended: done, failed, cancelled or stale (see job.status, job.error) */
  z.object({ type: z.literal("end"), job: onboardingJobSchema }),
]);
export type OnboardingEvent = z.infer<typeof onboardingEventSchema>;

/** Bounds of one job (defaults in DEFAULT_ONBOARDING_LIMITS). */
export const onboardingLimitsSchema = z.object({
  /** examples kept per KG */
  maxExamples: z.number().int().positive(),
  /** candidate queries executed per KG */
  maxCandidates: z.number().int().positive(),
  /** rows above which an answer is too big to be a good example */
  maxAnswerRows: z.number().int().positive(),
  /** ms per query */
  queryTimeoutMs: z.number().int().positive(),
  /** ms per query of the profile (the lexicon, the schema and the data shape read bounded samples of the whole KG) */
  profileQueryTimeoutMs: z.number().int().positive().optional(),
  /** ms for the whole job; past it the job ends with what it has and says what it skipped */
  jobTimeMs: z.number().int().positive(),
  /** classes profiled (most instances first) */
  classes: z.number().int().positive(),
});
export type OnboardingLimits = z.infer<typeof onboardingLimitsSchema>;

export const DEFAULT_ONBOARDING_LIMITS: OnboardingLimits = {
  maxExamples: 300,
  maxCandidates: 1500,
  maxAnswerRows: 50,
  queryTimeoutMs: 10_000,
  profileQueryTimeoutMs: 60_000,
  jobTimeMs: 10 * 60_000,
  classes: 40,
};
