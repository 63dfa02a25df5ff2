// CK25 with scripted LLM replies, shared by the pipeline bench (scripts/bench) and the pipeline tests (test/pipeline):
// where the data is, the KG profile, the per-question reply fixture, the "#<regex>" option markers and one-turn runs.
//
// A competent model answers vertex and predicate selection with the numbers of the options it was shown. Those
// numbers depend on the KG's label-search order, so fixtures name the option instead and scriptFrom() turns it into
// the number at call time: any string "#<regex>" inside a vertex `choices` value or a predicates `predicates` list
// becomes the number(s) of the numbered prompt line(s) ("12. starring", "3. Harry Potter — type: book series") whose
// text after the number matches the regex (case-insensitive). A marker that matches nothing is left as is, so the
// agent's validator rejects it exactly as it would reject a model naming a missing option.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Similarity } from "@/lib/embeddings/types";
import type { KgSpec } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { PlainMessage, ReplyValue } from "@/lib/llm/testing/replies";
import type { Script, ScriptedReply } from "@/lib/llm/testing/scripted-model";
import { AGENT_ROLES, type AgentRole, type LlmGateway } from "@/lib/llm/types";
import { chattyKgStrategy } from "@/lib/pipeline/chatty-kg/strategy";
import type { DerivationEvent, DialogueTurn, PipelineConfig, TurnResult } from "@/lib/pipeline/types";

/** The shared data lives beside the checkout (../shared from the repo root); data stays there, we take paths. */
export function ck25Paths(rootDir = process.cwd()) {
  const dir = path.resolve(rootDir, "../shared/data/ck25");
  return {
    dir,
    graph: path.join(dir, "graphs/prod-inst.ttl"),
    gold: path.resolve(rootDir, "../shared/data/text2sparql25/docs/benchmark/ck25_true_result_set.json"),
    fixture: path.resolve(rootDir, "test/fixtures/ck25/replies.json"),
  };
}

/** Why CK25 cannot be used here, or undefined when the graph and the gold answers are present. */
export function ck25Missing(rootDir = process.cwd()): string | undefined {
  const p = ck25Paths(rootDir);
  if (!existsSync(p.graph)) return `CK25 data not found at ${p.dir} (expected graphs/prod-inst.ttl)`;
  if (!existsSync(p.gold)) return `CK25 gold answers not found at ${p.gold}`;
  return undefined;
}

/**
 * Every CK25 instance has an rdfs:label (employees "Karen Brant", products "M558-2275045 - Sensor Switch"), and most
 * also a pv:name. Only rdfs:label is a label predicate: pv:name stays an ordinary predicate, so questions such as
 * "What is the name of …?" can still be answered with it (label predicates are hidden from relation linking).
 */
export function ck25KgSpec(rootDir = process.cwd()): KgSpec {
  return {
    kind: "files",
    paths: [ck25Paths(rootDir).graph],
    profile: {
      labelPredicates: ["http://www.w3.org/2000/01/rdf-schema#label"],
      language: "en",
      typePredicates: ["http://www.w3.org/1999/02/22-rdf-syntax-ns#type"],
      descriptionPredicates: [],
      prefixes: { pv: "http://ld.company.org/prod-vocab/", prodi: "http://ld.company.org/prod-instances/" },
    },
  };
}

export const roleRepliesSchema = z.partialRecord(z.enum(AGENT_ROLES), z.array(z.unknown()));
export type RoleReplies = z.infer<typeof roleRepliesSchema>;

export const ck25QuestionSchema = z.object({ id: z.number().int(), kind: z.string(), question: z.string(), replies: roleRepliesSchema });
export type Ck25Question = z.infer<typeof ck25QuestionSchema>;

export function readJson<T>(file: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

/** The scripted questions of test/fixtures/ck25/replies.json (or `file`). */
export function loadCk25Fixture(rootDir = process.cwd(), file = ck25Paths(rootDir).fixture): Ck25Question[] {
  return readJson(file, z.object({ questions: z.array(ck25QuestionSchema).min(1) })).questions;
}

/** Numbered options ("7. label …") of the last user message: [number, text after the number]. */
export function promptOptions(messages: PlainMessage[]): [number, string][] {
  const last = [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
  return last
    .split("\n")
    .map((line) => /^(\d+)\. (.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), m[2]] as [number, string]);
}

function resolveMarker(value: unknown, options: [number, string][]): unknown[] {
  if (typeof value !== "string" || !value.startsWith("#")) return [value];
  const re = new RegExp(value.slice(1), "i");
  const hits = options.filter(([, text]) => re.test(text)).map(([n]) => n);
  return hits.length ? hits : [value];
}

/** Turns one fixture reply into what the model would have sent for this prompt. */
export function resolveReply(role: AgentRole, reply: unknown, messages: PlainMessage[]): ReplyValue {
  if (typeof reply !== "object" || reply === null) return reply as ReplyValue;
  const options = promptOptions(messages);
  if (role === "vertex" && "choices" in reply) {
    const choices = Object.fromEntries(
      Object.entries((reply as { choices: Record<string, unknown> }).choices).map(([k, v]) => [k, resolveMarker(v, options)[0]]),
    );
    return { ...reply, choices };
  }
  if (role === "predicates" && "predicates" in reply && Array.isArray((reply as { predicates: unknown }).predicates)) {
    const list = (reply as { predicates: unknown[] }).predicates.flatMap((p) => resolveMarker(p, options));
    return { ...reply, predicates: [...new Set(list)] };
  }
  return reply as ReplyValue;
}

/** A scripted-LLM script from fixture replies (every reply resolved against the prompt it answers). */
export function scriptFrom(replies: RoleReplies): Script {
  const script: Script = {};
  for (const [role, list] of Object.entries(replies) as [AgentRole, unknown[]][]) {
    script[role] = list.map((r): ScriptedReply => (messages) => resolveReply(role, r, messages));
  }
  return script;
}

export interface TurnRun {
  result: TurnResult;
  events: DerivationEvent[];
}

/** Runs one turn through chattyKgStrategy.run (the real wiring) and collects the derivation events and the result. */
export async function runTurn(
  question: string,
  dialogue: DialogueTurn[],
  config: PipelineConfig,
  deps: { kg: KnowledgeGraph; llm: LlmGateway; similarity: Similarity; now?: () => number },
): Promise<TurnRun> {
  const events: DerivationEvent[] = [];
  const gen = chattyKgStrategy.run({ question, dialogue: [...dialogue], config }, deps);
  let next = await gen.next();
  while (!next.done) {
    events.push(next.value);
    next = await gen.next();
  }
  return { result: next.value, events };
}
