// Entity linking (paper Algorithm 2, lines 2–11) for every grounded part of the QIR: entity mentions → vertices (or, when
// that is what the KG holds, a literal value or an IRI without a label), values → the literals the KG holds, classes
// of unknowns → KG classes, exclusions → IRIs. Everything ambiguous goes to ONE vertex-selection call.
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { retrieveCandidates } from "@/lib/pipeline/common/entity-retriever";
import { namedExactly, withLexiconNames } from "@/lib/pipeline/common/vertex-candidates";
import { bgp, namedNode, selectQuery, stringify, triple, valuesOf, variable } from "@/lib/pipeline/common/sparql-ast";
import { NS } from "@/lib/kg/profile";
import type { AnswerItem, DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";
import { hasDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import type { ChattyState, LinkedClass, LinkedLiteral, LinkedVertex, Qir, StageFailure } from "../state";
import { classOptions } from "./class-linking";
import { linkFromContext } from "./context-linking";
import { unlabelledOptions, valueOption } from "./mention-options";
import { typedValue } from "./qir-terms";
import { isVariable, TYPE_PHRASE } from "./relation-linking";
import { selectVertices, type ExtraOption, type MentionCandidates } from "./vertex-selection";

/** The question the agents reason about: the standalone rewrite, else the English text, else what was typed. */
export function workingQuestion(state: ChattyState): string {
  return state.standaloneQuestion ?? state.englishQuestion ?? state.question;
}

/** QIR entities plus any non-variable, non-value triple end (negated triples too), in order, without duplicates. */
export function mentionsOf(qir: Qir): string[] {
  const values = new Set((qir.values ?? []).map((v) => v.text.toLowerCase()));
  const all = [...qir.entities, ...[...qir.triples, ...(qir.negated ?? [])].flatMap((t) => [t.subject, t.object])];
  return [...new Set(all.map((m) => m.trim()).filter((m) => m && !isVariable(m, qir) && !values.has(m.toLowerCase())))];
}

const EXCLUDE = "exclude: ";
const AMONG = "among: ";
const CLASS = "class: ";

function fail(stage: StageFailure["stage"], code: StageFailure["code"], message: string): Partial<ChattyState> {
  return { failure: { stage, code, message } };
}

/** IRIs of the entities earlier answers named, as far as the Chat agent was shown them (L items / rows each). */
export function earlierAnswerIris(dialogue: readonly DialogueTurn[], config: Pick<PipelineConfig, "mode" | "answerLimit">): string[] {
  if (!hasDialogueContext(dialogue, config.mode)) return [];
  const items: AnswerItem[] = dialogue.flatMap((t) => {
    if (t.answer?.kind === "items") return t.answer.items.slice(0, config.answerLimit);
    if (t.answer?.kind === "table") return t.answer.rows.slice(0, config.answerLimit).flatMap((r) => r.filter((c): c is AnswerItem => c !== null));
    return [];
  });
  return [...new Set(items.filter((i) => i.type === "uri").map((i) => i.value))];
}

/** Which linked classes have subclasses (one query): their instances are matched through rdfs:subClassOf*. */
async function withSubclasses(ctx: AgentContext, iris: string[]): Promise<Set<string>> {
  if (iris.length === 0) return new Set();
  const q = stringify(selectQuery(["c"], [valuesOf("c", iris), bgp([triple(variable("sub"), namedNode(`${NS.rdfs}subClassOf`), variable("c"))])]));
  const r = await ctx.sparql("entity-linking", "do the classes have subclasses?", q);
  return new Set(r.kind === "SELECT" ? r.results.bindings.map((b) => b.c?.value).filter((v): v is string => !!v) : []);
}

/**
 * The options of one entity mention: label-search vertices, plus, when no label is exact, unlabelled IRIs and — for a
 * mention that only ever stands as an object (a literal is never a subject) — an equal value the KG holds.
 */
async function entityItem(mention: string, key: string, state: ChattyState, ctx: AgentContext): Promise<{ item?: MentionCandidates; linked?: LinkedVertex; failure?: Partial<ChattyState> }> {
  const result = await withLexiconNames(mention, await retrieveCandidates(mention, ctx), ctx);
  // the KG's own code (kg_timeout, kg_unreachable …): the UI and the benchmarks attribute the failure to the KG
  if (!result.ok) return { failure: fail("entity-linking", result.code, `Could not search the KG for "${mention}": ${result.error}`) };
  // the user names an entity we just answered with: link it directly, no vertex-selection call
  const linked = await linkFromContext(mention, result.candidates, state.dialogue, ctx);
  if (linked) return { linked };
  const exact = result.candidates.some((c) => namedExactly(c, mention));
  if (exact) return { item: { mention, candidates: result.candidates, key } };
  const typed = typedValue(mention);
  const asSubject = [...(state.qir?.triples ?? []), ...(state.qir?.negated ?? [])].some((t) => t.subject === mention);
  const [value, unlabelled] = await Promise.all(["error" in typed || asSubject ? undefined : valueOption(typed.text, typed.type, ctx), unlabelledOptions(mention, ctx)]);
  return { item: { mention, candidates: result.candidates, extra: [...(value ? [value] : []), ...unlabelled], key } };
}

const asLiteral = (mention: string, o: Extract<ExtraOption, { kind: "value" }>, how: LinkedLiteral["how"]): LinkedLiteral => ({
  mention,
  type: o.type,
  terms: o.terms,
  carriers: o.carriers,
  how,
});

/** Mentions that only ever stand as the class in ⟨X, type, C⟩: they name a class, not a vertex ("the substation AURLAND"). */
export function typeObjects(qir: Qir): Set<string> {
  const triples = [...qir.triples, ...(qir.negated ?? [])];
  const out = new Set<string>();
  for (const t of triples) if (TYPE_PHRASE.test(t.relation) && !isVariable(t.object, qir)) out.add(t.object);
  // a mention that is also a subject, or the object of another relation, is a thing after all
  for (const t of triples) {
    out.delete(t.subject);
    if (!TYPE_PHRASE.test(t.relation)) out.delete(t.object);
  }
  return out;
}

/** The class options of a type mention, as a vertex-selection item; undefined when the KG has no class of that name. */
async function typeItem(mention: string, ctx: AgentContext): Promise<{ item?: MentionCandidates; linked?: LinkedVertex; failure?: Partial<ChattyState> } | undefined> {
  const options = await classOptions(mention, ctx);
  return options.length ? { item: { mention, candidates: [], extra: options, key: mention } } : undefined;
}

/** `{ vertices, literals, classes, excluded }` or `{ failure }`. */
export async function entityLinkingAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const qir = state.qir;
  if (!qir) return fail("entity-linking", "internal", "No question representation (QIR) to link.");
  const mentions = mentionsOf(qir);
  const literals: Record<string, LinkedLiteral> = {};
  // a vertex the user chose when correcting an earlier attempt (rerun.ts) stays; only the other mentions are linked
  const vertices: Record<string, LinkedVertex> = Object.fromEntries(Object.entries(state.vertices ?? {}).filter(([m, v]) => v.how === "user" && mentions.includes(m)));
  const items: MentionCandidates[] = [];

  const types = typeObjects(qir);
  const entityJobs = [...mentions.filter((m) => !vertices[m]).map((m) => ({ m, key: m })), ...(qir.exclude?.entities ?? []).map((m) => ({ m, key: `${EXCLUDE}${m}` })), ...(qir.among?.entities ?? []).map((m) => ({ m, key: `${AMONG}${m}` }))].map(async ({ m, key }) => ({ key, ...((key === m && types.has(m) ? await typeItem(m, ctx) : undefined) ?? (await entityItem(m, key, state, ctx))) }));
  const valueJobs = (qir.values ?? []).map(async (v) => {
    const option = await valueOption(v.text, v.type, ctx);
    if (option) return { v, literal: asLiteral(v.text, option, "value-search") };
    // a number or date not stored as such is compared rather than looked up; a text may be an entity's name after all
    if (v.type !== "string") return { v, literal: { mention: v.text, type: v.type, terms: [], carriers: [], how: "typed" } as LinkedLiteral };
    return { v, entity: await entityItem(v.text, v.text, state, ctx) };
  });
  const classJobs = (qir.classes ?? []).map(async (c) => ({ c, options: await classOptions(c.mention, ctx) }));
  const [entities, values, classes] = await Promise.all([Promise.all(entityJobs), Promise.all(valueJobs), Promise.all(classJobs)]);

  for (const e of [...entities, ...values.flatMap((x) => (x.entity ? [{ key: x.v.text, ...x.entity }] : []))]) {
    if (e.failure) return e.failure;
    if (e.linked) vertices[e.key] = e.linked;
    else if (e.item) items.push(e.item);
  }
  for (const x of values) if (x.literal) literals[x.v.text] = x.literal;
  for (const { c, options } of classes) {
    if (options.length === 0) return fail("entity-linking", "pipeline_failed", `Could not find a class for "${c.mention}" in the KG.`);
    items.push({ mention: c.mention, candidates: [], extra: options, key: `${CLASS}${c.variable}` });
  }

  const selection = await selectVertices(workingQuestion(state), items, ctx);
  if (!selection.ok) return { failure: selection.failure };
  Object.assign(vertices, selection.vertices);
  const linkedClasses: Record<string, LinkedClass> = {};
  for (const [key, { option, how }] of Object.entries(selection.chosen)) {
    const mention = items.find((i) => (i.key ?? i.mention) === key)?.mention ?? key;
    if (option.kind === "value") literals[key] = asLiteral(mention, option, how === "llm" ? "llm" : "value-search");
    else if (key.startsWith(CLASS)) {
      const variable = key.slice(CLASS.length);
      linkedClasses[variable] = { variable, mention, iri: option.iri, label: option.label, how, subclasses: false };
    } else vertices[key] = { mention, iri: option.iri, label: option.label, candidates: 1, how };
  }
  const sub = await withSubclasses(ctx, [...new Set(Object.values(linkedClasses).map((c) => c.iri))]);
  for (const c of Object.values(linkedClasses)) c.subclasses = sub.has(c.iri);

  let excluded: ChattyState["excluded"];
  if (qir.exclude) {
    const named = qir.exclude.entities.map((m) => vertices[`${EXCLUDE}${m}`]).filter((v): v is LinkedVertex => !!v);
    const earlier = qir.exclude.earlierAnswers ? earlierAnswerIris(state.dialogue, ctx.config) : [];
    excluded = {
      variable: qir.exclude.variable,
      iris: [...new Set([...named.map((v) => v.iri), ...earlier])],
      ...(named.length ? { named: named.map((v) => ({ ...v, mention: v.mention.replace(EXCLUDE, "") })) } : {}),
      ...(qir.exclude.earlierAnswers ? { fromEarlierAnswers: earlier.length } : {}),
    };
    for (const m of qir.exclude.entities) delete vertices[`${EXCLUDE}${m}`];
  }
  let among: ChattyState["among"];
  if (qir.among) {
    const named = qir.among.entities.map((m) => vertices[`${AMONG}${m}`]).filter((v): v is LinkedVertex => !!v);
    among = { variable: qir.among.variable, iris: [...new Set(named.map((v) => v.iri))], named: named.map((v) => ({ ...v, mention: v.mention.replace(AMONG, "") })) };
    for (const m of qir.among.entities) delete vertices[`${AMONG}${m}`];
  }
  // in mention order, as the QIR lists them; values that turned out to be vertices after them
  const order = [...mentions, ...(qir.values ?? []).map((v) => v.text)];
  return {
    vertices: Object.fromEntries(order.filter((m) => vertices[m] && !literals[m]).map((m) => [m, vertices[m]])),
    ...(Object.keys(literals).length ? { literals } : {}),
    ...(Object.keys(linkedClasses).length ? { classes: linkedClasses } : {}),
    ...(excluded ? { excluded } : {}),
    ...(among ? { among } : {}),
  };
}
