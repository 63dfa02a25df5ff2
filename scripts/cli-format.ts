// One line per derivation event for the CLI's --verbose mode.
import type { DerivationEvent } from "@/lib/pipeline/types";

export function formatEvent(e: DerivationEvent): string {
  switch (e.type) {
    case "stage-start":
      return `▶ ${e.stage}`;
    case "stage-end":
      return `${e.skipped ? "·" : "✓"} ${e.stage}${e.skipped ? "" : ` (${e.ms.toFixed(0)} ms)`}: ${e.summary}`;
    case "llm-call":
      return `  llm ${e.call.role} #${e.call.attempt} ${e.call.latencyMs.toFixed(0)} ms ${e.call.tokensIn}/${e.call.tokensOut} tok${e.call.validationError ? ` ✗ ${e.call.validationError}` : ""}${e.call.error ? ` ✗ ${e.call.error.message}` : ""}`;
    case "tool-call":
      return `  tool ${e.tool} ${JSON.stringify(e.input).slice(0, 160)}${e.error ? ` ✗ ${e.error}` : ""}`;
    case "sparql":
      return `  sparql [${e.purpose}] ${e.rows} rows ${e.ms.toFixed(0)} ms${e.error ? ` ✗ ${e.error}` : ""}`;
    case "warning":
      return `  ⚠ ${e.message}`;
    case "progress":
      return `  … ${e.message}`;
  }
}
