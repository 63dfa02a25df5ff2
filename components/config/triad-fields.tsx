// Triad's parameters in the config strip (paper §4.4: N examples, K entity and K relation candidates, T retries) and
// the switch that lets its A-agent answer from the model's own knowledge (off by default; such answers are labelled).
"use client";
import type { PipelineConfig } from "@/lib/pipeline/types";
import { NOT_FROM_KG } from "@/lib/pipeline/answer-format";
import { Switch } from "@/components/ui/switch";
import { NumberField } from "./number-field";

type TriadConfig = Pick<PipelineConfig, "triadExamples" | "triadEntityCandidates" | "triadRelationCandidates" | "triadRetries" | "allowModelKnowledge">;

export function TriadFields({ config, onChange }: { config: TriadConfig; onChange: (patch: Partial<TriadConfig>) => void }) {
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="triad-fields">
      <NumberField label="N" title="N: few-shot examples for the G-agent" value={config.triadExamples} min={0} max={20} onChange={(triadExamples) => onChange({ triadExamples })} />
      <NumberField label="K ent." title="K: entity candidates kept per entity slot" value={config.triadEntityCandidates} min={1} max={20} onChange={(triadEntityCandidates) => onChange({ triadEntityCandidates })} />
      <NumberField label="K rel." title="K: relation candidates kept per relation slot" value={config.triadRelationCandidates} min={1} max={20} onChange={(triadRelationCandidates) => onChange({ triadRelationCandidates })} />
      <NumberField label="T" title="T: retries of the G- and D-agent when no candidate query returns rows" value={config.triadRetries} min={0} max={10} onChange={(triadRetries) => onChange({ triadRetries })} />
      <label className="flex items-center gap-1.5 text-xs" title={`When the KG has no answer, answer from the model's own knowledge (labelled "${NOT_FROM_KG}")`}>
        <Switch checked={config.allowModelKnowledge} onCheckedChange={(allowModelKnowledge) => onChange({ allowModelKnowledge })} aria-label="Answer from the model's own knowledge when the KG has none" />
        Model knowledge ({NOT_FROM_KG})
      </label>
    </span>
  );
}
