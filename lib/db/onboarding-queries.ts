// The onboarding store on the app database (lib/kg/onboarding/store.ts): a KG's latest job with its profile, its
// generated examples (Experience rows with source "generated", shared by every session, like imported pairs), its
// notes. Every JSON column is checked with the contract's schemas when read.
import { z } from "zod";
import type { Frame } from "@/lib/kg/onboarding/frames";
import type { NewExample, OnboardingStore, StoredExample, StoredJob } from "@/lib/kg/onboarding/store";
import { exampleShapeSchema, JOB_PHASES, jobPhaseSchema, jobStatusSchema, kgProfileSchema, NOTES_MAX_CHARS, type ExampleShape } from "@/lib/kg/onboarding/types";
import { Prisma } from "@/generated/prisma/client";
import { parseColumn, withoutNul, type QueryContext } from "./rows";

const GENERATED = "generated";
const metaSchema = z.object({
  answerSize: z.number().int().nonnegative(),
  preview: z.array(z.string()).default([]),
  verbalizer: z.enum(["llm", "template"]),
  frame: z.record(z.string(), z.unknown()),
  mentions: z.array(z.string()),
});
const errorSchema = z.object({ code: z.string(), message: z.string() });
const TRIGGERS = ["added", "default", "user", "cli"] as const;

type ExperienceRow = Awaited<ReturnType<QueryContext["db"]["experience"]["findFirstOrThrow"]>>;
type JobRow = Awaited<ReturnType<QueryContext["db"]["onboardingJob"]["findFirstOrThrow"]>>;

function toExample(row: ExperienceRow): StoredExample {
  const meta = parseColumn(metaSchema, row.meta, "meta", row.id);
  const shape = exampleShapeSchema.safeParse(row.shape);
  return {
    id: row.id,
    kgKey: row.kgKey,
    question: row.question,
    sparql: row.sparql,
    shape: shape.success ? shape.data : ("value-of" as ExampleShape),
    template: row.template ?? "",
    answerSize: meta.answerSize,
    preview: meta.preview,
    status: row.promoted ? "promoted" : "generated",
    verbalizer: meta.verbalizer,
    createdAt: row.createdAt.toISOString(),
    frame: meta.frame as unknown as Frame,
    mentions: meta.mentions,
  };
}

function toJob(row: JobRow): StoredJob {
  const trigger = (TRIGGERS as readonly string[]).includes(row.trigger) ? (row.trigger as StoredJob["trigger"]) : "user";
  const profile = row.profile === null ? undefined : kgProfileSchema.safeParse(row.profile);
  return {
    id: row.id,
    kgKey: row.kgKey,
    kgName: row.kgName,
    status: jobStatusSchema.catch("failed").parse(row.status),
    phase: jobPhaseSchema.catch("profile").parse(row.phase),
    done: row.done,
    total: row.total,
    finishedPhases: z.array(jobPhaseSchema).catch([]).parse(row.finishedPhases),
    trigger,
    contentHash: row.contentHash,
    queries: row.queries,
    candidates: row.candidates,
    examples: row.examples,
    skipped: z.array(z.string()).catch([]).parse(row.skipped),
    ...(row.error ? { error: errorSchema.catch({ code: "internal", message: "unreadable error" }).parse(row.error) } : {}),
    startedAt: row.startedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
    ...(row.sessionId ? { sessionId: row.sessionId } : {}),
    // a profile of an older version reads as none: the job builds it again
    ...(profile?.success ? { profile: profile.data } : {}),
  };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** The onboarding store bound to one client. */
export function onboardingQueries({ db }: QueryContext): OnboardingStore & { listGeneratedPool(kgKey: string): Promise<{ id: string; question: string; sparql: string }[]> } {
  return {
    async getJob(kgKey) {
      const row = await db.onboardingJob.findUnique({ where: { kgKey } });
      return row ? toJob(row) : undefined;
    },

    async saveJob(job, profile) {
      const data = {
        id: job.id,
        kgName: job.kgName.slice(0, 500),
        status: job.status,
        phase: job.phase,
        done: job.done,
        total: job.total,
        finishedPhases: json(job.finishedPhases.filter((p) => (JOB_PHASES as readonly string[]).includes(p))),
        trigger: job.trigger,
        contentHash: job.contentHash,
        sessionId: job.sessionId ?? null,
        queries: job.queries,
        candidates: job.candidates,
        examples: job.examples,
        skipped: json(job.skipped.slice(0, 50)),
        error: job.error ? json(job.error) : Prisma.DbNull,
        startedAt: new Date(job.startedAt),
        updatedAt: new Date(job.updatedAt),
        finishedAt: job.finishedAt ? new Date(job.finishedAt) : null,
        ...(profile === null ? { profile: Prisma.DbNull } : profile ? { profile: json(profile) } : {}),
      };
      await db.onboardingJob.upsert({ where: { kgKey: job.kgKey }, create: { kgKey: job.kgKey, ...data }, update: data });
    },

    async replaceGenerated(kgKey, items: NewExample[]) {
      return db.$transaction(async (tx) => {
        await tx.experience.deleteMany({ where: { kgKey, source: GENERATED, promoted: false } });
        const promoted = await tx.experience.findMany({ where: { kgKey, source: GENERATED, promoted: true }, select: { template: true } });
        const taken = new Set(promoted.map((p) => p.template));
        const fresh = items.filter((e) => !taken.has(e.template));
        if (fresh.length) {
          await tx.experience.createMany({
            data: fresh.map((e) => ({
              kgKey,
              question: withoutNul(e.question) ?? "",
              sparql: withoutNul(e.sparql) ?? "",
              source: GENERATED,
              shape: e.shape,
              template: e.template,
              promoted: false,
              meta: json({ answerSize: e.answerSize, preview: e.preview.map((p) => withoutNul(p) ?? ""), verbalizer: e.verbalizer, frame: e.frame, mentions: e.mentions }),
            })),
          });
        }
        return fresh.length;
      });
    },

    async updateQuestions(kgKey, updates) {
      for (const u of updates) {
        const row = await db.experience.findFirst({ where: { id: u.id, kgKey, source: GENERATED, promoted: false } });
        if (!row) continue;
        const meta = parseColumn(metaSchema, row.meta, "meta", row.id);
        await db.experience.update({ where: { id: u.id }, data: { question: withoutNul(u.question) ?? row.question, meta: json({ ...meta, verbalizer: u.verbalizer }) } });
      }
    },

    async listGenerated(kgKey, o) {
      const where = { kgKey, source: GENERATED, ...(o.status ? { promoted: o.status === "promoted" } : {}), ...(o.shape ? { shape: o.shape } : {}) };
      const [rows, total] = await Promise.all([db.experience.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], skip: o.offset, take: o.limit }), db.experience.count({ where })]);
      return { items: rows.map(toExample), total };
    },

    async listGeneratedPool(kgKey) {
      return db.experience.findMany({ where: { kgKey, source: GENERATED }, select: { id: true, question: true, sparql: true }, orderBy: { id: "asc" }, take: 10_000 });
    },

    async clearGenerated(kgKey) {
      const { count } = await db.experience.deleteMany({ where: { kgKey, source: GENERATED, promoted: false } });
      return count;
    },

    async deleteExample(kgKey, id) {
      const { count } = await db.experience.deleteMany({ where: { id, kgKey, source: GENERATED } });
      return count > 0;
    },

    async promoteExample(kgKey, id) {
      const { count } = await db.experience.updateMany({ where: { id, kgKey, source: GENERATED }, data: { promoted: true } });
      if (count === 0) return undefined;
      return toExample(await db.experience.findUniqueOrThrow({ where: { id } }));
    },

    async getNotes(kgKey) {
      return (await db.kgNotes.findUnique({ where: { kgKey } })) ?? undefined;
    },

    async saveNotes(kgKey, notes) {
      const text = notes.text === undefined ? undefined : notes.text === null ? null : (withoutNul(notes.text) ?? "").slice(0, NOTES_MAX_CHARS);
      const derived = notes.derived === undefined ? undefined : notes.derived.slice(0, NOTES_MAX_CHARS);
      return db.kgNotes.upsert({
        where: { kgKey },
        create: { kgKey, derived: derived ?? "", text: text ?? null },
        update: { ...(derived !== undefined ? { derived } : {}), ...(text !== undefined ? { text } : {}) },
      });
    },
  };
}
