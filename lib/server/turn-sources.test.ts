// What a turn reads besides the KG: the pool as the session sees it, the onboarding profile (examples for one question
// are made from it) unless the KG changed since it was read, and the notes.
import { describe, expect, it } from "vitest";
import type { Queries } from "@/lib/db/queries";
import type { StoredJob } from "@/lib/kg/onboarding/store";
import type { KgOnboardingProfile } from "@/lib/kg/onboarding/types";
import { kgSources } from "./turn-sources";

const profile = { classes: [{ iri: "http://example.org/mill", name: "mill" }] } as unknown as KgOnboardingProfile;
function queries(job: Partial<StoredJob> | undefined) {
  return {
    listExperience: async () => [{ id: "e1", question: "How many mills are there?", sparql: "SELECT …", source: "generated" }],
    onboarding: { getJob: async () => job, getNotes: async () => ({ derived: "Names: mill name.", text: null }) },
  } as unknown as Pick<Queries, "listExperience" | "onboarding">;
}

describe("a turn's KG sources", () => {
  it("give the profile of a finished onboarding, and none when the KG changed since or was never prepared", async () => {
    expect(await kgSources(queries({ status: "done", profile }), "s1").experience.profile?.("upload-1")).toBe(profile);
    expect(await kgSources(queries({ status: "stale", profile }), "s1").experience.profile?.("upload-1")).toBeUndefined();
    expect(await kgSources(queries(undefined), "s1").experience.profile?.("upload-1")).toBeUndefined();
  });

  it("give the pool's examples and the derived notes", async () => {
    const s = kgSources(queries({ status: "done", profile }), "s1");
    expect(await s.experience.examples("upload-1")).toEqual([{ id: "e1", question: "How many mills are there?", sparql: "SELECT …", source: "generated" }]);
    expect(await s.kgNotes.notes("upload-1")).toBe("Names: mill name.");
  });
});
