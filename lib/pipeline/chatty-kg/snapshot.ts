// The JSON snapshot of a Chatty-KG turn's state kept with each attempt (TurnResult.snapshot), and its zod check when a
// correction re-runs the turn from it. The question, dialogue and config are not in it: the stored turn has them.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { ChattyState } from "./state";

export const SNAPSHOT_VERSION = 1;

const qirTriple = z.object({ subject: z.string(), relation: z.string(), object: z.string() });
// Checked field by field where a re-run reads them; constraint fields (values, comparisons, …) pass through as the
// QIR agent produced them, so new ones do not make older snapshots unreadable.
const qir = z.looseObject({
  entities: z.array(z.string()),
  unknowns: z.array(z.string()),
  relations: z.array(z.string()),
  triples: z.array(qirTriple),
  target: z.string().optional(),
  questionType: z.enum(["factoid", "count", "boolean"]),
});
const vertex = z.looseObject({ mention: z.string(), iri: z.string(), label: z.string(), candidates: z.number(), how: z.string() });
const ranked = z.looseObject({ iri: z.string(), label: z.string(), score: z.number(), direction: z.enum(["out", "in"]), vertex: z.string() });
const candidate = z.looseObject({
  id: z.number(),
  sparql: z.string(),
  kind: z.enum(["SELECT", "ASK", "COUNT"]),
  predicates: z.array(z.string()),
  score: z.number(),
});
const executed = z.looseObject({ id: z.number(), sparql: z.string(), rows: z.number(), ms: z.number(), error: z.string().optional() });

const snapshotSchema = z.looseObject({
  version: z.literal(SNAPSHOT_VERSION),
  route: z.enum(["kg", "reply"]).optional(),
  language: z.string().optional(),
  englishQuestion: z.string().optional(),
  contextDependent: z.boolean().optional(),
  standaloneQuestion: z.string().optional(),
  qir: qir.optional(),
  qirSource: z.string().optional(),
  vertices: z.record(z.string(), vertex).optional(),
  relationPredicates: z.record(z.string(), z.array(ranked)).optional(),
  candidates: z.array(candidate).optional(),
  selectedPredicates: z.array(z.string()).optional(),
  executed: z.array(executed).optional(),
});

type Snapshot = Omit<ChattyState, "question" | "dialogue" | "config"> & { version: number };

/** The state without what the turn row already stores (question, dialogue, config): plain JSON. */
export function toSnapshot(state: ChattyState): Snapshot {
  const { question: _q, dialogue: _d, config: _c, ...rest } = state;
  return JSON.parse(JSON.stringify({ version: SNAPSHOT_VERSION, ...rest })) as Snapshot;
}

/** The state a re-run starts from: the snapshot checked, with the turn's question, dialogue and config. */
export function fromSnapshot(snapshot: unknown, base: Pick<ChattyState, "question" | "dialogue" | "config">): ChattyState {
  const parsed = snapshotSchema.safeParse(snapshot);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join(".") || "(root)";
    throw new AppError("bad_request", `This attempt's saved state cannot be re-run (it is missing or from an older version; ${where}). Ask the question again.`);
  }
  const { version: _v, ...rest } = parsed.data;
  return { ...(rest as unknown as Omit<ChattyState, "question" | "dialogue" | "config">), ...base };
}
