// The D-agent's selection among numbered candidates, per slot, in one validated call: up to K options per slot, best
// first, or an empty list when none fits (then that slot has no filler and the attempt ends without a KG answer).
import { z } from "zod";
import type { AgentRole } from "@/lib/llm/types";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";

export interface SlotOptions<T> {
  slot: string;
  /** `label`: what a reply may name the option by; `text`: the option line (label plus hints), default the label */
  options: { n: number; label: string; text?: string; value: T }[];
}

export const slotChoiceSchema = z.object({
  choices: z.record(z.string(), z.union([z.array(z.union([z.number(), z.string()])), z.number(), z.string()])),
});
type SlotChoiceReply = z.infer<typeof slotChoiceSchema>;

/** Every slot answered with at most `k` distinct options (by number, or by an option's exact, unambiguous text). */
export function validateSlotChoices<T>(reply: SlotChoiceReply, pending: SlotOptions<T>[], k: number): Validation<Map<string, T[]>> {
  const out = new Map<string, T[]>();
  const problems: string[] = [];
  for (const p of pending) {
    const raw = reply.choices[p.slot] ?? reply.choices[`<${p.slot}>`];
    if (raw === undefined) {
      problems.push(`no choice for ${p.slot}`);
      continue;
    }
    const picks = Array.isArray(raw) ? raw : [raw];
    const chosen: { n: number; value: T }[] = [];
    for (const pick of picks) {
      const text = String(pick).trim();
      const byNumber = /^\d+$/.test(text) ? p.options.find((o) => o.n === Number(text)) : undefined;
      const byLabel = byNumber ? [] : p.options.filter((o) => normalizeLabel(o.label) === normalizeLabel(text));
      const option = byNumber ?? (byLabel.length === 1 ? byLabel[0] : undefined);
      if (!option) {
        problems.push(`for ${p.slot}: ${JSON.stringify(text.slice(0, 80))} is not one of its option numbers`);
        continue;
      }
      if (!chosen.some((c) => c.n === option.n)) chosen.push(option);
    }
    if (chosen.length > k) problems.push(`for ${p.slot}: choose at most ${k} options (got ${chosen.length})`);
    out.set(p.slot, chosen.map((c) => c.value));
  }
  return problems.length ? { ok: false, reason: problems.join("; ") } : { ok: true, value: out };
}

/** One LLM call choosing for every pending slot; `undefined` when the model gave no valid reply in θ attempts. */
export async function chooseForSlots<T>(
  ctx: AgentContext,
  spec: { stage: Stage; role: AgentRole; k: number; pending: SlotOptions<T>[]; prompt: (feedback: string | undefined) => { system: string; prompt: string } },
): Promise<{ ok: true; chosen: Map<string, T[]> } | { ok: false; reason: string }> {
  const result = await validatedCall(ctx, {
    stage: spec.stage,
    role: spec.role,
    schema: slotChoiceSchema,
    prompt: spec.prompt,
    validate: (reply) => validateSlotChoices(reply, spec.pending, spec.k),
  });
  return result.ok ? { ok: true, chosen: result.value } : { ok: false, reason: result.reason };
}

/** Option lines: "N. text". */
export function renderOptions<T>(p: SlotOptions<T>): string {
  return p.options.map((o) => `${o.n}. ${o.text ?? o.label}`).join("\n");
}
