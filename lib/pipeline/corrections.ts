// A user's correction of one step of an attempt (choose another vertex, other predicates, another candidate query, an
// edited QIR triple or final query): checked with zod at the API, stored with the attempt it started, applied by the
// strategy's re-run (Strategy.rerun) without an LLM call for what the user decided.
import { z } from "zod";
import type { Stage } from "./stages";

const text = (max: number) => z.string().trim().min(1).max(max);
/** an IRI as the KG returned it; checked again (isSafeIri) before it enters a query */
const iri = text(4000);

export const qirTripleSchema = z.object({ subject: text(500), relation: text(500), object: text(500) });

export const correctionSchema = z.discriminatedUnion("kind", [
  /** QIR: triple `index` replaced; entity linking and everything after it runs again */
  z.object({ kind: z.literal("qir-triple"), index: z.number().int().min(0).max(99), triple: qirTripleSchema }),
  /** entity linking: `mention` is linked to `iri` (a candidate shown, or one the user found by label search) */
  z.object({ kind: z.literal("vertex"), mention: text(500), iri, label: z.string().trim().max(500).optional() }),
  /** relation linking: per relation, the ranked predicates to keep (the rest are dropped); the queries use all of them */
  z.object({ kind: z.literal("relation-predicates"), predicates: z.record(text(500), z.array(iri).min(1).max(100)) }),
  /** query selection: the predicates the executed queries may use (instead of the LLM's choice) */
  z.object({ kind: z.literal("predicates"), predicates: z.array(iri).min(1).max(200) }),
  /** query generation: run this candidate query (by its id) and only it */
  z.object({ kind: z.literal("candidate"), id: z.number().int().min(0).max(100_000) }),
  /** the final query, edited (any strategy that writes SPARQL): it runs instead of everything the strategy decided */
  z.object({ kind: z.literal("final-query"), query: z.string().min(1).max(100_000) }),
  /** "ask again": the whole turn runs afresh with the settings sent along (nothing kept from the earlier attempt) */
  z.object({ kind: z.literal("again") }),
]);
export type Correction = z.infer<typeof correctionSchema>;
export type CorrectionKind = Correction["kind"];

/** What started an attempt after the first: the correction and the attempt (1-based) it was made on. */
export const attemptChangeSchema = z.object({ baseAttempt: z.number().int().min(1).max(10_000), correction: correctionSchema });
export type AttemptChange = z.infer<typeof attemptChangeSchema>;

/** The step each correction replaces (the derivation card its control sits on). */
export const CORRECTION_STAGE: Record<CorrectionKind, Stage> = {
  "qir-triple": "qir",
  vertex: "entity-linking",
  "relation-predicates": "relation-linking",
  predicates: "query-selection",
  candidate: "query-generation",
  "final-query": "execution",
  again: "chat",
};

/** The event a re-run emits at the corrected step (the derivation marks the steps before it as kept). */
export const USER_CHOICE_TOOL = "user-choice";

const short = (s: string, max = 60) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const localName = (iri: string) => iri.replace(/[/#]+$/, "").split(/[/#]/).pop() || iri;

/** One line for the attempt list, the derivation and the export ("Chose Daniel Radcliffe for "Daniel Radcliffe""). */
export function describeCorrection(c: Correction): string {
  switch (c.kind) {
    case "qir-triple":
      return `Edited QIR triple ${c.index + 1} to ⟨${c.triple.subject}, ${c.triple.relation}, ${c.triple.object}⟩`;
    case "vertex":
      return `Linked "${short(c.mention)}" to ${c.label ? `${short(c.label)} (${localName(c.iri)})` : localName(c.iri)}`;
    case "relation-predicates":
      return `Kept predicates ${Object.entries(c.predicates)
        .map(([rel, ps]) => `${ps.map(localName).join(", ")} for "${short(rel, 30)}"`)
        .join("; ")}`;
    case "predicates":
      return `Queried with predicates ${c.predicates.map(localName).join(", ")}`;
    case "candidate":
      return `Ran candidate query #${c.id}`;
    case "final-query":
      return "Ran an edited query";
    case "again":
      return "Asked again with the settings of that moment";
  }
}
