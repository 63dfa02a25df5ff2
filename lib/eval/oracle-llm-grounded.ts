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
import { createOracleResponder, goldPlanOf, oracleQir, withOracleLog, type OracleGateway, type OracleQir } from "./oracle-llm";
import { needsComposition, oracleWrittenQuery } from "./oracle-query-writer";
import { validateQirJson } from "@/lib/pipeline/chatty-kg/agents/qir-validator";
import type { BenchmarkItem } from "./types";

/** What results record for a question-grounded oracle run: never a model, labelled with its kind. */
export const GROUNDED_ORACLE_LLM_INFO = { provider: "oracle", model: `question-grounded — ${ORACLE_KIND_LABELS["question-grounded"]}` } as const;

export async function createGroundedOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, signal?: AbortSignal): Promise<OracleGateway> {
  const plan = goldPlanOf(item);
  const facts = await fetchOracleFacts(kg, plan, signal);
  // the KG's own names of the gold's entities (a name literal, an id): the question may name them so
  facts.names = await fetchLexiconNames(kg, plan.entityIris, signal);
  const log = createOracleLog("question-grounded");
  const texts = dialogueTexts(item, log);
  const question = { text: texts.groundOn, language: texts.groundLanguage };
  const grounding = groundQir(oracleQir(plan, facts), plan, facts, question, log);
  // what the QIR's fields cannot say: the QIR asks for the query writer, which the oracle plays from the gold query
  const gold = item.goldSparql as string;
  // (or a QIR the question's words cannot make valid: a model whose fields cannot say it asks for the writer too)
  if (needsComposition(gold) || !validateQirJson(grounding.qir).ok) grounding.qir = composableQir(grounding.qir);
  const writer = (prompt: string) => oracleWrittenQuery(prompt, gold, question, log);
  return withOracleLog(createScriptedLlm({}, { fallback: createOracleResponder(item, facts, plan, { grounding, log, writer }) }).gateway, log);
}

const CONSTRAINTS = ["filters", "order_by", "aggregates", "group_by", "columns", "limit", "offset", "exclude", "among"] as const;

/**
 * The grounded QIR marked "compose". The writer reads the question for the constraints, so those the Triples
 * validator refuses (a filter on a variable of a dropped triple, a comparison with an aggregate) are left out, as the
 * prompt allows; a target no triple binds becomes the first variable of the triples.
 */
export function composableQir(qir: OracleQir): OracleQir {
  const marked: OracleQir = { ...qir, compose: true };
  if (validateQirJson(marked).ok) return marked;
  const bare = Object.fromEntries(Object.entries(marked).filter(([k]) => !(CONSTRAINTS as readonly string[]).includes(k))) as unknown as OracleQir;
  if (validateQirJson(bare).ok) return bare;
  const vars = [...new Set(bare.triples.flatMap((t) => [t[0], t[2]]).filter((x) => x.startsWith("?")))];
  if (bare.question_type !== "boolean" && vars.length && !vars.includes(bare.target ?? "")) return { ...bare, target: vars[0] };
  return bare;
}
