// The Advanced sheet: every parameter of the chosen strategy (and those all strategies share), each with a sentence
// on what it changes, its default and a reset. The header keeps only what everyone needs (KG, strategy, model, mode,
// sentence answer); this is for people who want to tune how an answer is found.
"use client";
import { useEffect, useState } from "react";
import { RotateCcwIcon, TriangleAlertIcon } from "lucide-react";
import type { PipelineConfig } from "@/lib/pipeline/types";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Switch } from "@/components/ui/switch";
import { defaultOf, formatValue, parametersFor, type ParameterInfo } from "./parameters";
import type { StrategyInfo } from "./strategy-info";

export interface AdvancedSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  config: PipelineConfig;
  strategy: StrategyInfo | undefined;
  onChange: (patch: Partial<PipelineConfig>) => void;
  /** why the server's default strategy is the default (from the client config), shown once here */
  defaultStrategy?: { label: string; reason: string };
  /** notes about the installation seen while answering (e.g. an embedding model that could not be loaded) */
  setupNotes?: readonly string[];
}

export function AdvancedSheet({ open, onOpenChange, config, strategy, onChange, defaultStrategy, setupNotes = [] }: AdvancedSheetProps) {
  const { own, shared } = parametersFor(config.strategy);
  const all = [...own, ...shared];
  const changed = all.filter((p) => config[p.key] !== defaultOf(p));
  const label = strategy?.label ?? config.strategy;
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent data-testid="advanced-sheet" aria-describedby="advanced-description">
        <div className="pr-8">
          <SheetTitle className="text-lg font-semibold">Advanced settings</SheetTitle>
          <SheetDescription id="advanced-description" className="text-sm text-muted-foreground">
            How <strong>{label}</strong> finds the answer to your next question. Each setting says what it changes and its default;
            Reset puts it back. Your choices are kept in this browser.
          </SheetDescription>
        </div>
        {strategy?.description && <p className="text-sm">{strategy.description}</p>}
        {defaultStrategy && (
          <p className="rounded-md border bg-card p-2 text-sm" data-testid="default-strategy">
            Default strategy: <strong>{defaultStrategy.label}</strong> — chosen because {defaultStrategy.reason}
          </p>
        )}
        {own.length > 0 && <ParameterGroup title={`${label} settings`} params={own} config={config} onChange={onChange} testId="strategy-parameters" />}
        <ParameterGroup title="All strategies" params={shared} config={config} onChange={onChange} testId="shared-parameters" />
        <div className="flex items-center gap-2 border-t pt-3">
          <Button
            size="sm"
            variant="outline"
            disabled={changed.length === 0}
            onClick={() => onChange(Object.fromEntries(changed.map((p) => [p.key, defaultOf(p)])) as Partial<PipelineConfig>)}
            data-testid="reset-all"
          >
            <RotateCcwIcon /> Reset all to defaults
          </Button>
          <span className="text-xs text-muted-foreground" aria-live="polite">
            {changed.length === 0 ? "All at their defaults." : `${changed.length} changed from the default.`}
          </span>
        </div>
        {setupNotes.length > 0 && (
          <section aria-labelledby="setup-notes-heading" className="flex flex-col gap-1 border-t pt-3 text-sm" data-testid="setup-notes">
            <h3 id="setup-notes-heading" className="font-medium">
              Notes about this installation
            </h3>
            <p className="text-xs text-muted-foreground">For whoever runs the server: answers still work, these only make some steps weaker.</p>
            {setupNotes.map((n) => (
              <p key={n} className="flex items-start gap-1.5 rounded bg-warning/15 px-2 py-1 text-xs">
                <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-warning" aria-hidden /> {n}
              </p>
            ))}
          </section>
        )}
      </SheetContent>
    </Sheet>
  );
}

function ParameterGroup({ title, params, config, onChange, testId }: { title: string; params: ParameterInfo[]; config: PipelineConfig; onChange: (patch: Partial<PipelineConfig>) => void; testId: string }) {
  return (
    <section className="flex flex-col gap-3" data-testid={testId} aria-label={title}>
      <h3 className="border-b pb-1 text-sm font-medium">{title}</h3>
      {params.map((p) => (
        <ParameterRow key={p.key} param={p} value={config[p.key] as number | boolean} onChange={(v) => onChange({ [p.key]: v } as Partial<PipelineConfig>)} />
      ))}
    </section>
  );
}

function ParameterRow({ param: p, value, onChange }: { param: ParameterInfo; value: number | boolean; onChange: (v: number | boolean) => void }) {
  const def = defaultOf(p);
  const id = `param-${p.key}`;
  const atDefault = value === def;
  return (
    <div className="flex flex-col gap-1" data-testid="parameter" data-key={p.key}>
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={id} className="text-sm font-medium">
          {p.label}
          {p.symbol && <span className="ml-1 font-normal text-muted-foreground">({p.symbol})</span>}
        </label>
        {p.kind === "boolean" ? (
          <Switch id={id} checked={value as boolean} onCheckedChange={onChange} aria-describedby={`${id}-help`} />
        ) : (
          <NumberInput id={id} value={value as number} min={p.min} max={p.max} onChange={onChange} describedBy={`${id}-help`} />
        )}
      </div>
      <p id={`${id}-help`} className="text-xs text-muted-foreground">
        {p.sentence} {p.kind === "number" && <>Between {formatValue(p, p.min)} and {formatValue(p, p.max)}.</>}
      </p>
      <p className="flex items-center gap-2 text-xs">
        <span className={atDefault ? "text-muted-foreground" : "font-medium"} data-testid="parameter-default">
          {atDefault ? `Default: ${formatValue(p, def)}` : `Changed — default ${formatValue(p, def)}`}
        </span>
        {!atDefault && (
          <Button size="sm" variant="ghost" className="h-6 px-1.5 text-xs" onClick={() => onChange(def)} aria-label={`Reset ${p.label} to ${formatValue(p, def)}`}>
            <RotateCcwIcon /> Reset
          </Button>
        )}
      </p>
    </div>
  );
}

/** An integer field that reports only values inside [min, max]; anything else is marked and says why. */
function NumberInput({ id, value, min, max, onChange, describedBy }: { id: string; value: number; min: number; max: number; onChange: (v: number) => void; describedBy: string }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const n = Number(text);
  const valid = text.trim() !== "" && Number.isInteger(n) && n >= min && n <= max;
  return (
    <Input
      id={id}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={text}
      aria-invalid={!valid}
      aria-describedby={describedBy}
      className="h-8 w-28 shrink-0 text-right aria-[invalid=true]:border-destructive"
      onChange={(e) => {
        setText(e.target.value);
        const v = Number(e.target.value);
        if (e.target.value.trim() !== "" && Number.isInteger(v) && v >= min && v <= max) onChange(v);
      }}
    />
  );
}
