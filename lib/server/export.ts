// Conversation export: a JSON document and a readable Markdown transcript (questions, answers, SPARQL).
import "server-only";
import type { AttemptDto, ConversationExport, ConversationSummaryDto, ConversationDto, ExportedAttempt, TurnDto } from "@/lib/api/contract";
import type { AttemptRecord, ConversationRecord, ConversationSummary, TurnRecord } from "@/lib/db/queries";
import { isModelKnowledge, itemText, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { describeCorrection } from "@/lib/pipeline/corrections";
import type { Answer, AnswerItem } from "@/lib/pipeline/types";

export function toAttemptDto(a: AttemptRecord): AttemptDto {
  return {
    attempt: a.attempt,
    change: a.change,
    status: a.status,
    answer: a.answer,
    naturalAnswer: a.naturalAnswer,
    source: a.source,
    standaloneQuestion: a.standaloneQuestion,
    error: a.error,
    trace: a.trace,
    stats: a.stats,
    config: a.config as Record<string, unknown>,
    sparql: a.sparql,
    feedback: a.feedback,
    createdAt: a.createdAt.toISOString(),
    finishedAt: a.finishedAt?.toISOString() ?? null,
  };
}

export function toTurnDto(t: TurnRecord): TurnDto {
  return { ...toAttemptDto(t), id: t.id, conversationId: t.conversationId, index: t.index, question: t.question, attempts: t.attempts.map(toAttemptDto) };
}

function exportedAttempt(a: AttemptRecord): ExportedAttempt {
  const { attempt, change, status, answer, source, naturalAnswer, standaloneQuestion, sparql, error } = a;
  // an answer from the model's own knowledge says so in the export too
  return { attempt, change, status, answer, source, ...(isModelKnowledge(source) ? { note: MODEL_KNOWLEDGE_NOTE } : {}), naturalAnswer, standaloneQuestion, sparql, error };
}

export function toSummaryDto(c: ConversationSummary): ConversationSummaryDto {
  return { ...c, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() };
}

export function toConversationDto(c: ConversationRecord): ConversationDto {
  return { id: c.id, title: c.title, kgId: c.kgId, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(), turns: c.turns.map(toTurnDto) };
}

export function toExport(c: ConversationRecord): ConversationExport {
  return {
    id: c.id,
    title: c.title,
    kgId: c.kgId,
    createdAt: c.createdAt.toISOString(),
    turns: c.turns.map((t) => ({ index: t.index, question: t.question, ...exportedAttempt(t), attempts: t.attempts.map(exportedAttempt) })),
  };
}

/** An item as Markdown: a labelled entity keeps its IRI beside the label. */
const itemMarkdown = (i: AnswerItem) => (i.type === "uri" && i.label ? `${i.label} (<${i.value}>)` : itemText(i));

/** A table cell: pipes escaped and line breaks flattened so a KG value cannot break the table. */
const tableCell = (text: string) => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

function answerMarkdown(answer: Answer): string {
  switch (answer.kind) {
    case "items":
      if (answer.items.length === 0) return "_(no items)_";
      return answer.items.map((i) => `- ${itemMarkdown(i)}`).join("\n");
    case "table":
      // every column and every row: the export is the full answer, unlike the chat's first rows
      return [
        `| ${answer.columns.map(tableCell).join(" | ")} |`,
        `|${answer.columns.map(() => "---").join("|")}|`,
        ...answer.rows.map((r) => `| ${r.map((c) => (c ? tableCell(itemMarkdown(c)) : "")).join(" | ")} |`),
      ].join("\n");
    case "count":
      return `Count: ${answer.count}`;
    case "boolean":
      return answer.value ? "Yes" : "No";
    case "none":
      return `_No answer in the knowledge graph: ${answer.reason}_`;
    case "chat":
    case "clarify":
      return answer.text;
  }
}

/** A code fence longer than any backtick run inside the text, so queries cannot break out of it. */
function fence(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

/** One attempt's outcome: its answer (or why it has none) and the queries behind it. */
function attemptMarkdown(lines: string[], question: string, t: AttemptRecord): void {
  if (t.standaloneQuestion && t.standaloneQuestion !== question) lines.push(`_Understood as:_ ${t.standaloneQuestion}`, "");
  if (t.status === "done" && t.answer) {
    lines.push(isModelKnowledge(t.source) ? `**Answer** _(${MODEL_KNOWLEDGE_NOTE})_` : "**Answer**", "", answerMarkdown(t.answer), "");
    if (t.naturalAnswer) lines.push(t.naturalAnswer, "");
  } else if (t.status === "running" || t.status === "pending") {
    lines.push("_Still running when exported._", "");
  } else {
    lines.push(`**${t.status === "interrupted" ? "Interrupted" : "Failed"}**: ${t.error?.message ?? "no details"}`, "");
  }
  for (const q of t.sparql) lines.push("**SPARQL**", "", fence(q, "sparql"), "");
}

const attemptTitle = (a: AttemptRecord) =>
  `Attempt ${a.attempt}${a.change ? ` (from attempt ${a.change.baseAttempt}: ${describeCorrection(a.change.correction)})` : ""}`;

export function toMarkdown(c: ConversationRecord): string {
  const lines: string[] = [`# ${c.title}`, "", `Knowledge graph: ${c.kgId} · started ${c.createdAt.toISOString()}`, ""];
  for (const t of c.turns) {
    lines.push(`## ${t.index + 1}. ${t.question.replace(/\s+/g, " ")}`, "");
    // a turn the user corrected: every attempt, the latest (the turn's answer) last
    for (const a of t.attempts) {
      lines.push(`### ${attemptTitle(a)}`, "");
      attemptMarkdown(lines, t.question, a);
    }
    if (t.attempts.length) lines.push(`### ${attemptTitle(t)} (latest)`, "");
    attemptMarkdown(lines, t.question, t);
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
