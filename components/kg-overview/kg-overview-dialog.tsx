// The KG overview, opened from the KG menu: what the KG holds (classes, predicates, names and ids, its own schema),
// its notes and generated examples, and its preparation (progress, Stop, Resume, "Prepare this KG"). A large dialog
// over the chat (full screen on a phone); putting an item into the question box or the editor closes it.
"use client";
import { useEffect, useMemo, useState } from "react";
import { CodeIcon, MessageSquarePlusIcon } from "lucide-react";
import { isJobActive, type OnboardingJob, type OverviewResponse } from "@/lib/api/onboarding";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { onboardingApi, useOnboardingProgress } from "@/components/onboarding/onboarding-client";
import { ClassesTab } from "./classes-tab";
import { displayProfile } from "./display-profile";
import { ExamplesTab } from "./examples-tab";
import { OverviewInsertContext } from "./insert-buttons";
import { namesOf } from "./names";
import { NamesTab } from "./names-tab";
import { NotesTab } from "./notes-tab";
import { PredicatesTab } from "./predicates-tab";
import { SchemaTab } from "./schema-tab";
import { StatusBar } from "./status-bar";

type Tab = "classes" | "predicates" | "names" | "schema" | "notes" | "examples";

export function KgOverviewDialog({ open, onOpenChange, kgId, kgName }: { open: boolean; onOpenChange: (open: boolean) => void; kgId: string | undefined; kgName?: string }) {
  return (
    <Dialog open={open && Boolean(kgId)} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="kg-overview"
        className="flex h-[min(90dvh,960px)] max-w-5xl flex-col gap-0 overflow-hidden p-0 max-sm:h-dvh max-sm:w-full max-sm:max-w-none max-sm:rounded-none max-sm:border-0"
        aria-describedby="kg-overview-description"
      >
        {kgId && <Overview kgId={kgId} kgName={kgName} onClose={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function Overview({ kgId, kgName, onClose }: { kgId: string; kgName?: string; onClose: () => void }) {
  const progress = useOnboardingProgress(kgId);
  const [data, setData] = useState<OverviewResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>("classes");
  /** the examples as listed (a delete lowers it at once; the job's count is what the run kept) */
  const [listed, setListed] = useState<number | null>(null);

  // reloaded when a phase finishes (the profile, then the examples, then the notes appear) and when the job ends
  const job = progress.job;
  const phaseKey = job ? `${job.id}|${job.status}|${job.finishedPhases.join(",")}` : "none";
  useEffect(() => {
    const controller = new AbortController();
    onboardingApi
      .overview(kgId, controller.signal)
      .then((r) => {
        setData(r);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => controller.abort();
  }, [kgId, phaseKey]);
  useEffect(() => setListed(null), [kgId, phaseKey]);

  const profile = useMemo(() => (data?.profile ? displayProfile(data.profile) : null), [data]);
  const names = useMemo(() => (profile ? namesOf(profile) : null), [profile]);
  const name = data?.kg.name ?? kgName ?? "this KG";
  const triples = profile?.triples;
  const sampled = profile?.classes.some((c) => c.countSampled);
  const examplesCount = (isJobActive(job) ? null : listed) ?? job?.examples ?? 0;

  return (
    <OverviewInsertContext.Provider value={onClose}>
      <div className="flex flex-col gap-2 border-b p-4 pr-12">
        <DialogTitle className="text-lg">
          <span className="text-muted-foreground">KG overview · </span>
          <span data-testid="overview-kg-name">{name}</span>
        </DialogTitle>
        <DialogDescription id="kg-overview-description">
          {[
            data?.kg.kind === "endpoint" ? "SPARQL endpoint" : data?.kg.kind === "upload" ? "Uploaded files" : data ? "Default KG" : null,
            triples !== undefined ? `${triples.toLocaleString("en")} triples` : null,
            profile ? `${profile.classes.length.toLocaleString("en")} classes` : null,
            sampled ? "some counts from a sample" : null,
          ]
            .filter(Boolean)
            .join(" · ") || "What this knowledge graph holds and how it was prepared for questions."}
        </DialogDescription>
        {/* after a delete the sentence counts what is listed, as the Examples tab does */}
        <StatusBar kgId={kgId} kgName={name} kind={data?.kg.kind} progress={job && listed !== null && job.status === "done" ? { ...progress, job: { ...job, examples: listed } } : progress} />
      </div>
      {error && !data ? (
        <p role="alert" className="p-4 text-sm text-destructive">
          The overview could not be loaded: {error}
        </p>
      ) : (
        <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="flex min-h-0 flex-1 flex-col">
          {/* on a phone the six tabs wrap to a second row rather than hiding Notes and Examples past the edge */}
          <TabsList className="shrink-0 overflow-x-auto max-sm:flex-wrap max-sm:gap-0 [&>button]:whitespace-nowrap max-sm:[&>button]:px-2.5" aria-label="Overview sections">
            <TabsTrigger value="classes" data-testid="overview-tab-classes">
              Classes{profile ? ` (${profile.classes.length})` : ""}
            </TabsTrigger>
            <TabsTrigger value="predicates">Predicates</TabsTrigger>
            <TabsTrigger value="names">Names &amp; ids</TabsTrigger>
            <TabsTrigger value="schema">Schema</TabsTrigger>
            <TabsTrigger value="notes" data-testid="overview-tab-notes">
              Notes
            </TabsTrigger>
            <TabsTrigger value="examples" data-testid="overview-tab-examples">
              Examples{examplesCount ? ` (${examplesCount})` : ""}
            </TabsTrigger>
          </TabsList>
          <p className="flex flex-wrap items-center gap-x-1 border-b px-4 py-1.5 text-xs text-muted-foreground">
            <MessageSquarePlusIcon className="size-3.5" aria-hidden /> puts a name or question into the question box;
            <CodeIcon className="ml-1 size-3.5" aria-hidden /> opens a query for it in the SPARQL editor.
          </p>
          <div className="min-h-0 flex-1 overflow-y-auto">
            {(["classes", "predicates", "names", "schema"] as const).map((t) => (
              <TabsContent key={t} value={t}>
                {profile && names ? (
                  t === "classes" ? (
                    <ClassesTab profile={profile} names={names} />
                  ) : t === "predicates" ? (
                    <PredicatesTab profile={profile} names={names} />
                  ) : t === "names" ? (
                    <NamesTab profile={profile} names={names} />
                  ) : (
                    <SchemaTab profile={profile} names={names} />
                  )
                ) : (
                  <p className="p-4 text-sm text-muted-foreground" data-testid="overview-no-profile">
                    {data ? noProfile(job) : "Loading…"}
                  </p>
                )}
              </TabsContent>
            ))}
            <TabsContent value="notes" className="h-full">
              <NotesTab kgId={kgId} notes={data?.notes ?? null} onSaved={(notes) => setData((d) => (d ? { ...d, notes } : d))} />
            </TabsContent>
            <TabsContent value="examples">
              <ExamplesTab kgId={kgId} refreshKey={`${phaseKey}|${(job?.examples ?? 0) > 0}`} onTotal={setListed} />
            </TabsContent>
          </div>
        </Tabs>
      )}
    </OverviewInsertContext.Provider>
  );
}

/** Why the classes and predicates are not shown yet, and what brings them. */
function noProfile(job: OnboardingJob | null): string {
  if (isJobActive(job)) return "The KG's classes and predicates appear here once they have been read (the preparation above is reading them).";
  if (!job) return "This KG has not been prepared yet: Prepare this KG (above) reads its classes and predicates.";
  if (job.status === "stale") return "The KG changed since it was read: Prepare this KG (above) reads it again.";
  return "The KG's classes and predicates were not read: its preparation stopped before that. Resume or Prepare this KG (above) reads them.";
}
