// RAGONITE's answer agent (§2.4): integrates the SQL results and passages into one answer that cites every item.
// The model only points at evidence; the answer's values are read back from the cited rows and facts, so they come
// from the KG. Evidence that does not answer the question gives "none", never a guess.
import { z } from "zod";
import type { Term } from "@/lib/kg/types";
import { renderPrompt } from "@/lib/prompts";
import type { Answer, AnswerItem, Citation } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { answerFromResult, labelItems } from "@/lib/pipeline/common/answer-from-result";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import { passageCitation, renderPassage, renderSql, rowCitation, sqlAsSelect, sqlCitation, type Evidence, type SqlEvidence } from "./evidence";
import { resourceKey } from "./kg-facts";
import type { RagoniteKnowledge } from "./knowledge";
import type { RagoniteState } from "./state";

export const answerReplySchema = z.object({
  answerable: z.boolean(),
  sql_result: z.string().nullish(),
  facts: z.array(z.object({ value: z.union([z.string(), z.number(), z.boolean()]).transform(String), passage: z.string() })).nullish(),
  yes_no: z.boolean().nullish(),
  citations: z.array(z.string()).nullish(),
  text: z.string(),
});
export type AnswerReply = z.infer<typeof answerReplySchema>;

/** What the evidence lets the answer point at. */
interface Pointer {
  kind: "sql" | "facts" | "boolean" | "none";
  sql?: SqlEvidence;
  facts?: { term: Term; passage: string }[];
  value?: boolean;
  citations: string[];
  text: string;
}

const MARKER = /\[((?:S\d+(?:\.\d+)?|P\d+)(?:\s*,\s*(?:S\d+(?:\.\d+)?|P\d+))*)\]/g;

function knownId(id: string, evidence: Evidence): boolean {
  const m = /^S(\d+)(?:\.(\d+))?$/.exec(id);
  if (m) {
    const e = evidence.sql[Number(m[1]) - 1];
    if (!e || e.error) return false;
    return m[2] === undefined || (Number(m[2]) >= 1 && Number(m[2]) <= (e.result?.rows.length ?? 0));
  }
  return evidence.passages.has(id);
}

/** The term a passage states whose name or value is `value` (entity label, IRI or literal, compared loosely). */
function termInPassage(value: string, passageId: string, evidence: Evidence, knowledge: RagoniteKnowledge): Term | undefined {
  const p = evidence.passages.get(passageId);
  if (!p) return undefined;
  const want = normalizeLabel(value);
  for (const t of p.facts) {
    for (const term of [t.s, t.o]) {
      const key = resourceKey(term);
      if (key && (normalizeLabel(knowledge.facts.label(key)) === want || key === value)) return term;
      if (term.type === "literal" && normalizeLabel(term.value) === want) return term;
    }
  }
  return undefined;
}

/** Checks the reply against the evidence; the reason goes back to the model on a retry. */
export function checkReply(reply: AnswerReply, evidence: Evidence, knowledge: RagoniteKnowledge): Validation<Pointer> {
  const citations = [...new Set(reply.citations ?? [])];
  const unknown = citations.filter((id) => !knownId(id, evidence));
  if (unknown.length) return { ok: false, reason: `citations ${unknown.join(", ")} are not in the evidence (or are failed queries)` };
  const markers = [...reply.text.matchAll(MARKER)].flatMap((m) => m[1].split(/\s*,\s*/));
  const badMarkers = markers.filter((id) => !knownId(id, evidence));
  if (badMarkers.length) return { ok: false, reason: `the text cites ${badMarkers.join(", ")}, which are not in the evidence` };
  const text = reply.text.trim();
  if (!reply.answerable) return { ok: true, value: { kind: "none", citations, text } };

  const given = [reply.sql_result ? "sql_result" : "", reply.facts?.length ? "facts" : "", typeof reply.yes_no === "boolean" ? "yes_no" : ""].filter(Boolean);
  if (given.length !== 1) return { ok: false, reason: `give exactly one of sql_result, facts or yes_no (got ${given.length ? given.join(", ") : "none"})` };
  const cited = [...new Set([...citations, ...markers])];
  if (cited.length === 0) return { ok: false, reason: "an answer must cite at least one result, row or passage" };

  if (reply.sql_result) {
    const m = /^S(\d+)$/.exec(reply.sql_result.trim());
    const e = m ? evidence.sql[Number(m[1]) - 1] : undefined;
    if (!e || e.error) return { ok: false, reason: `sql_result ${reply.sql_result} is not a successful SQL result` };
    if (!e.result?.rows.length) return { ok: false, reason: `${e.id} has no rows: if nothing answers the question, set answerable to false` };
    return { ok: true, value: { kind: "sql", sql: e, citations: [...new Set([e.id, ...cited])], text } };
  }
  if (reply.facts?.length) {
    const facts: { term: Term; passage: string }[] = [];
    for (const f of reply.facts) {
      const term = termInPassage(f.value, f.passage, evidence, knowledge);
      if (!term) return { ok: false, reason: `passage ${f.passage} does not state "${f.value}" (copy the value exactly as the passage writes it)` };
      facts.push({ term, passage: f.passage });
    }
    return { ok: true, value: { kind: "facts", facts, citations: [...new Set([...cited, ...facts.map((f) => f.passage)])], text } };
  }
  return { ok: true, value: { kind: "boolean", value: reply.yes_no === true, citations: cited, text } };
}

function renderEvidence(evidence: Evidence): string {
  const parts = [...evidence.sql.map((e) => renderSql(e)), ...[...evidence.passages.values()].map(renderPassage)];
  return parts.length ? parts.join("\n\n") : "(no evidence was found)";
}

function citationFor(id: string, evidence: Evidence, isResource: (key: string) => boolean): Citation | undefined {
  const m = /^S(\d+)(?:\.(\d+))?$/.exec(id);
  if (m) {
    const e = evidence.sql[Number(m[1]) - 1];
    if (!e?.result) return undefined;
    return m[2] ? rowCitation(e, Number(m[2]), isResource) : sqlCitation(e, isResource);
  }
  const p = evidence.passages.get(id);
  return p ? passageCitation(p) : undefined;
}

const sameTerm = (a: AnswerItem, cell: unknown) => typeof cell !== "object" && cell !== null && String(cell) === a.value;

/** The answer from what the reply points at, with every item citing its row or passage. */
async function buildAnswer(pointer: Pointer, evidence: Evidence, ctx: AgentContext, knowledge: RagoniteKnowledge): Promise<Answer> {
  const isResource = (key: string) => knowledge.facts.resources.has(key);
  const cites = new Map<string, Citation>();
  const add = (id: string) => {
    const c = cites.has(id) ? undefined : citationFor(id, evidence, isResource);
    if (c) cites.set(id, c);
  };
  pointer.citations.forEach(add);
  const withCitations = <A extends Answer>(a: A): A => (cites.size ? { ...a, citations: [...cites.values()] } : a);

  if (pointer.kind === "none") return withCitations({ kind: "none", reason: pointer.text || "The evidence from the KG does not answer the question." });
  if (pointer.kind === "boolean") return withCitations({ kind: "boolean", value: pointer.value === true });
  if (pointer.kind === "facts") {
    const items = await labelItems(pointer.facts!.map((f) => f.term), ctx, "answer");
    const seen = new Set<string>();
    const out: AnswerItem[] = [];
    items.forEach((item, i) => {
      const key = `${item.type}\u0000${item.value}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ ...item, cite: [pointer.facts![i].passage] });
    });
    return withCitations({ kind: "items", items: out });
  }
  const e = pointer.sql!;
  const r = e.result!;
  const { answer } = await answerFromResult(sqlAsSelect(r, isResource), ctx, { aggregate: r.aggregate, rowLimit: ctx.config.rowLimit, stage: "answer" });
  // each item cites the first row it comes from
  const rowOf = (item: AnswerItem): number => r.rows.findIndex((row) => row.some((cell) => sameTerm(item, cell))) + 1;
  const cite = (item: AnswerItem): AnswerItem => {
    const row = rowOf(item);
    if (row < 1) return { ...item, cite: [e.id] };
    add(`${e.id}.${row}`);
    return { ...item, cite: [`${e.id}.${row}`] };
  };
  if (answer.kind === "items") return withCitations({ ...answer, items: answer.items.map(cite) });
  if (answer.kind === "table") return withCitations({ ...answer, rows: answer.rows.map((row) => row.map((c) => (c ? cite(c) : c))) });
  return withCitations(answer);
}

/** The answer read from one SQL result (a query the user edited: no model chose it), every item citing its row. */
export function answerFromSqlEvidence(e: SqlEvidence, evidence: Evidence, ctx: AgentContext, knowledge: RagoniteKnowledge): Promise<Answer> {
  return buildAnswer({ kind: "sql", sql: e, citations: [e.id], text: "" }, evidence, ctx, knowledge);
}

export async function answerAgent(state: RagoniteState, ctx: AgentContext, knowledge: RagoniteKnowledge): Promise<Partial<RagoniteState>> {
  const evidence = state.evidence!;
  const question = state.standaloneQuestion ?? state.question;
  const result = await validatedCall(ctx, {
    stage: "answer",
    role: "answer",
    schema: answerReplySchema,
    prompt: (feedback) => {
      const rendered = renderPrompt("ragonite-answer", { language: state.language ?? "en", question, evidence: renderEvidence(evidence) });
      const [system, prompt] = rendered.split(/^---user---$/m);
      return { system: system.trim(), prompt: `${prompt.trim()}${feedback ? `\n\n${feedback}` : ""}` };
    },
    validate: (reply) => checkReply(reply, evidence, knowledge),
  });
  if (!result.ok) return { failure: { stage: "answer", code: "pipeline_failed", message: `The answer agent gave no usable answer: ${result.reason}` } };
  const answer = await buildAnswer(result.value, evidence, ctx, knowledge);
  return { answer, naturalAnswer: result.value.text || undefined };
}

/** No SQL row and no passage at all: nothing to integrate, so the answer is "none" without a model call. */
export function refuseWithoutEvidence(state: RagoniteState): Promise<Partial<RagoniteState>> | undefined {
  const e = state.evidence;
  const rows = e?.sql.some((q) => (q.result?.rows.length ?? 0) > 0) ?? false;
  if (rows || (e?.passages.size ?? 0) > 0) return undefined;
  return Promise.resolve({ answer: { kind: "none", reason: "Neither the SQL queries nor the fact search found anything in the KG for this question." } });
}
