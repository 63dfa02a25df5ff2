// The settings everyone needs, for the next question: the KG (with Upload / Add endpoint), the strategy, the model,
// single- or multi-turn, and "sentence answer"; the strategies' parameters open in the Advanced sheet. As a bar in the
// desktop header, stacked with labels in the phone's settings sheet. Everything is remembered in localStorage.
"use client";
import { DatabaseIcon, GlobeIcon, SlidersHorizontalIcon, UploadIcon } from "lucide-react";
import type { KgListItem } from "@/lib/api/contract";
import type { LlmStatus } from "@/lib/llm/config";
import type { StrategyId } from "@/lib/pipeline/types";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Tooltip } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";
import type { ClientConfig } from "./client-config";
import { changedParameters } from "./parameters";
import { strategyOptions, type StrategyInfo } from "./strategy-info";

const KIND_LABELS = { sample: "Sample", upload: "Uploaded", endpoint: "Endpoints" } as const;

export interface ConfigStripProps {
  config: ClientConfig;
  kgs: KgListItem[];
  kgError: string | null;
  selectedKgId: string | undefined;
  llm: LlmStatus;
  /** labels and descriptions from the server's strategy registry */
  strategies?: readonly StrategyInfo[];
  onChange: (patch: Partial<ClientConfig>) => void;
  /** a KG was picked in the menu (the shell may ask first when the conversation has turns) */
  onPickKg?: (kgId: string | undefined) => void;
  onUpload: () => void;
  onAddEndpoint: () => void;
  onOpenAdvanced: () => void;
  /** the stored settings have been read (until then a choice would be overwritten by them) */
  ready?: boolean;
  /** "bar": one row in the desktop header; "sheet": stacked with labels (phone settings) */
  variant?: "bar" | "sheet";
  /** more KG actions after Upload / Add endpoint (kgui: the overview button and the onboarding indicator) */
  kgActions?: React.ReactNode;
}

/** What the model menu's first entry says: the server's model, or that none is set. */
export function serverModelLabel(llm: LlmStatus): string {
  return llm.configured ? `${llm.model} (server)` : "No model set up";
}

export function ConfigStrip(props: ConfigStripProps) {
  const { config, kgs, kgError, selectedKgId, llm, strategies, onChange, onUpload, onAddEndpoint, onOpenAdvanced, ready = true, variant = "bar" } = props;
  const p = config.pipeline;
  const options = strategyOptions(strategies);
  const strategy = options.find((s) => s.id === p.strategy);
  const setPipeline = (patch: Partial<ClientConfig["pipeline"]>) => onChange({ pipeline: { ...p, ...patch } });
  const pickKg = props.onPickKg ?? ((kgId: string | undefined) => onChange({ kgId }));
  const llmChoice = config.llm?.provider ?? "";
  const changed = changedParameters(p).length;
  const sheet = variant === "sheet";
  const field = (label: string, control: React.ReactNode, extra?: React.ReactNode) =>
    sheet ? (
      <div className="flex flex-col gap-1">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        <span className="flex flex-wrap items-center gap-1">{control}</span>
        {extra}
      </div>
    ) : (
      <span className="flex items-center gap-0.5">{control}</span>
    );
  return (
    <div
      className={cn("text-sm", sheet ? "flex flex-col gap-4" : "flex flex-wrap items-center gap-x-2 gap-y-1.5")}
      data-testid="config-strip"
      data-ready={ready ? "true" : "false"}
      role="group"
      aria-label="Settings for the next question"
    >
      {field(
        "Knowledge graph",
        <>
          {!sheet && <DatabaseIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />}
          <Select
            aria-label="Knowledge graph"
            data-testid="kg-select"
            className={sheet ? "w-full" : "w-40"}
            title={kgs.find((k) => k.id === selectedKgId)?.name}
            value={selectedKgId ?? ""}
            onChange={(e) => pickKg(e.target.value || undefined)}
          >
            {kgs.length === 0 && <option value="">{kgError ? "KGs unavailable" : "Loading…"}</option>}
            {(["sample", "upload", "endpoint"] as const).map((kind) => {
              const items = kgs.filter((k) => k.kind === kind);
              if (items.length === 0) return null;
              return (
                <optgroup key={kind} label={KIND_LABELS[kind]}>
                  {items.map((k) => (
                    <option key={k.id} value={k.id} disabled={k.status === "error"}>
                      {k.name}
                      {/* the bar shows names only (its width is fixed); the sizes are on the start page and in the sheet */}
                      {sheet && k.triples !== undefined ? ` (${k.triples.toLocaleString("en")} triples)` : ""}
                      {k.entailment === "rdfs" ? " · RDFS entailment" : ""}
                      {k.status === "error" ? " — could not be opened" : ""}
                    </option>
                  ))}
                </optgroup>
              );
            })}
          </Select>
          <KgButton sheet={sheet} label="Upload RDF files…" onClick={onUpload} testId="open-upload" icon={<UploadIcon />} />
          <KgButton sheet={sheet} label="Add a SPARQL endpoint…" onClick={onAddEndpoint} testId="open-endpoint" icon={<GlobeIcon />} />
          {props.kgActions}
        </>,
      )}

      {field(
        "Strategy",
        <>
          <Select
            aria-label="Strategy"
            aria-describedby={`strategy-description-${variant}`}
            data-testid="strategy-select"
            className={sheet ? "min-w-0 flex-1" : "w-[9.5rem]"}
            title={strategy?.description || undefined}
            value={p.strategy}
            onChange={(e) => setPipeline({ strategy: e.target.value as StrategyId })}
          >
            {options.map((s) => (
              <option key={s.id} value={s.id} title={s.description || undefined}>
                {s.label}
              </option>
            ))}
          </Select>
          {/* what the strategy does: the select's title, the start page and the Advanced sheet say it */}
          <span id={`strategy-description-${variant}`} className="sr-only" data-testid="strategy-description">
            {strategy?.description}
          </span>
        </>,
        sheet && strategy?.description ? <p className="text-xs text-muted-foreground">{strategy.description}</p> : undefined,
      )}

      {field(
        "Model",
        <>
          <Select
            aria-label="Model"
            data-testid="llm-select"
            className={sheet ? "w-full" : "w-36"}
            title={llm.configured ? `The server's model: ${llm.provider} · ${llm.model}` : llm.message}
            value={llmChoice}
            onChange={(e) => {
              const v = e.target.value;
              if (!v) onChange({ llm: undefined });
              else onChange({ llm: { provider: v as "openai-compatible", model: config.llm?.model ?? "", baseURL: config.llm?.baseURL } });
            }}
          >
            <option value="">{serverModelLabel(llm)}</option>
            <option value="openai-compatible" title="A server with the OpenAI API (Ollama, vLLM, …): give its base URL and a model">
              Other server…
            </option>
            <option value="openai" title="An OpenAI model with the server's key">
              OpenAI…
            </option>
            <option value="google" title="A Google model with the server's key">
              Google…
            </option>
          </Select>
          {config.llm && (
            <>
              {config.llm.provider === "openai-compatible" && (
                <Input
                  aria-label="LLM base URL"
                  placeholder="http://127.0.0.1:11434/v1"
                  className={cn("h-8 text-xs", sheet ? "w-full" : "w-48")}
                  value={config.llm.baseURL ?? ""}
                  onChange={(e) => onChange({ llm: { ...config.llm!, baseURL: e.target.value || undefined } })}
                />
              )}
              <Input
                aria-label="LLM model"
                placeholder="model name"
                className={cn("h-8 text-xs", sheet ? "w-full" : "w-28")}
                value={config.llm.model}
                onChange={(e) => onChange({ llm: { ...config.llm!, model: e.target.value } })}
              />
            </>
          )}
        </>,
      )}

      {field(
        "Conversation",
        <Select aria-label="Mode" data-testid="mode-select" className={sheet ? "w-full" : "w-[7rem]"} value={p.mode} onChange={(e) => setPipeline({ mode: e.target.value as "multi" | "single" })}>
          <option value="multi">Multi-turn</option>
          <option value="single">Single-turn</option>
        </Select>,
        sheet ? <p className="text-xs text-muted-foreground">Multi-turn: follow-ups may refer to earlier answers. Single-turn: every question stands alone.</p> : undefined,
      )}

      <label className="flex items-center gap-1.5 text-xs" title="Also say the answer as a sentence in your language">
        <Switch checked={p.naturalAnswer} onCheckedChange={(naturalAnswer) => setPipeline({ naturalAnswer })} aria-label="Sentence answer" />
        Sentence answer
      </label>

      <Button size="sm" variant={sheet ? "outline" : "ghost"} onClick={onOpenAdvanced} data-testid="open-advanced" aria-haspopup="dialog" className={sheet ? "w-fit" : undefined}>
        <SlidersHorizontalIcon /> Advanced
        {changed > 0 && (
          <span className="rounded-full bg-primary px-1.5 text-[10px] leading-4 text-primary-foreground" aria-label={`${changed} changed`} data-testid="advanced-changed">
            {changed}
          </span>
        )}
      </Button>
    </div>
  );
}

function KgButton({ sheet, label, onClick, testId, icon }: { sheet: boolean; label: string; onClick: () => void; testId: string; icon: React.ReactNode }) {
  if (sheet)
    return (
      <Button size="sm" variant="outline" onClick={onClick} data-testid={testId}>
        {icon} {label}
      </Button>
    );
  return (
    <Tooltip label={label}>
      <Button size="icon" variant="ghost" className="size-8" onClick={onClick} data-testid={testId} aria-label={label}>
        {icon}
      </Button>
    </Tooltip>
  );
}
