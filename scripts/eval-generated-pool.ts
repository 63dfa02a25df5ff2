// `npm run eval -- --generated-pool`: onboard the KG in memory first (lib/kg/onboarding, template questions: offline,
// no model) and give every question the generated examples as its experience pool and the derived KG notes — what a
// KG added to the app has once its onboarding finished, with its profile (one-call makes examples for each question
// from it). The pool is made from the KG alone: no benchmark pair is in it.
import type { BenchmarkItem } from "@/lib/eval/types";
import { prepareInMemory } from "@/lib/kg/onboarding/prepare";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { ExperienceExample, ExperienceSource, KgNotesSource } from "@/lib/pipeline/types";

export interface GeneratedPool {
  examples: ExperienceExample[];
  kgNotes: KgNotesSource;
  /** what result.json records of it (config.experience.generated) */
  record: { examples: number; ms: number; status: string; notes: boolean };
  /** merges the generated examples into another per-item pool (imported pairs), or stands alone */
  experienceFor(other?: (item: BenchmarkItem) => ExperienceSource): (item: BenchmarkItem) => ExperienceSource;
}

export async function generatedPool(kg: KnowledgeGraph, log: (line: string) => void): Promise<GeneratedPool> {
  const prepared = await prepareInMemory(kg);
  const examples: ExperienceExample[] = prepared.examples.map((e) => ({ id: e.id, question: e.question, sparql: e.sparql, source: "generated" }));
  log(`note: generated pool: ${examples.length} examples in ${(prepared.ms / 1000).toFixed(1)} s (${prepared.job.status}${prepared.job.error ? `: ${prepared.job.error.message}` : ""})`);
  const notes = prepared.notes?.text;
  return {
    examples,
    kgNotes: { notes: async () => notes },
    record: { examples: examples.length, ms: Math.round(prepared.ms), status: prepared.job.status, notes: Boolean(notes) },
    experienceFor: (other) => (item) => ({
      examples: async (kgId, options) => [...(other ? await other(item).examples(kgId, options) : []), ...examples],
      // one-call also makes examples for each question from the profile, as in the app (config oneCallAimedExamples)
      profile: async () => prepared.profile,
    }),
  };
}
