// The explorer's stages as functions of state: prepare and plan (schema summary, examples, the plan call), explore
// (the tool loop), answer (the final query's rows as an Answer). Each returns what it changes.
import { AppError } from "@/lib/errors";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { answerFromResult, projectsAggregate } from "@/lib/pipeline/common/answer-from-result";
import { buildDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import type { ExperienceSource, KgNotesSource } from "@/lib/pipeline/types";
import { kgNotesBlock, readKgNotes } from "@/lib/pipeline/common/kg-notes";
import type sparqljs from "sparqljs";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { createExploration, type Exploration } from "./explore-loop";
import { examplesBlock, retrieveExamples } from "@/lib/pipeline/common/experience";
import { getEntityIndex, type EntityIndexCache } from "./entity-index";
import { getKgShape, type ShapeCache } from "./kg-shape";
import { irisOfQuery } from "./final-check";
import { irisInText, KnownIris } from "./known-iris";
import type { ExplorerState } from "./state";
import { EXPLORE_STAGE, type ToolEnv } from "./tool-env";

export interface ExplorerCaches {
  shapes: ShapeCache;
  entityIndexes: EntityIndexCache;
}

/** Builds (or takes from the cache) the schema summary, finds examples, writes the prompts and runs the plan call. */
export async function preparePlan(
  s: ExplorerState,
  ctx: AgentContext,
  caches: ExplorerCaches,
  experience: ExperienceSource | undefined,
  kgNotes?: KgNotesSource,
): Promise<{ patch: Partial<ExplorerState>; exploration: Exploration }> {
  const { shape, cached } = await getKgShape(caches.shapes, ctx, "plan");
  const question = s.standaloneQuestion ?? s.question;
  const examples = await retrieveExamples(experience, ctx, question);
  const notes = await readKgNotes(kgNotes, ctx, "plan");
  const context = buildDialogueContext(s.dialogue, { answerLimit: ctx.config.answerLimit, mode: ctx.config.mode });
  const known = new KnownIris();
  known.add(shape.iris);
  // IRIs the user was shown in earlier answers, and those of the examples, are known too
  known.add(irisInText(context));
  for (const e of examples) known.add(irisOfExample(e.sparql));
  // a large KG's entity index takes seconds: it is built while the model writes the plan (a failure shows at the first
  // search, which then tries again)
  const indexing = getEntityIndex(caches.entityIndexes, ctx, "plan", shape.labelLike).catch(() => undefined);
  const entityIndex = () => getEntityIndex(caches.entityIndexes, ctx, EXPLORE_STAGE, shape.labelLike);
  const env: ToolEnv = {
    ctx,
    shape,
    known,
    seenInResults: new Set(),
    asked: [...new Set([question, s.question])],
    questionConstants: new Set(),
    declaredPrefixes: new Set([...shape.text.matchAll(/^PREFIX ([A-Za-z][\w.-]*)?:/gm)].map((m) => m[1] ?? "")),
    entityIndex,
  };
  const { system, prompt } = renderPromptPair("explorer", {
    kgName: ctx.kg.info.name,
    maxSteps: ctx.config.explorerMaxSteps,
    schema: shape.text,
    notes: kgNotesBlock(notes),
    examples: examplesBlock(examples),
    context: context ? `Conversation so far (earlier questions Q and the answers A the user was shown):\n${context}\n\n` : "",
    question,
    asked: question.trim() !== s.question.trim() ? `\n(The user wrote${s.language && s.language !== "en" && s.language !== "und" ? ` in ${s.language}` : ""}: ${s.question.trim()})` : "",
  });
  const exploration = createExploration({ system, prompt, maxSteps: ctx.config.explorerMaxSteps, maxTokens: ctx.config.explorerMaxTokens }, env);
  const [plan] = await Promise.all([exploration.plan(), indexing]);
  return { patch: { plan, examples, schema: { tokens: shape.tokens, cached, classes: shape.classes.length } }, exploration };
}

function irisOfExample(sparql: string): string[] {
  try {
    return irisOfQuery(parseReadOnly(sparql).ast);
  } catch {
    return [];
  }
}

/** Runs the tool loop; a budget that runs out, or a model that stops without an end, fails the stage clearly. */
export async function exploreStage(exploration: Exploration): Promise<Partial<ExplorerState>> {
  const result = await exploration.run();
  if (result.stop) return { exploration: result, failure: { stage: "explore", code: "pipeline_failed", message: result.stop.message } };
  return { exploration: result };
}

/** The final query's rows as the answer (labelled); "cannot answer" becomes a "none" answer with the model's reason. */
export async function answerStage(s: ExplorerState, ctx: AgentContext): Promise<Partial<ExplorerState>> {
  const outcome = s.exploration?.outcome;
  if (!outcome) throw new AppError("internal", "The exploration ended without an outcome.");
  if (outcome.kind === "cannot") return { answer: { kind: "none", reason: `The KG cannot answer this: ${outcome.reason}` } };
  const started = ctx.now();
  const { ast } = parseReadOnly(outcome.sparql);
  const aggregate = ast.type === "query" && ast.queryType === "SELECT" ? projectsAggregate(ast as sparqljs.SelectQuery) : false;
  const { answer, rows } = await answerFromResult(outcome.result, ctx, { aggregate, rowLimit: outcome.capped ? ctx.config.rowLimit : undefined, stage: "execution" });
  const final = answer.kind === "none" ? { kind: "none" as const, reason: "The final query found nothing: the KG holds no answer to this question." } : answer;
  return { answer: final, sparql: outcome.sparql, executed: [{ id: 1, sparql: outcome.sparql, rows, ms: ctx.now() - started }] };
}
