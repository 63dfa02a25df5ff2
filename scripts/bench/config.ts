// The pipeline config the bench's own contexts use (tool latency, grounding recall, schema cards): a benchmark asks
// hundreds of questions through one context, so it gets a budget of its own instead of one turn's 500 KG queries and
// 120 s (docs/strategies.md). Whole turns (the pipeline part) keep DEFAULT_CONFIG: each turn has its own budget there.
import { DEFAULT_CONFIG, type PipelineConfig } from "@/lib/pipeline/types";

export const BENCH_CONFIG: PipelineConfig = { ...DEFAULT_CONFIG, kgQueryBudget: 100_000, kgTimeBudgetMs: 3_600_000 };
