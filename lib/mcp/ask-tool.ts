// ask_kg: a question through a strategy as a chat turn (kept as a conversation of the caller's session), with progress
// notifications per finished step, and the derivation readable as an MCP resource.
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { describeAnswer, isModelKnowledge, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { STRATEGIES } from "@/lib/pipeline/registry";
import { STRATEGY_IDS, type DerivationEvent } from "@/lib/pipeline/types";
import type { McpContext } from "./context";
import { ASK_KG_OUTPUT } from "./output-schemas";
import { guarded, toolResult } from "./results";

export const DERIVATION_URI = (turnId: string) => `chatty-kg://turns/${encodeURIComponent(turnId)}/derivation`;

/** The steps of a derivation an agent can read: each stage's summary and every query with its row count or error. */
export type DerivationStep = { step: string; summary?: string; ms?: number; skipped?: boolean; query?: string; purpose?: string; rows?: number; error?: string };

export function derivationSteps(trace: DerivationEvent[]): DerivationStep[] {
  return trace.flatMap((e): DerivationStep[] => {
    if (e.type === "stage-end") return [{ step: e.stage, summary: e.summary, ms: Math.round(e.ms), ...(e.skipped ? { skipped: true } : {}) }];
    if (e.type === "sparql") return [{ step: e.stage, query: e.query, purpose: e.purpose, rows: e.rows, ...(e.error ? { error: e.error } : {}) }];
    return [];
  });
}

const strategyList = STRATEGIES.map((s) => `${s.id} (${s.label})`).join(", ");

export function registerAskTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "ask_kg",
    {
      title: "Ask a knowledge graph",
      description:
        "Answer a question in any language from a knowledge graph: the question is linked to the KG's entities and relations, turned into SPARQL, " +
        "checked and run. Returns the answer (or says the KG has none: never a guess), the SPARQL that produced it, and a link to the full derivation " +
        "(every step, LLM call and query). Takes seconds to minutes; progress is reported per step.",
      inputSchema: {
        question: z.string().trim().min(1).max(2000).describe("The question, as a person would ask it."),
        kg: z.string().min(1).max(200).describe("A KG id from list_kgs."),
        strategy: z.enum(STRATEGY_IDS).optional().describe(`How to answer (default: the KG's default strategy, as list_kgs shows it — its best real-model evaluation runs, else the documented default): ${strategyList}.`),
      },
      outputSchema: ASK_KG_OUTPUT,
    },
    ({ question, kg, strategy }, extra) =>
      guarded(async () => {
        await ctx.limiter.acquire(ctx.sessionId);
        const prepared = await ctx.runner.prepareTurn(ctx.sessionId, { question, kgId: kg, ...(strategy ? { config: { strategy } } : {}) });
        const token = extra._meta?.progressToken;
        let progress = 0;
        const onEvent = (e: DerivationEvent) => {
          if (token === undefined || (e.type !== "stage-end" && e.type !== "progress")) return;
          progress += 1;
          const message = e.type === "stage-end" ? `${e.stage}: ${e.summary}` : `${e.stage}: ${e.message}`;
          // a client that stopped listening must not fail the run
          void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, message: message.slice(0, 300) } }).catch(() => {});
        };
        const { turnId, status, result } = await ctx.runner.execute(prepared, onEvent, extra.signal);
        const page = `${ctx.appUrl?.replace(/\/+$/, "") ?? ""}/c/${prepared.start.conversationId}`;
        const link = { derivation: DERIVATION_URI(turnId), page };
        if (status !== "done") {
          const error = { code: result.error?.code ?? "pipeline_failed", message: result.error?.message ?? `The turn ended ${status}.`, ...(result.error?.stage ? { stage: result.error.stage } : {}) };
          // a failed call carries no structured content (it would have to fit the output schema of a success)
          return {
            isError: true,
            content: [
              { type: "text", text: `error [${error.code}]: ${error.message}\nDerivation: ${link.derivation} (in the app of this session: ${page})` },
              { type: "resource_link", uri: link.derivation, name: `Derivation of "${question.slice(0, 60)}"`, mimeType: "application/json" },
            ],
          };
        }
        const text = [
          `Answer: ${describeAnswer(result.answer, 20)}${isModelKnowledge(result.source) ? ` (${MODEL_KNOWLEDGE_NOTE})` : ""}`,
          ...(result.naturalAnswer ? [result.naturalAnswer] : []),
          ...(result.standaloneQuestion ? [`Understood as: ${result.standaloneQuestion}`] : []),
          ...result.sparql.map((q) => `SPARQL:\n${q}`),
          `Derivation: ${link.derivation} (MCP resource; in the app of this session: ${page})`,
        ].join("\n\n");
        const out = toolResult(text, { answer: result.answer, source: result.source, sparql: result.sparql, standaloneQuestion: result.standaloneQuestion ?? null, turnId, ...link });
        out.content.push({ type: "resource_link", uri: link.derivation, name: `Derivation of "${question.slice(0, 60)}"`, mimeType: "application/json" });
        return out;
      }),
  );

  server.registerResource(
    "derivation",
    new ResourceTemplate("chatty-kg://turns/{turnId}/derivation", { list: undefined }),
    { title: "Derivation of an answer", description: "Every step of an ask_kg answer: stage summaries and the SPARQL queries run, with row counts.", mimeType: "application/json" },
    async (uri, { turnId }) => {
      // another session's turn reads as not found (lib/mcp/protocol.ts answers -32002)
      const t = await ctx.queries.getTurn({ sessionId: ctx.sessionId, turnId: decodeURIComponent(String(turnId)) });
      const body = { question: t.question, status: t.status, answer: t.answer, source: t.source, standaloneQuestion: t.standaloneQuestion, sparql: t.sparql, error: t.error, stats: t.stats, steps: derivationSteps(t.trace) };
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(body, null, 2) }] };
    },
  );
}
