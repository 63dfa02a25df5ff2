// Vertex selection + Vertex validator (paper §5.1.1–5.1.2): one vertex per mention; one batched LLM call for all ambiguous ones.
// Beyond the paper, a mention's options may also be a literal value the KG holds ("Alfama" as a neighbourhood stored as text), an
// IRI without a label (named by its local name), or, for the class of an unknown, the KG's classes: the same call
// chooses among them, so they cost no extra LLM call.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { LinkedVertex, StageFailure, ValueType } from "../state";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import type { VertexCandidate } from "@/lib/pipeline/common/entity-retriever";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { compactIri } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";
import { fetchHints, formatHint, type VertexHint } from "@/lib/pipeline/common/vertex-hints";
import { matchedNote, namedExactly } from "@/lib/pipeline/common/vertex-candidates";

/** A literal value equal to the mention (value-search.ts): chosen like a vertex, linked as a literal. */
export interface ValueOption {
  kind: "value";
  text: string;
  type: ValueType;
  terms: Term[];
  /** labels of the predicates carrying it, most used first (shown as the option's hint) */
  carriedBy: string[];
  carriers: string[];
}

/** A KG class (class-linking.ts), or an IRI without a label (named by its local name's words). */
export interface IriOption {
  kind: "class" | "unlabelled";
  iri: string;
  label: string;
  /** its name equals the mention (singular/plural aside for classes) */
  exact: boolean;
}

export type ExtraOption = ValueOption | IriOption;

/** An extra option chosen for a mention, and how: the only option, the one exact one, or by the LLM. */
export interface ChosenExtra {
  option: ExtraOption;
  how: "single" | "exact" | "llm";
}

export interface MentionCandidates {
  mention: string;
  candidates: VertexCandidate[];
  /** values, unlabelled IRIs or classes offered beside (or, for a class mention, instead of) the label-search hits */
  extra?: ExtraOption[];
  /** the key the choice is returned under (default: the mention), e.g. "class ?h" for the class of ?h */
  key?: string;
}

export type VertexSelection =
  | { ok: true; vertices: Record<string, LinkedVertex>; chosen: Record<string, ChosenExtra> }
  | { ok: false; failure: StageFailure };

/** Options shown to the LLM per mention (top by label-search score): keeps prompts small when vlimit is 600. */
export const MAX_OPTIONS = 50;

interface Option extends VertexCandidate {
  n: number;
  hint?: VertexHint;
  /** set for the options that are not label-search vertices */
  extra?: ExtraOption;
  /** the compact IRI, shown when another class or unlabelled option of the mention has the same name */
  twin?: string;
}

interface Pending {
  mention: string;
  /** the key the choice is returned under (default: the mention) */
  key?: string;
  options: Option[];
  total: number;
}

const choiceSchema = z.object({ choices: z.record(z.string(), z.union([z.string(), z.number()])) });
type ChoiceReply = z.infer<typeof choiceSchema>;

/** No LLM needed: a single candidate, or exactly one candidate whose normalised label equals the mention. */
export function autoSelect(mention: string, candidates: VertexCandidate[]): LinkedVertex | undefined {
  const base = { mention, candidates: candidates.length };
  if (candidates.length === 1) return { ...base, iri: candidates[0].iri, label: candidates[0].label, how: "single" };
  const exact = candidates.filter((c) => namedExactly(c, mention));
  if (exact.length === 1) return { ...base, iri: exact[0].iri, label: exact[0].label, how: "exact" };
  return undefined;
}

/**
 * With extra options: a labelled vertex that is the one exact match still wins (autoSelect); otherwise the one exact
 * option of any kind (a value always equals the mention; an unlabelled IRI or a class when its name does; an unlabelled
 * IRI only when no labelled vertex was found at all), or the only option there is.
 */
function autoSelectExtra(mention: string, candidates: VertexCandidate[], extra: ExtraOption[]): ChosenExtra | "vertex" | undefined {
  const exactVertices = candidates.filter((c) => namedExactly(c, mention));
  if (exactVertices.length === 1) return "vertex";
  if (exactVertices.length > 1) return undefined;
  const exactExtra = extra.filter((e) => e.kind === "value" || e.exact);
  if (candidates.length === 0 && extra.length === 1) return { option: extra[0], how: "single" };
  // an IRI named only by its local name does not outrank labelled vertices that contain the mention: the model decides
  if (exactExtra.length === 1 && (candidates.length === 0 || exactExtra[0].kind === "value")) return { option: exactExtra[0], how: "exact" };
  return undefined;
}

function fail(message: string): VertexSelection {
  return { ok: false, failure: { stage: "entity-linking", code: "pipeline_failed", message } };
}

const extraAsOption = (e: ExtraOption, n: number): Option =>
  e.kind === "value" ? { iri: "", label: e.text, score: 1, n, extra: e } : { iri: e.iri, label: e.label, score: e.exact ? 1 : 0.5, n, extra: e };

/**
 * Links every mention to one vertex (or one of its extra options). Mentions with one candidate or one exact match are
 * linked without the LLM; all others go to the LLM together in ONE call (retried ≤ θ by the validator). Same-named
 * options carry a type and description hint from the KG so the model can tell them apart by number.
 */
export async function selectVertices(question: string, items: MentionCandidates[], ctx: AgentContext): Promise<VertexSelection> {
  const vertices: Record<string, LinkedVertex> = {};
  const chosen: Record<string, ChosenExtra> = {};
  const pending: Pending[] = [];
  for (const { mention, candidates, extra = [], key = mention } of items) {
    if (candidates.length === 0 && extra.length === 0) return fail(`Could not find "${mention}" in the KG.`);
    if (extra.length === 0) {
      const auto = autoSelect(mention, candidates);
      if (auto) {
        vertices[key] = auto;
        continue;
      }
    } else {
      const auto = autoSelectExtra(mention, candidates, extra);
      if (auto === "vertex") {
        vertices[key] = autoSelect(mention, candidates) as LinkedVertex;
        continue;
      }
      if (auto) {
        chosen[key] = auto;
        continue;
      }
    }
    // extra options first: they are exact matches of another kind, and the vertex list may be long
    const options = [...extra.map((e, i) => extraAsOption(e, i + 1)), ...candidates.slice(0, MAX_OPTIONS).map((c, i) => ({ ...c, n: extra.length + i + 1 }))];
    pending.push({ mention: pending.some((p) => p.mention === mention) ? `${mention} (${key})` : mention, key, options, total: candidates.length + extra.length });
  }
  if (pending.length === 0) return { ok: true, vertices, chosen };

  await addHints(ctx, pending);
  markTwins(pending, ctx.kg.profile.prefixes);
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
    const option = result.value.get(p.mention) as Option;
    const key = p.key ?? p.mention;
    if (option.extra) chosen[key] = { option: option.extra, how: "llm" };
    else vertices[key] = { mention: p.mention, iri: option.iri, label: option.label, candidates: p.total, how: "llm" };
  }
  return { ok: true, vertices, chosen };
}

/** The hint after an option's label: KG types/description, or what kind of option it is. */
function optionHint(o: Option): string {
  if (o.extra?.kind === "value") return ` — a ${o.extra.type === "string" ? "text" : o.extra.type} value${o.extra.carriedBy.length ? ` of: ${o.extra.carriedBy.slice(0, 3).join(", ")}` : ""}`;
  const twin = o.twin ? ` (${o.twin})` : "";
  if (o.extra?.kind === "class") return ` — a class${twin}`;
  if (o.extra?.kind === "unlabelled") return ` — no label (named by its IRI)${twin}`;
  const hint = `${o.hint ? formatHint(o.hint) : ""}${twin}`;
  // the name that matched, when the option is shown by another one (an id, a second name, its IRI's local name)
  const note = matchedNote(o);
  return note ? `${hint}${hint ? ";" : " —"} ${note}` : hint;
}

export function renderVertexPrompt(question: string, pending: Pending[], feedback?: string): { system: string; prompt: string } {
  const entities = pending
    .map((p) => {
      const lines = p.options.map((o) => `${o.n}. ${o.extra?.kind === "value" ? JSON.stringify(o.label) : o.label}${optionHint(o)}`);
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

/**
 * Class and unlabelled options that share a name with another of the mention's options show their compact IRI; so do
 * classes found by label search (typed "class") that share a name with another such class: their namespaces are all
 * that tells two vocabularies' "Diagram" apart.
 */
function markTwins(pending: Pending[], prefixes: Record<string, string>): void {
  const isClass = (o: Option) => !o.extra && (o.hint?.types ?? []).some((t) => normalizeLabel(t) === "class");
  for (const p of pending) {
    const named = p.options.filter((o) => o.extra && o.extra.kind !== "value");
    for (const o of named) if (named.some((x) => x !== o && normalizeLabel(x.label) === normalizeLabel(o.label))) o.twin = compactIri(o.iri, prefixes);
    const classes = p.options.filter(isClass);
    for (const o of classes) if (classes.some((x) => x !== o && normalizeLabel(x.label) === normalizeLabel(o.label))) o.twin = compactIri(o.iri, prefixes);
  }
}

/** Adds type/description hints to options whose label is shared by another option of the same mention. */
async function addHints(ctx: AgentContext, pending: Pending[]): Promise<void> {
  const need = new Set<string>();
  for (const p of pending) {
    const counts = new Map<string, number>();
    const vertexOptions = p.options.filter((o) => !o.extra);
    for (const o of vertexOptions) counts.set(normalizeLabel(o.label), (counts.get(normalizeLabel(o.label)) ?? 0) + 1);
    for (const o of vertexOptions) if ((counts.get(normalizeLabel(o.label)) ?? 0) > 1) need.add(o.iri);
  }
  if (need.size === 0) return;
  const hints = await fetchHints(ctx, [...need]);
  for (const p of pending) for (const o of p.options) if (need.has(o.iri)) o.hint = hints.get(o.iri) ?? { types: [] };
}
