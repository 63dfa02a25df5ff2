// The Markdown summary of a run (summary.md): scores per mode, breakdowns, cost, failures and a per-question table.
import { compactIri } from "@/lib/kg/profile";
import { describeAnswer, NOT_FROM_KG } from "@/lib/pipeline/answer-format";
import { ORACLE_KIND_LABELS, oracleLabelOf } from "./oracle-grounding";
import type { ModeSummary, RunKgProfile, RunResult } from "./result-schema";
import { languageTableLines } from "./report-languages";
import { SCORING_LABELS } from "./scoring";

const pct = (x: number) => (x * 100).toFixed(1);
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").slice(0, 120);

function scoreTable(rows: [string, ModeSummary["macro"]][]): string[] {
  const out = [
    "| | n | P | R | F1 | QALD F1 | P@1 | MRR | Hit@5 |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const [label, m] of rows) {
    for (const [which, s] of [["all questions", m.all], ["answered only", m.answeredOnly]] as const) {
      out.push(`| ${cell(label)} (${which}) | ${s.n} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.f1)} | ${pct(s.qaldF1)} | ${pct(s.p1)} | ${pct(s.mrr)} | ${pct(s.hit5)} |`);
    }
  }
  return out;
}

/** The official TEXT2SPARQL averages (over all questions), when the run was scored that way. */
function officialLine(m: ModeSummary["macro"]["all"]): string[] {
  if (m.ndcg === undefined) return [];
  return [`Official averages: set_P ${pct(m.precision)} · set_recall ${pct(m.recall)} · set_F ${pct(m.f1)} · ndcg ${pct(m.ndcg)} · set_F_ndcg ${pct(m.f1Ndcg ?? 0)}`, ""];
}

/** How the run's F1 agrees with the system's published evaluation, question by question. */
function comparisonLines(r: RunResult): string[] {
  const c = r.comparison;
  if (!c) return [];
  const ours = r.summary.modes[0]?.macro.all.f1 ?? 0;
  const lines = [
    "## Against the published evaluation",
    "",
    `${c.file}: per-question F1 equal on **${c.equal}/${c.compared}**${c.officialAverage ? `; official average F1 ${pct(c.officialAverage.f1)}, ours ${pct(ours)}` : ""}.`,
    "",
  ];
  if (c.differing.length) {
    lines.push("| question | official P / R / F1 | ours P / R / F1 |", "|---|---|---|");
    const prf = (x: { precision: number; recall: number; f1: number; ndcg?: number }) =>
      `${x.precision.toFixed(3)} / ${x.recall.toFixed(3)} / ${x.f1.toFixed(3)}${x.ndcg !== undefined ? ` (ndcg ${x.ndcg.toFixed(3)})` : ""}`;
    for (const d of c.differing) lines.push(`| ${cell(d.id)} | ${prf(d.official)} | ${d.ours ? prf(d.ours) : "not scored"} |`);
    lines.push("");
  }
  return lines;
}

/** Answers from the model's own knowledge: never in the scores above (there they count as unanswered), shown apart. */
function modelKnowledgeLines(s: ModeSummary): string[] {
  if (!s.modelKnowledge) return [];
  return [
    `### Answers from the model's own knowledge (${NOT_FROM_KG}, scored separately)`,
    "",
    `${s.modelKnowledge.questions} question(s) answered by the model alone; they count as unanswered in every score above.`,
    "",
    ...scoreTable([["model knowledge", s.modelKnowledge.macro]]),
    "",
  ];
}

/** An oracle run's counts: how often it reproduced the gold query, what it could not ground. */
export function oracleCountsLine(o: NonNullable<ModeSummary["oracle"]>): string {
  return `${ORACLE_KIND_LABELS[o.kind]}: final queries equal to the gold query (normalised) ${o.equalToGold}/${o.questions} · constants dropped as ungrounded ${o.dropped} (in ${o.questionsWithDropped} questions) · normalisations used ${o.normalisations}${o.datasetTexts.length ? ` · dataset texts used: ${o.datasetTexts.join("; ")}` : ""}`;
}

function modeSection(s: ModeSummary, r: RunResult): string[] {
  const c = s.cost;
  const lines = [
    `## Mode: ${s.mode}`,
    "",
    `${s.questions} questions, ${s.scored} scored, ${s.answered} answered from the KG.`,
    "",
    ...(s.oracle ? [`**${oracleCountsLine(s.oracle)}**`, ""] : []),
    ...scoreTable([["overall", s.macro]]),
    "",
    ...modelKnowledgeLines(s),
    ...officialLine(s.macro.all),
    "### By question type",
    "",
    ...scoreTable(Object.entries(s.byType)),
    "",
  ];
  if (Object.keys(s.byFeature).length > 0) lines.push("### By feature", "", ...scoreTable(Object.entries(s.byFeature)), "");
  if (s.byLanguage) lines.push("### By language", "", ...languageTableLines(s, r.comparison?.languageAverages), "");
  lines.push(
    "### Cost (mean per question)",
    "",
    "| latency | understanding | linking | execution & filtering | answer | LLM calls | tokens in | tokens out | SPARQL queries | total cost |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    `| ${(c.meanMs / 1000).toFixed(2)} s | ${(c.meanStageGroupMs.understanding / 1000).toFixed(2)} s | ${(c.meanStageGroupMs.linking / 1000).toFixed(2)} s | ${(c.meanStageGroupMs.execution / 1000).toFixed(2)} s | ${((c.meanStageGroupMs.answer ?? 0) / 1000).toFixed(2)} s | ${c.meanLlmCalls.toFixed(1)} | ${Math.round(c.meanTokensIn)} | ${Math.round(c.meanTokensOut)} | ${c.meanQueries.toFixed(1)} | ${c.cost === null ? "—" : c.cost.toFixed(4)} |`,
    "",
    "### Failures",
    "",
  );
  const failures = Object.entries(s.failures);
  lines.push(failures.length === 0 ? "None." : failures.map(([k, n]) => `- ${k}: ${n}`).join("\n"), "");
  return lines;
}

/** "KG profile" header lines: the flags as typed, then what the KG used. */
function profileLines(k: RunKgProfile): string[] {
  const flags = Object.entries(k.flags)
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => `--${name} ${v}`)
    .join(" ");
  const e = k.effective;
  const list = (iris: string[]) => (iris.length ? iris.map((i) => compactIri(i, e.prefixes)).join(", ") : "(none)");
  return [
    `- KG profile flags: ${flags ? `\`${flags}\`` : "none (defaults, or the endpoint URL's preset)"}`,
    `- KG profile used: label search ${e.labelSearch}${e.entitySearchUrl ? ` (${e.entitySearchUrl})` : ""} · language ${e.language} · labels ${list(e.labelPredicates)} · types ${list(e.typePredicates)}`,
  ];
}

/** What loading the dataset did: unreadable records left out, gold queries given well-known prefixes, the language asked. */
function loadLines(load: RunResult["config"]["load"]): string[] {
  if (!load) return [];
  const skipped = load.skipped.length ? `${load.skipped.length} unreadable record(s) not run (${load.skipped.slice(0, 5).map((s) => `${cell(s.id)}: ${cell(s.reason)}`).join("; ")}${load.skipped.length > 5 ? "; …" : ""})` : "every record read";
  const lang = load.questionLang ? `; questions asked in ${load.questionLang === "all" ? `every language (${(load.languages ?? []).join(", ")})` : load.questionLang}, ids <id>-<lang>` : "";
  return [`- dataset load: ${skipped}; well-known prefixes declared in ${load.goldPrefixesDeclared} gold queries${lang}`];
}

/** The solved examples the strategies saw: a pool run must not read like an empty-pool run. */
export function experienceLines(e: RunResult["config"]["experience"]): string[] {
  const parts = [
    ...(e?.imported ? [`the imported pool ${e.imported.pool} (${e.imported.entries} entries${e.imported.excludeTestSplit ? ", this run's items and the test split left out" : ", each question's own pair left out"})`] : []),
    ...(e?.generated ? [`a generated pool (${e.generated.examples} examples from onboarding the KG in ${(e.generated.ms / 1000).toFixed(1)} s, ${e.generated.status}${e.generated.notes ? ", with KG notes" : ""})`] : []),
  ];
  return [`- experience: ${parts.length ? parts.join(" and ") : "none (no solved examples shown)"}`];
}

export function renderMarkdown(r: RunResult): string {
  const lines = [
    `# Benchmark run ${r.runId}`,
    "",
    `- dataset: ${r.config.dataset} (${r.config.file})`,
    `- KG: ${r.kg.name} (${r.kg.kind})`,
    ...(r.config.kgProfile ? profileLines(r.config.kgProfile) : []),
    `- strategy: ${r.strategy.label} (${r.strategy.id}); LLM: ${r.llm.provider} / ${r.llm.model}`,
    ...(oracleLabelOf(r.llm) ? [`- **${oracleLabelOf(r.llm)}**: every score below is this oracle's, not a model's`] : []),
    ...(r.config.queries ? [`- replay: the ${r.config.queries.count} queries of ${r.config.queries.file}, run as given instead of a strategy`] : []),
    `- scoring: ${SCORING_LABELS[r.config.scoring ?? "items"]}${r.config.scoring === "text2sparql" ? `; values compared ${r.config.valueComparison ?? "exact"}` : ""}`,
    `- KG calls cut by a timeout or the turn's KG budget: ${r.questions.some((q) => q.kgCuts?.length) ? `in ${r.questions.filter((q) => q.kgCuts?.length).map((q) => q.id).join(", ")}` : "none"}`,
    `- row limit of generated queries: ${r.config.pipeline.rowLimit}${r.questions.some((q) => q.rowLimit) ? ` (**reached** by ${r.questions.filter((q) => q.rowLimit).map((q) => q.id).join(", ")}: those answers may be cut)` : " (never reached)"}`,
    `- modes: ${r.config.modes.join(", ")}; concurrency ${r.config.concurrency}; gold: ${r.config.goldSource}`,
    ...loadLines(r.config.load),
    ...experienceLines(r.config.experience),
    `- ${r.startedAt} → ${r.finishedAt}${r.complete ? "" : " (**incomplete**: resume with --resume)"}`,
    "",
    "Scores in %. \"all questions\" counts unanswered questions as 0; \"answered only\" averages over questions with an answer",
    "(how the Chatty-KG reference scripts report dialogue P/R/F1). F1 is the mean of per-question F1; QALD F1 is the harmonic",
    "mean of macro P and R.",
    "",
  ];
  if (r.summary.retention !== null) lines.push(`**Retention** (dialogue F1 / standalone F1): ${pct(r.summary.retention)}%`, "");
  for (const s of r.summary.modes) lines.push(...modeSection(s, r));
  lines.push(...comparisonLines(r));
  lines.push("## Questions", "", "| key | question | F1 | answer | failure | s |", "|---|---|---:|---|---|---:|");
  for (const q of r.questions) {
    const answer = q.answer ? describeAnswer(q.answer, 3) : (q.trace.error?.message ?? "—");
    lines.push(
      `| ${cell(q.key)} | ${cell(q.question)} | ${q.metrics ? pct(q.metrics.f1) : "n/a"} | ${q.source === "llm" ? `(${NOT_FROM_KG}) ` : ""}${cell(answer)} | ${q.failure ?? (q.goldError ? cell(q.goldError) : "")}${q.rowLimit ? " (row limit reached)" : ""} | ${(q.trace.ms / 1000).toFixed(2)} |`,
    );
  }
  return lines.join("\n") + "\n";
}
