// One recorded LLM call, collapsed to a line (role, model, attempt, tokens, ms, validity); expands to prompt and output.
import type { LlmCallRecord } from "@/lib/llm/types";
import { Badge } from "@/components/ui/badge";

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  return JSON.stringify(content, null, 2);
}

export function LlmCallView({ call }: { call: LlmCallRecord }) {
  const ok = !call.error && !call.validationError;
  return (
    <details className="group rounded-md border bg-background text-xs" data-testid="llm-call">
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-1.5 px-2 py-1.5 outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <Badge variant="muted">LLM · {call.role}</Badge>
        <span className="text-muted-foreground">{call.model}</span>
        <span className="text-muted-foreground">attempt {call.attempt}</span>
        <span className="ml-auto tabular-nums text-muted-foreground">
          {call.tokensIn}→{call.tokensOut} tok · {Math.round(call.latencyMs)} ms
        </span>
        <Badge variant={ok ? "success" : "destructive"}>{call.error ? "error" : call.validationError ? "rejected" : "valid"}</Badge>
      </summary>
      <div className="flex flex-col gap-2 border-t px-2 py-2">
        {call.error && (
          <p className="text-destructive">
            {call.error.code}: {call.error.message}
          </p>
        )}
        {call.validationError && <p className="text-destructive">Validation: {call.validationError}</p>}
        <div>
          <p className="mb-1 font-medium">Prompt</p>
          {call.messages.map((m, i) => (
            <div key={i} className="mb-1">
              <span className="font-mono text-[10px] uppercase text-muted-foreground">{m.role}</span>
              <pre className="max-h-60 overflow-auto rounded bg-muted p-1.5 whitespace-pre-wrap">{messageText(m.content)}</pre>
            </div>
          ))}
        </div>
        <div>
          <p className="mb-1 font-medium">Raw output</p>
          <pre className="max-h-60 overflow-auto rounded bg-muted p-1.5 whitespace-pre-wrap" data-testid="llm-raw-output">
            {call.rawOutput}
          </pre>
        </div>
      </div>
    </details>
  );
}
