// What a turn reads besides the KG: the KG's experience pool as the session sees it (imported items, the examples its
// onboarding generated, the answers this session marked helpful), the profile its onboarding read (examples for one
// question are made from it) and the KG's notes — whatever onboarding has finished.
import "server-only";
import type { Queries } from "@/lib/db/queries";
import type { ExperienceSource, KgNotesSource } from "@/lib/pipeline/types";

export function kgSources(queries: Pick<Queries, "listExperience" | "onboarding">, sessionId: string): { experience: ExperienceSource; kgNotes: KgNotesSource } {
  return {
    experience: {
      examples: async (kgId) => (await queries.listExperience({ kgKey: kgId, sessionId })).map(({ id, question, sparql, source }) => ({ id, question, sparql, source })),
      // examples for one question are made from the profile the KG's onboarding read, unless the KG changed since
      profile: async (kgId) => {
        const job = await queries.onboarding.getJob(kgId);
        return job && job.status !== "stale" ? job.profile : undefined;
      },
    },
    kgNotes: {
      notes: async (kgId) => {
        const n = await queries.onboarding.getNotes(kgId);
        return n ? (n.text ?? n.derived) : undefined;
      },
    },
  };
}
