// RAGONITE's iterative retrieval (§2.3): a tool-calling agent with `sql` (over the induced database; it sees the
// schema) and `search_facts` (over verbalized facts), at most `ragoniteRounds` rounds; every result, empty result
// and error goes back to it. When it never searched, one search with the question runs for it (both branches).
import { generateText, isStepCount, tool, type ModelMessage } from "ai";
import { z } from "zod";
import { toAppError } from "@/lib/errors";
import { mapProviderError } from "@/lib/llm/errors";
import { createRecordId, retryRunnerOf, ROLE_HEADER } from "@/lib/llm/gateway";
import type { LlmCallRecord } from "@/lib/llm/types";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { buildDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import { emptyEvidence, renderPassage, renderSql, type Evidence, type SqlEvidence } from "./evidence";
import type { RagoniteKnowledge } from "./knowledge";
import type { RagoniteState } from "./state";

export const SQL_TOOL = "sql";
export const SEARCH_TOOL = "search_facts";
/** passages a search returns */
export const SEARCH_K = 8;
const CALL_TIMEOUT_MS = 60_000;

const sqlInput = z.object({ query: z.string().describe("One DuckDB SELECT query over the tables of the schema.") });
const searchInput = z.object({ query: z.string().describe("What to look for in the passages: names, keywords or a short question.") });

export async function retrievalAgent(state: RagoniteState, ctx: AgentContext, knowledge: RagoniteKnowledge): Promise<Partial<RagoniteState>> {
  const question = state.standaloneQuestion ?? state.question;
  const rounds = ctx.config.ragoniteRounds;
  const context = state.standaloneQuestion ? "" : buildDialogueContext(state.dialogue, { answerLimit: ctx.config.answerLimit, mode: ctx.config.mode });
  const { system, prompt } = renderPromptPair("ragonite-retrieval", {
    rounds,
    schema: knowledge.ddl,
    context: context ? `Conversation so far (earlier questions Q and answers A):\n${context}\n\n` : "",
    question,
  });
  const evidence: Evidence = emptyEvidence();
  const messages: ModelMessage[] = [{ role: "user", content: prompt }];
  const resolved = ctx.llm.resolve("retrieval");
  const withRetry = retryRunnerOf(ctx.llm);
  let round = 0;

  const runSql = async (query: string): Promise<string> => {
    const e: SqlEvidence = { id: `S${evidence.sql.length + 1}`, round, sql: query.trim() };
    evidence.sql.push(e);
    try {
      e.result = await knowledge.db.query(query, { timeoutMs: ctx.config.queryTimeoutMs, maxRows: ctx.config.rowLimit, signal: ctx.signal });
      e.sql = e.sql.replace(/[\s;]+$/, "");
      ctx.emit({ type: "tool-call", stage: "retrieval", tool: SQL_TOOL, input: { round, id: e.id, sql: e.sql }, output: { rows: e.result.rows.length, truncated: e.result.truncated, columns: e.result.columns, ms: Math.round(e.result.ms), preview: e.result.rows.slice(0, 5) } });
    } catch (err) {
      const appErr = toAppError(err);
      if (appErr.code === "aborted") throw appErr;
      e.error = appErr.message;
      ctx.emit({ type: "tool-call", stage: "retrieval", tool: SQL_TOOL, input: { round, id: e.id, sql: e.sql }, error: appErr.message });
    }
    return renderSql(e);
  };

  const runSearch = async (query: string, automatic = false): Promise<string> => {
    const hits = await knowledge.passages.search(query, SEARCH_K, ctx.signal);
    for (const h of hits) evidence.passages.set(h.passage.id, h.passage);
    evidence.searches.push({ round, query, hits: hits.map((h) => h.passage.id), ...(automatic ? { automatic } : {}) });
    ctx.emit({
      type: "tool-call",
      stage: "retrieval",
      tool: SEARCH_TOOL,
      input: { round, query, ...(automatic ? { automatic } : {}) },
      output: { mode: knowledge.passages.mode, hits: hits.map((h) => ({ id: h.passage.id, subject: h.passage.subject, label: h.passage.label, score: Number(h.score.toFixed(4)), text: h.passage.text.slice(0, 300) })) },
    });
    return hits.length ? hits.map((h) => renderPassage(h.passage)).join("\n") : "(no passage matches)";
  };

  const tools = {
    [SQL_TOOL]: tool({ description: "Run one read-only SELECT query on the induced database; returns rows or the error.", inputSchema: sqlInput, execute: ({ query }) => runSql(query) }),
    [SEARCH_TOOL]: tool({ description: "Full-text search over passages of the KG's facts; returns the best matches.", inputSchema: searchInput, execute: ({ query }) => runSearch(query) }),
  };

  for (round = 1; round <= rounds; round++) {
    const record: LlmCallRecord = {
      id: createRecordId(),
      role: "retrieval",
      provider: resolved.provider,
      model: resolved.modelId,
      messages: [{ role: "system", content: system }, ...messages],
      rawOutput: "",
      attempt: round,
      startedAt: ctx.now(),
      latencyMs: 0,
      tokensIn: 0,
      tokensOut: 0,
    };
    let reported = false;
    const report = (patch: Partial<LlmCallRecord>) => {
      if (reported) return;
      reported = true;
      Object.assign(record, patch, { latencyMs: ctx.now() - record.startedAt });
      ctx.llm.record(record);
      ctx.emit({ type: "llm-call", stage: "retrieval", call: record });
    };
    const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    const result = await withRetry(
      () =>
        generateText({
          model: resolved.model,
          system,
          messages: [...messages],
          tools,
          temperature: 0,
          maxRetries: 0,
          abortSignal: signal,
          headers: { [ROLE_HEADER]: "retrieval" },
          // one model step per round: its tool calls run, then the next round sees their results
          stopWhen: isStepCount(1),
          onLanguageModelCallEnd: (event) => {
            const text = event.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
            const calls = event.content.flatMap((p) => (p.type === "tool-call" ? [{ toolCall: { name: p.toolName, input: p.input } }] : []));
            report({ rawOutput: calls.length ? JSON.stringify(calls) : text, tokensIn: event.usage.inputTokens ?? 0, tokensOut: event.usage.outputTokens ?? 0 });
          },
        }),
      {
        signal,
        timeoutMs: CALL_TIMEOUT_MS,
        mapError: (e) => mapProviderError(e, { timedOut: timeout.aborted, aborted: ctx.signal?.aborted === true && !timeout.aborted }),
        onFailure: (err) => report({ error: { code: err.code, message: err.message } }),
      },
    );
    report({ rawOutput: result.text });
    messages.push(...result.response.messages);
    if (result.toolCalls.length === 0) break;
  }
  const used = Math.min(round, rounds);
  // RAGONITE uses both branches: a search the agent did not make runs with the question itself
  if (evidence.searches.length === 0) {
    round = used;
    await runSearch(question, true);
  }
  return { rounds: used, evidence };
}
