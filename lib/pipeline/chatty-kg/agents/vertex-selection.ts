// Vertex selection + Vertex validator (paper §5.1.1–5.1.2): one vertex per mention; one batched LLM call for all ambiguous ones.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { LinkedVertex, StageFailure } from "../state";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import type { VertexCandidate } from "@/lib/pipeline/common/entity-retriever";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { fetchHints, formatHint, type VertexHint } from "@/lib/pipeline/common/vertex-hints";

export interface MentionCandidates {
  mention: string;
  candidates: VertexCandidate[];
}

export type VertexSelection = { ok: true; vertices: Record<string, LinkedVertex> } | { ok: false; failure: StageFailure };

/** Options shown to the LLM per mention (top by label-search score): keeps prompts small when vlimit is 600. */
export const MAX_OPTIONS = 50;

interface Option extends VertexCandidate {
  n: number;
  hint?: VertexHint;
}

interface Pending {
  mention: string;
  options: Option[];
  total: number;
}

const choiceSchema = z.object({ choices: z.record(z.string(), z.union([z.string(), z.number()])) });
type ChoiceReply = z.infer<typeof choiceSchema>;

/** No LLM needed: a single candidate, or exactly one candidate whose normalised label equals the mention. */
export function autoSelect(mention: string, candidates: VertexCandidate[]): LinkedVertex | undefined {
  const base = { mention, candidates: candidates.length };
  if (candidates.length === 1) return { ...base, iri: candidates[0].iri, label: candidates[0].label, how: "single" };
  const wanted = normalizeLabel(mention);
  const exact = candidates.filter((c) => normalizeLabel(c.label) === wanted);
  if (exact.length === 1) return { ...base, iri: exact[0].iri, label: exact[0].label, how: "exact" };
  return undefined;
}

function fail(message: string): VertexSelection {
  return { ok: false, failure: { stage: "entity-linking", code: "pipeline_failed", message } };
}

/**
 * Links every mention to one vertex. Mentions with one candidate or one exact label match are linked without the LLM;
 * all others go to the LLM together in ONE call (retried ≤ θ by the validator). Same-named options carry a type and
 * description hint from the KG so the model can tell them apart by number.
 */
export async function selectVertices(question: string, items: MentionCandidates[], ctx: AgentContext): Promise<VertexSelection> {
  const vertices: Record<string, LinkedVertex> = {};
  const pending: Pending[] = [];
  for (const { mention, candidates } of items) {
    if (candidates.length === 0) return fail(`Could not find "${mention}" in the KG.`);
    const auto = autoSelect(mention, candidates);
    if (auto) vertices[mention] = auto;
    else {
      const options = candidates.slice(0, MAX_OPTIONS).map((c, i) => ({ ...c, n: i + 1 }));
      pending.push({ mention, options, total: candidates.length });
    }
  }
  if (pending.length === 0) return { ok: true, vertices };

  await addHints(ctx, pending);
  const result = await validatedCall(ctx, {
    stage: "entity-linking",
    role: "vertex",
    schema: choiceSchema,
    prompt: (feedback) => renderVertexPrompt(question, pending, feedback),
    validate: (reply) => validateChoices(reply, pending),
  });
  if (!result.ok) {
    const names = pending.map((p) => `"${p.mention}"`).join(", ");
    return fail(`Could not choose a KG vertex for ${names}: ${result.reason}`);
  }
  for (const p of pending) {
    const chosen = result.value.get(p.mention) as Option;
    vertices[p.mention] = { mention: p.mention, iri: chosen.iri, label: chosen.label, candidates: p.total, how: "llm" };
  }
  return { ok: true, vertices };
}

export function renderVertexPrompt(question: string, pending: Pending[], feedback?: string): { system: string; prompt: string } {
  const entities = pending
    .map((p) => {
      const lines = p.options.map((o) => `${o.n}. ${o.label}${o.hint ? formatHint(o.hint) : ""}`);
      return `Mention: ${JSON.stringify(p.mention)}\nOptions:\n${lines.join("\n")}`;
    })
    .join("\n\n");
  const keys = pending.map((p) => `${JSON.stringify(p.mention)}: …`).join(", ");
  return renderPromptPair("vertex-selection", { question, entities, keys, feedback: feedback ? `\n\n${feedback}` : "" });
}

/** Vertex validator: a choice for every mention, each naming exactly one of that mention's options. */
export function validateChoices(reply: ChoiceReply, pending: Pending[]): Validation<Map<string, Option>> {
  const chosen = new Map<string, Option>();
  const problems: string[] = [];
  const byKey = new Map(Object.entries(reply.choices).map(([k, v]) => [normalizeLabel(k), v]));
  for (const p of pending) {
    const value = reply.choices[p.mention] ?? byKey.get(normalizeLabel(p.mention));
    if (value === undefined) {
      problems.push(`no choice for "${p.mention}"`);
      continue;
    }
    const picked = resolveChoice(value, p.options);
    if (picked.ok) chosen.set(p.mention, picked.value);
    else problems.push(`for "${p.mention}": ${picked.reason}`);
  }
  return problems.length ? { ok: false, reason: problems.join("; ") } : { ok: true, value: chosen };
}

function resolveChoice(value: string | number, options: Option[]): Validation<Option> {
  const byNumber = (n: number) => options.find((o) => o.n === n);
  if (typeof value === "number") {
    const o = Number.isInteger(value) ? byNumber(value) : undefined;
    if (o) return { ok: true, value: o };
    // a label that is itself a number ("1984") sent as a JSON number
    return byLabel(String(value), options);
  }
  const text = value.trim();
  const asLabel = byLabel(text, options);
  if (asLabel.ok) return asLabel;
  if (/^\d+$/.test(text) && byNumber(Number(text))) return { ok: true, value: byNumber(Number(text)) as Option };
  // "3. Harry Potter" / "3) Harry Potter": the number wins when its label agrees with the text after it
  const m = /^(\d+)[.)]\s*(.*)$/.exec(text);
  if (m) {
    const o = byNumber(Number(m[1]));
    if (o && (!m[2] || normalizeLabel(m[2]).startsWith(normalizeLabel(o.label)))) return { ok: true, value: o };
  }
  return asLabel;
}

function byLabel(text: string, options: Option[]): Validation<Option> {
  const wanted = normalizeLabel(text);
  const same = options.filter((o) => normalizeLabel(o.label) === wanted);
  if (same.length === 1) return { ok: true, value: same[0] };
  if (same.length > 1) {
    return { ok: false, reason: `${JSON.stringify(text)} is the label of several options (${same.map((o) => o.n).join(", ")}); answer with the option number` };
  }
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return { ok: false, reason: `${JSON.stringify(shown)} is not one of the options (answer with an option number or its exact label)` };
}

/** Adds type/description hints to options whose label is shared by another option of the same mention. */
async function addHints(ctx: AgentContext, pending: Pending[]): Promise<void> {
  const need = new Set<string>();
  for (const p of pending) {
    const counts = new Map<string, number>();
    for (const o of p.options) counts.set(normalizeLabel(o.label), (counts.get(normalizeLabel(o.label)) ?? 0) + 1);
    for (const o of p.options) if ((counts.get(normalizeLabel(o.label)) ?? 0) > 1) need.add(o.iri);
  }
  if (need.size === 0) return;
  const hints = await fetchHints(ctx, [...need]);
  for (const p of pending) for (const o of p.options) if (need.has(o.iri)) o.hint = hints.get(o.iri) ?? { types: [] };
}
