// What every chat page needs on the server: the session's conversations, the key-free LLM status and the default KG.
import "server-only";
import { connection } from "next/server";
import type { ConversationSummaryDto } from "@/lib/api/contract";
import { getQueries } from "@/lib/db/queries";
import { llmStatusFromEnv, type LlmStatus } from "@/lib/llm/config";
import { STRATEGIES } from "@/lib/pipeline/registry";
import type { StrategyId } from "@/lib/pipeline/types";
import type { StrategyInfo } from "@/components/config/strategy-info";
import { toSummaryDto } from "@/lib/server/export";
import { readSessionId } from "@/lib/server/session";
import { defaultStrategiesFor } from "@/lib/server/default-strategy";
import { getEvalRunStore } from "@/lib/server/eval-runs";
import { SAMPLE_KG_ID } from "@/lib/server/kg-registry";
import { describeDefaultKg } from "../default-kg";

export interface PageData {
  sessionId: string | null;
  conversations: ConversationSummaryDto[];
  llm: LlmStatus;
  defaultKgLabel: string;
  /** what the config strip shows for each strategy (plain data: the strategies themselves stay on the server) */
  strategies: StrategyInfo[];
  /** the server's default strategy and why it is the default (the Advanced sheet says so); absent: none chosen */
  defaultStrategy?: { id: StrategyId; reason: string };
}

export async function loadPageData(): Promise<PageData> {
  await connection(); // env vars and the session cookie are read per request, not at build time
  const sessionId = await readSessionId();
  // a browser without a session cookie has no conversations yet (the first question sets the cookie)
  const conversations = sessionId ? (await getQueries().listConversations({ sessionId })).map(toSummaryDto) : [];
  return {
    sessionId,
    conversations,
    llm: llmStatusFromEnv(),
    defaultKgLabel: describeDefaultKg(process.env.KG_DEFAULT).label,
    strategies: STRATEGIES.map((s) => ({ id: s.id, label: s.label, description: s.description, corrections: s.rerun?.kinds ?? [] })),
    defaultStrategy: defaultKgStrategy(),
  };
}

/** The default KG's default strategy and why (lib/server/default-strategy.ts: its real-model eval runs, else the documented one). */
function defaultKgStrategy(): PageData["defaultStrategy"] {
  const [kg] = defaultStrategiesFor([{ id: SAMPLE_KG_ID, kind: "sample" }], SAMPLE_KG_ID, getEvalRunStore());
  return { id: kg.defaultStrategy.strategy, reason: kg.defaultStrategy.reason };
}
