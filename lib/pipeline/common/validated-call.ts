// The paper's assertion-based validation loop: call, validate, retry with the reason (≤ θ attempts), else fail clearly.
import type { z } from "zod";
import type { AgentRole } from "@/lib/llm/types";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "./agent-context";

export type Validation<V> = { ok: true; value: V } | { ok: false; reason: string };

export interface ValidatedCallSpec<T, V> {
  stage: Stage;
  role: AgentRole;
  schema: z.ZodType<T>;
  /** builds the prompt; `feedback` says what was wrong with the previous attempt */
  prompt: (feedback: string | undefined) => { system: string; prompt: string };
  /** the agent's own assertions on top of the JSON schema (paper §4.2.3, §5.1.2, §5.2.3) */
  validate: (value: T) => Validation<V>;
  /** feedback for the FIRST attempt (e.g. why an earlier draft from another agent was rejected) */
  initialFeedback?: string;
}

export type ValidatedCallResult<V> =
  | { ok: true; value: V; attempts: number }
  | { ok: false; reason: string; attempts: number };

export async function validatedCall<T, V>(ctx: AgentContext, spec: ValidatedCallSpec<T, V>): Promise<ValidatedCallResult<V>> {
  let feedback: string | undefined = spec.initialFeedback;
  let lastReason = "no attempt was made";
  for (let attempt = 1; attempt <= ctx.config.theta; attempt++) {
    const { system, prompt } = spec.prompt(feedback);
    const result = await ctx.llm.call({ role: spec.role, system, prompt, schema: spec.schema, attempt, signal: ctx.signal });
    let reason: string | undefined;
    if (!result.ok) {
      reason = result.reason;
    } else {
      const checked = spec.validate(result.value);
      if (checked.ok) {
        ctx.emit({ type: "llm-call", stage: spec.stage, call: result.record });
        return { ok: true, value: checked.value, attempts: attempt };
      }
      reason = checked.reason;
      ctx.llm.reject(result.record.id, reason);
    }
    ctx.emit({ type: "llm-call", stage: spec.stage, call: { ...result.record, validationError: reason } });
    lastReason = reason;
    feedback = `Your previous answer was rejected: ${reason}. Answer again, following the format exactly.`;
  }
  return { ok: false, reason: `rejected ${ctx.config.theta} time(s); last reason: ${lastReason}`, attempts: ctx.config.theta };
}
