// Query writer (beyond the paper, issue 28): for a question the QIR marks `compose` (analytic: several aggregates
// compared, set conditions over several rows, nesting, ratios), the query is written by the LLM from what the Matching
// agent linked — vertices, values, classes, ranked predicates — and the classes around them (class-cards.ts), with
// the generator's best candidate as the basic pattern. Part of the query-generation stage; a simple question never
// comes here.
//
// Decisions:
// - The written query is checked before it runs: it parses, is a read-only SELECT/ASK without SERVICE, names only
//   IRIs the prompt listed (or the standard vocabulary), and passes the shared validator (common/query-validator.ts:
//   every name exists, the patterns can match together). Problems go back to the model, at most θ attempts.
// - An ordered answer cut by LIMIT gets the shown variables as last order keys: engines keep the same tied rows.
// - The model may decline ("sparql": null): the generated candidates run as for any question. So do θ rejected attempts
//   (the derivation warns). Nothing is run twice: execution runs the written query (query-execution.ts).
import type sparqljs from "sparqljs";
import { z } from "zod";
import type { LlmCallResult } from "@/lib/llm/types";
import { toAppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { stringifySparql } from "@/lib/kg/sparql-syntax";
import { variable } from "@/lib/pipeline/common/sparql-ast";
import { localName } from "@/lib/kg/profile";
import { renderPromptPair } from "@/lib/prompts";
import { kgNotesBlock, readKgNotes } from "@/lib/pipeline/common/kg-notes";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { guardReply } from "@/lib/pipeline/common/query-reply";
import { isStandard, queryTerms } from "@/lib/pipeline/common/query-terms";
import { validateQuery, closest } from "@/lib/pipeline/common/query-validator";
import type { SchemaCards } from "@/lib/pipeline/common/schema-cards";
import type { CandidateQuery, ChattyState, Qir } from "../state";
import { classCards, type ClassCard } from "./class-cards";
import { workingQuestion } from "./entity-linking";

export const writerReplySchema = z.object({
  reasoning: z.string().optional(),
  sparql: z.string().nullable().optional(),
});

/** What the prompt showed: its text parts and every IRI listed (the written query may use only these). */
export interface WriterInput {
  linked: string;
  basic: string;
  cards: string;
  iris: Set<string>;
  /** the KG's notes block ("" when none) */
  notes?: string;
}

export type WriterStage = "query-generation" | "query-selection" | "execution";

const NO_CARDS: SchemaCards = { kgId: "", cards: [], prefixes: {}, predicates: new Map(), sampled: false };

const quote = (s: string) => JSON.stringify(s);
const named = (iri: string, labels: Map<string, string>) => {
  const l = labels.get(iri);
  return l && l !== localName(iri) ? `<${iri}> (${l})` : `<${iri}>`;
};

/** The QIR as the prompt shows it: its triples and what it asks (compact JSON, no reasoning). */
function qirText(qir: Qir): string {
  const { entities, unknowns, relations, ...rest } = qir;
  void entities;
  void unknowns;
  void relations;
  return JSON.stringify({ ...rest, triples: qir.triples.map((t) => [t.subject, t.relation, t.object]), ...(qir.negated ? { negated: qir.negated.map((t) => [t.subject, t.relation, t.object]) } : {}) });
}

function cardText(c: ClassCard, labels: Map<string, string>): string {
  const lines = [`${named(c.iri, labels)}`];
  for (const e of c.out) {
    const what = e.other === "" ? "another resource" : e.other.startsWith("http://www.w3.org/2001/XMLSchema#") ? `xsd:${localName(e.other)}` : named(e.other, labels);
    lines.push(`  ?x <${e.iri}> ?value — ${what}${e.example !== undefined ? `, e.g. ${quote(e.example)}` : ""}`);
  }
  for (const e of c.in) lines.push(`  ?other <${e.iri}> ?x — ?other is ${e.other ? `a ${named(e.other, labels)}` : "another resource"}`);
  return lines.join("\n");
}

/** The prompt's parts from the state (linking done, candidates generated) and the class cards. */
export async function writerInput(state: ChattyState, ctx: AgentContext, generated: CandidateQuery[], stage: WriterStage = "query-generation"): Promise<WriterInput> {
  const { cards, labels } = await classCards(state, ctx, stage);
  const notes = kgNotesBlock(await readKgNotes(ctx.kgNotes, ctx, stage));
  const iris = new Set<string>();
  const lines: string[] = [];
  const vertices = Object.values(state.vertices ?? {});
  if (vertices.length) lines.push("Linked entities:", ...vertices.map((v) => `- ${quote(v.mention)} → <${v.iri}> (${v.label})`));
  for (const v of vertices) iris.add(v.iri);
  const literals = Object.values(state.literals ?? {});
  if (literals.length) {
    lines.push("Linked values:");
    for (const l of literals) {
      const terms = l.terms.length ? l.terms.slice(0, 5).map((t) => quote(t.value)).join(", ") : `${quote(l.mention)} (compare with it)`;
      lines.push(`- ${quote(l.mention)} → ${terms}${l.carriers.length ? ` as the value of ${l.carriers.map((c) => `<${c}>`).join(", ")}` : ""}`);
      for (const c of l.carriers) iris.add(c);
    }
  }
  const classes = Object.values(state.classes ?? {});
  if (classes.length) lines.push("Linked classes:", ...classes.map((c) => `- ${c.variable} (${quote(c.mention)}) → <${c.iri}> (${c.label})`));
  for (const c of classes) iris.add(c.iri);
  const relations = Object.entries(state.relationPredicates ?? {}).filter(([, ps]) => ps.length > 0);
  if (relations.length) {
    lines.push("Predicates ranked for the relations:");
    // one entry per predicate (relation linking ranks it around each end it was found at)
    for (const [relation, ps] of relations) lines.push(`- ${quote(relation)}: ${[...new Map(ps.map((p) => [p.iri, p])).values()].map((p) => `<${p.iri}> (${p.label})`).join(", ")}`);
    for (const [, ps] of relations) for (const p of ps) iris.add(p.iri);
  }
  for (const c of cards) {
    iris.add(c.iri);
    for (const e of [...c.out, ...c.in]) {
      iris.add(e.iri);
      if (e.other.startsWith("http") && !isStandard(e.other)) iris.add(e.other);
    }
  }
  const best = generated[0];
  return {
    linked: lines.length ? `\n${lines.join("\n")}\n` : "\n",
    basic: best ? `\nBasic pattern (the generated query closest to the question's triples):\n\`\`\`sparql\n${best.sparql}\n\`\`\`\n` : "",
    cards: cards.length ? cards.map((c) => cardText(c, labels)).join("\n") : "(none found)",
    iris,
    notes,
  };
}

export function renderWriterPrompt(state: ChattyState, input: WriterInput, feedback: string) {
  return renderPromptPair("chatty-query-writer", {
    notes: input.notes ?? "",
    question: workingQuestion(state),
    qir: state.qir ? qirText(state.qir) : "{}",
    linked: input.linked,
    basic: input.basic,
    cards: input.cards,
    feedback,
  });
}

/** The IRIs of the query the prompt did not list (standard vocabulary aside). */
export function unlistedIris(ast: sparqljs.SelectQuery | sparqljs.AskQuery, listed: ReadonlySet<string>, typePredicates: readonly string[]): string[] {
  const t = queryTerms(ast, typePredicates);
  return [...new Set([...t.classes, ...t.predicates, ...t.constants])].filter((i) => !listed.has(i) && !isStandard(i) && !typePredicates.includes(i));
}

const repairFeedback = (sparql: string, problems: string[]) =>
  `\n\nYour previous query:\n\`\`\`sparql\n${sparql.slice(0, 4000)}\n\`\`\`\nIts problems:\n${problems.map((p) => `- ${p}`).join("\n")}\nWrite a corrected query.`;

type Checked = { ok: true; candidate: Omit<CandidateQuery, "id"> } | { ok: false; problems: string[] };

/**
 * An ordered SELECT cut by LIMIT/OFFSET with the projected plain variables it does not order by added as last keys,
 * so every engine keeps the same tied rows (as the generator does); undefined when there is nothing to add.
 */
export function withTieBreaks(ast: sparqljs.SelectQuery | sparqljs.AskQuery): string | undefined {
  if (ast.queryType !== "SELECT" || !ast.order?.length || (ast.limit === undefined && !ast.offset)) return undefined;
  const ordered = new Set(ast.order.flatMap((o) => ((o.expression as { termType?: string }).termType === "Variable" ? [(o.expression as sparqljs.VariableTerm).value] : [])));
  // plain columns only: Virtuoso 7 computed a SUM wrongly when the order also named the aggregates' aliases
  const shown = (ast.variables ?? []).flatMap((v) => ("termType" in v && v.termType === "Variable" ? [v.value] : []));
  const extra = shown.filter((n) => !ordered.has(n));
  if (extra.length === 0) return undefined;
  return stringifySparql({ ...ast, order: [...ast.order, ...extra.map((n) => ({ expression: variable(n) }))] } as sparqljs.SelectQuery);
}

/** The guard, the listed-IRIs check and the shared validator on one written query. */
export async function checkWritten(sparql: string, input: WriterInput, ctx: AgentContext, stage: WriterStage = "query-generation"): Promise<Checked> {
  const guarded = guardReply(sparql, ctx.kg.profile.prefixes ?? {}, ctx.config.rowLimit);
  if (!guarded.ok) return { ok: false, problems: [guarded.reason] };
  const ast = parseReadOnly(guarded.value.sparql).ast as sparqljs.SelectQuery | sparqljs.AskQuery;
  const unlisted = unlistedIris(ast, input.iris, ctx.kg.profile.typePredicates);
  if (unlisted.length) {
    return {
      ok: false,
      problems: unlisted.map((i) => {
        const near = closest(i, input.iris);
        return `<${i}> is not among the listed IRIs.${near.length ? ` Did you mean ${near.map((n) => `<${n}>`).join(" or ")}?` : " Use only the IRIs listed."}`;
      }),
    };
  }
  const { problems } = await validateQuery(ast, {
    cards: NO_CARDS,
    known: input.iris,
    typePredicates: ctx.kg.profile.typePredicates,
    labelPredicates: ctx.kg.profile.labelPredicates,
    ask: async (query) => {
      try {
        const r = await ctx.sparql(stage, "query writer: validation", query);
        return r.kind === "ASK" ? r.boolean : undefined;
      } catch (e) {
        if (toAppError(e).code === "aborted" || ctx.signal?.aborted) throw e;
        return undefined;
      }
    },
  });
  if (problems.length) return { ok: false, problems };
  const terms = queryTerms(ast, ctx.kg.profile.typePredicates);
  return {
    ok: true,
    candidate: { sparql: withTieBreaks(ast) ?? guarded.value.sparql, kind: guarded.value.kind, predicates: terms.predicates, score: 1, wiring: "written", reversed: 0, modifiers: ["written from the linked vertices, predicates and classes"], written: true },
  };
}

/**
 * The written query, or undefined (declined, or θ attempts rejected: the derivation says which). `stage`: where it
 * shows — query generation for a composed question, query selection or execution when it rescues a question the
 * generated queries could not answer (query-planner.ts, query-execution.ts).
 */
export async function writeQuery(
  state: ChattyState,
  ctx: AgentContext,
  generated: CandidateQuery[],
  stage: WriterStage = "query-generation",
  failed?: { sparql: string; error: string },
): Promise<Omit<CandidateQuery, "id"> | undefined> {
  const input = await writerInput(state, ctx, generated, stage);
  // a written query that passed the checks but failed to run comes back once with the engine's error
  let feedback = failed ? repairFeedback(failed.sparql, [`Running it failed: ${failed.error}`]) : "";
  for (let attempt = 1; attempt <= ctx.config.theta; attempt++) {
    const { system, prompt } = renderWriterPrompt(state, input, feedback);
    let result: LlmCallResult<z.infer<typeof writerReplySchema>>;
    try {
      result = await ctx.llm.call({ role: "query-writer", system, prompt, schema: writerReplySchema, attempt, signal: ctx.signal });
    } catch (e) {
      // the model could not be reached: the question keeps what the generated queries give (a help, not a step to fail)
      const err = toAppError(e);
      if (err.code === "aborted" || ctx.signal?.aborted) throw e;
      ctx.emit({ type: "warning", stage, message: `The query writer could not be asked (${err.message}).` });
      return undefined;
    }
    if (!result.ok) {
      ctx.emit({ type: "llm-call", stage: stage, call: { ...result.record, validationError: result.reason } });
      feedback = `\n\nYour previous answer was rejected: ${result.reason}. Answer again with the JSON only.`;
      continue;
    }
    const sparql = result.value.sparql?.trim();
    if (!sparql) {
      ctx.emit({ type: "llm-call", stage: stage, call: result.record });
      ctx.emit({ type: "warning", stage: stage, message: "The query writer found the linked parts insufficient; the generated queries run instead." });
      return undefined;
    }
    const checked = await checkWritten(sparql, input, ctx, stage);
    if (checked.ok) {
      ctx.emit({ type: "llm-call", stage: stage, call: { ...result.record, parsed: checked.candidate.sparql } });
      return checked.candidate;
    }
    const reason = checked.problems.join(" ");
    ctx.llm.reject(result.record.id, reason);
    ctx.emit({ type: "llm-call", stage: stage, call: { ...result.record, validationError: reason } });
    feedback = repairFeedback(sparql, checked.problems);
  }
  ctx.emit({ type: "warning", stage: stage, message: `The written query was rejected ${ctx.config.theta} time(s); the generated queries run instead.` });
  return undefined;
}
