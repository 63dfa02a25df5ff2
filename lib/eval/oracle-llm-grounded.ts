// `--llm oracle` (question-grounded, the default) for Chatty-KG: the gold-shape responder's role logic with the QIR
// written from the asked question (oracle-grounded-qir.ts); choices among the options the pipeline showed stay the
// gold's. Constants of the final query are the pipeline's own (linked IRIs) or the grounded QIR's values.
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { dialogueTexts } from "./oracle-dialogue-texts";
import { groundQir } from "./oracle-grounded-qir";
import { createOracleLog, ORACLE_KIND_LABELS } from "./oracle-grounding";
import { fetchOracleFacts } from "./oracle-llm-facts";
import { fetchLexiconNames } from "./oracle-llm-names";
import { createOracleResponder, goldPlanOf, oracleQir, withOracleLog, type OracleGateway } from "./oracle-llm";
import type { BenchmarkItem } from "./types";

/** What results record for a question-grounded oracle run: never a model, labelled with its kind. */
export const GROUNDED_ORACLE_LLM_INFO = { provider: "oracle", model: `question-grounded — ${ORACLE_KIND_LABELS["question-grounded"]}` } as const;

export async function createGroundedOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, signal?: AbortSignal): Promise<OracleGateway> {
  const plan = goldPlanOf(item);
  const facts = await fetchOracleFacts(kg, plan, signal);
  // the KG's own names of the gold's entities (a name literal, an id): the question may name them so
  facts.names = await fetchLexiconNames(kg, plan.entityIris, signal);
  const log = createOracleLog("question-grounded");
  const texts = dialogueTexts(item);
  const grounding = groundQir(oracleQir(plan, facts), plan, facts, { text: texts.groundOn, language: texts.language }, log);
  return withOracleLog(createScriptedLlm({}, { fallback: createOracleResponder(item, facts, plan, { grounding, log }) }).gateway, log);
}
