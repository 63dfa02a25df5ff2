// Chatty-KG after a user's correction: the correction applied to the snapshot of the attempt it was made on, the
// outputs of the corrected step and of every later one cleared, the corrected step recorded as the user's decision
// (no LLM call), and the wiring's answer steps run again from the next one (strategy.ts).
//
// Decisions:
// - Each correction replaces one step: QIR triple → the QIR; vertex → entity linking; kept predicates per relation →
//   relation linking; predicates → query selection; a candidate query → query selection (its predicates) and the
//   execution runs that candidate only. Later steps run as in a normal turn and may call the LLM (a new vertex needs
//   a new predicate choice).
// - The steps before the corrected one are not run again: their state comes from the snapshot and their derivation
//   events from the corrected attempt, shown again (not counted in this attempt's stats).
// - A vertex the user chose stays through later corrections (how "user": entity linking keeps it).
import { AppError } from "@/lib/errors";
import { isSafeIri } from "@/lib/kg/escape";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { StageSummarizer } from "@/lib/pipeline/common/stage-runner";
import { describeCorrection, USER_CHOICE_TOOL, type Correction } from "@/lib/pipeline/corrections";
import { STAGES, type DerivationEvent, type RerunInput, type Stage } from "@/lib/pipeline/types";
import { entityLinkingAgent, mentionsOf } from "./agents/matching-agent";
import { executionAgent, predicateOptions } from "./agents/query-planner";
import { qirOutputSchema, validateQir } from "./agents/qir-validator";
import { fromSnapshot } from "./snapshot";
import { summarizeStage } from "./stage-summary";
import type { Agent, ChattyState, LinkedVertex, Qir } from "./state";

/** What each step writes into the state (cleared when that step or an earlier one is corrected). */
const OUTPUTS: [Stage, (keyof ChattyState)[]][] = [
  ["qir", ["qir", "qirSource", "qirDraft"]],
  ["entity-linking", ["vertices", "literals", "classes", "excluded", "among"]],
  ["relation-linking", ["relationPredicates"]],
  ["query-generation", ["candidates"]],
  ["query-selection", ["selectedPredicates"]],
  ["execution", ["executed", "answerItems"]],
  ["answer", ["naturalAnswer"]],
];

export interface RerunPlan {
  /** the snapshot's state with the corrected step's and later outputs cleared */
  state: ChattyState;
  /** the corrected step: records the user's decision (and, for a partial entity linking, links the other mentions) */
  decided: { stage: Stage; agent: Agent<AgentContext> };
  /** the wiring's answer steps replaced for this re-run (the user's decision fixes them too) */
  replace: Partial<Record<Stage, Agent<AgentContext>>>;
  /** the corrected attempt's events of the steps kept, shown again */
  kept: DerivationEvent[];
  /** stage summaries, the decided step's marked as the user's */
  summarize: StageSummarizer<ChattyState>;
}

const bad = (message: string) => new AppError("bad_request", message);
const outputsOf = (stage: Stage) => OUTPUTS.find(([s]) => s === stage)?.[1] ?? [];

/** The state with `stage`'s outputs and every later step's cleared; the answer and any failure always go. */
export function clearFrom(state: ChattyState, stage: Stage): ChattyState {
  const at = STAGES.indexOf(stage);
  const next: ChattyState = { ...state, answer: undefined, failure: undefined, naturalAnswer: undefined };
  for (const [s, keys] of OUTPUTS) if (STAGES.indexOf(s) >= at) for (const k of keys) delete next[k];
  return next;
}

/** The snapshot's state, checked; a turn the Chat agent answered itself has no step to correct. */
function baseState(input: Pick<RerunInput, "snapshot" | "question" | "dialogue" | "config">): ChattyState {
  const state = fromSnapshot(input.snapshot, { question: input.question, dialogue: input.dialogue, config: input.config });
  if (state.route === "reply") throw bad("This turn was answered about the conversation itself: there is no KG step to correct.");
  return state;
}

/** QIR with triple `index` replaced, checked by the same Triples validator as the QIR agent's output. */
function editedQir(qir: Qir, index: number, triple: Qir["triples"][number]): Qir {
  if (index >= qir.triples.length) throw bad(`The QIR has ${qir.triples.length} triple(s); there is no triple ${index + 1}.`);
  const triples = qir.triples.map((t, i) => (i === index ? triple : t));
  const ends = new Set(triples.flatMap((t) => [t.subject.toLowerCase(), t.object.toLowerCase()]));
  const output = qirOutputSchema.parse({
    entities: qir.entities,
    unknowns: [...new Set([...qir.unknowns, ...triples.flatMap((t) => [t.subject, t.object]).filter((x) => x.startsWith("?"))])],
    relations: triples.map((t) => t.relation),
    triples: triples.map((t) => [t.subject, t.relation, t.object]),
    target: qir.target ?? null,
    question_type: qir.questionType,
    // literal ends and classes keep what they were, where the edited triples still use them
    values: qir.values?.filter((v) => ends.has(v.text.toLowerCase())).map((v) => ({ text: v.text, type: v.type })),
    classes: qir.classes?.map((c) => ({ var: c.variable, class: c.mention })),
  });
  const checked = validateQir(output);
  if (!checked.ok) throw bad(`The edited triple does not make a valid QIR: ${checked.reason}.`);
  const { entities, unknowns, relations, triples: normalized, target, questionType } = checked.value;
  return { ...qir, entities, unknowns, relations, triples: normalized, target, questionType };
}

function userVertex(state: ChattyState, c: Extract<Correction, { kind: "vertex" }>): LinkedVertex {
  if (!isSafeIri(c.iri)) throw bad(`Not a usable IRI: ${JSON.stringify(c.iri.slice(0, 200))}.`);
  const before = state.vertices?.[c.mention];
  const label = c.label || (before?.iri === c.iri ? before.label : undefined) || c.iri.replace(/[/#]+$/, "").split(/[/#]/).pop() || c.iri;
  return { mention: c.mention, iri: c.iri, label, candidates: before?.candidates ?? 0, how: "user" };
}

/** The corrected step, its patch, and the steps the correction also decides. */
function decide(state: ChattyState, c: Correction): { stage: Stage; patch: Partial<ChattyState>; linkOthers?: boolean; replace?: RerunPlan["replace"] } {
  switch (c.kind) {
    case "qir-triple": {
      if (!state.qir) throw bad("This attempt has no QIR to edit.");
      const qir = editedQir(state.qir, c.index, c.triple);
      const mentions = new Set(mentionsOf(qir));
      // vertices the user chose for mentions the edited QIR still has stay chosen
      const kept = Object.entries(state.vertices ?? {}).filter(([m, v]) => v.how === "user" && mentions.has(m));
      return { stage: "qir", patch: { qir, qirSource: state.qirSource, ...(kept.length ? { vertices: Object.fromEntries(kept) } : {}) } };
    }
    case "vertex": {
      if (!state.qir) throw bad("This attempt has no QIR, so no entity to link.");
      const mentions = mentionsOf(state.qir);
      if (!mentions.includes(c.mention)) throw bad(`"${c.mention}" is not an entity of this question (${mentions.map((m) => `"${m}"`).join(", ") || "none"}).`);
      const vertices = { ...Object.fromEntries(Object.entries(state.vertices ?? {}).filter(([m]) => mentions.includes(m))), [c.mention]: userVertex(state, c) };
      const ordered = Object.fromEntries(mentions.filter((m) => vertices[m]).map((m) => [m, vertices[m]]));
      // entity linking stopped before linking every mention: the others are linked now (the user's choice kept)
      const linkOthers = mentions.some((m) => !vertices[m]);
      // the step's other outputs (linked values, classes, exclusions) stay as they were when it does not run again
      const kept = linkOthers ? {} : Object.fromEntries(outputsOf("entity-linking").filter((k) => k !== "vertices" && state[k] !== undefined).map((k) => [k, state[k]]));
      return { stage: "entity-linking", patch: { ...kept, vertices: ordered }, linkOthers };
    }
    case "relation-predicates": {
      const ranked = state.relationPredicates;
      if (!ranked) throw bad("This attempt has no linked relations to change.");
      const next = { ...ranked };
      for (const [relation, iris] of Object.entries(c.predicates)) {
        const list = ranked[relation];
        if (!list) throw bad(`"${relation}" is not a relation of this question (${Object.keys(ranked).map((r) => `"${r}"`).join(", ")}).`);
        const unknown = iris.filter((i) => !list.some((p) => p.iri === i));
        if (unknown.length) throw bad(`Not among the predicates ranked for "${relation}": ${unknown.join(", ")}.`);
        next[relation] = list.filter((p) => iris.includes(p.iri));
      }
      return { stage: "relation-linking", patch: { relationPredicates: next } };
    }
    case "predicates": {
      const options = predicateOptions(state.candidates ?? [], state);
      if (options.length === 0) throw bad("This attempt has no candidate queries to choose predicates for.");
      const unknown = c.predicates.filter((p) => !options.some((o) => o.iri === p));
      if (unknown.length) throw bad(`Not a predicate of the candidate queries: ${unknown.join(", ")}.`);
      return { stage: "query-selection", patch: { selectedPredicates: options.filter((o) => c.predicates.includes(o.iri)).map((o) => o.iri) } };
    }
    case "candidate": {
      const candidate = state.candidates?.find((q) => q.id === c.id);
      if (!candidate) throw bad(`This attempt has no candidate query #${c.id}.`);
      return {
        stage: "query-selection",
        patch: { selectedPredicates: [...new Set(candidate.predicates)] },
        // only that query runs, whatever else uses the same predicates
        replace: { execution: (s, ctx) => executionAgent({ ...s, candidates: [candidate] }, ctx) },
      };
    }
    case "final-query":
      throw bad("An edited final query is run as it is, not through Chatty-KG's steps.");
    case "again":
      throw bad("Asking again runs the whole turn afresh, not from one step.");
  }
}

/** The corrected attempt's events of the kept steps (all of them), and the corrected step's searches and rankings. */
export function keptEvents(baseTrace: DerivationEvent[], decided: Stage, rerunsDecided: boolean): DerivationEvent[] {
  const at = STAGES.indexOf(decided);
  return baseTrace.filter((e) => {
    if (e.stage === "chat") return false; // the Chat agent does not run again; its card would wrap nothing
    const i = STAGES.indexOf(e.stage);
    if (i < at) return true;
    // the candidates and rankings the user chose from stay visible on the corrected step's card
    return i === at && !rerunsDecided && (e.type === "tool-call" || e.type === "warning");
  });
}

/** Checks the correction against the snapshot (throws AppError "bad_request") and plans the re-run. */
export function planRerun(input: Omit<RerunInput, "signal" | "baseTrace"> & { baseTrace?: DerivationEvent[] }): RerunPlan {
  const base = baseState(input);
  const c = input.correction;
  const { stage, patch, linkOthers, replace } = decide(base, c);
  const state = clearFrom(base, stage);
  const agent: Agent<AgentContext> = async (s, ctx) => {
    ctx.emit({ type: "tool-call", stage, tool: USER_CHOICE_TOOL, input: c, output: describeCorrection(c) });
    return linkOthers ? { ...patch, ...(await entityLinkingAgent({ ...s, ...patch }, ctx)) } : patch;
  };
  return {
    state,
    decided: { stage, agent },
    replace: replace ?? {},
    kept: keptEvents(input.baseTrace ?? [], stage, Boolean(linkOthers)),
    summarize: (s, st) => {
      const out = summarizeStage(s, st);
      return s === stage && st.failure?.stage !== stage ? { ...out, summary: `Your choice: ${out.summary}` } : out;
    },
  };
}
