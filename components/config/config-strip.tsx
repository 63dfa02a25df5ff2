// The top strip: KG (with Upload/Add endpoint), LLM, strategy, mode, θ, L, vlimit, query_num, RAGONITE rounds, the explorer's
// step budget, natural answer, export, theme.
// Everything here applies to the next question and is remembered in localStorage.
"use client";
import { DatabaseIcon, GlobeIcon, InfoIcon, UploadIcon } from "lucide-react";
import type { KgListItem } from "@/lib/api/contract";
import type { LlmStatus } from "@/lib/llm/config";
import type { StrategyId } from "@/lib/pipeline/types";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Tooltip } from "@/components/ui/tooltip";
import type { ClientConfig } from "./client-config";
import { NumberField } from "./number-field";
import { strategyOptions, type StrategyInfo } from "./strategy-info";
import { TriadFields } from "./triad-fields";

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
  onUpload: () => void;
  onAddEndpoint: () => void;
  /** the stored settings have been read (until then a choice would be overwritten by them) */
  ready?: boolean;
}

export function ConfigStrip({ config, kgs, kgError, selectedKgId, llm, strategies, onChange, onUpload, onAddEndpoint, ready = true }: ConfigStripProps) {
  const p = config.pipeline;
  const options = strategyOptions(strategies);
  const strategy = options.find((s) => s.id === p.strategy);
  const setPipeline = (patch: Partial<ClientConfig["pipeline"]>) => onChange({ pipeline: { ...p, ...patch } });
  const llmChoice = config.llm?.provider ?? "";
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm" data-testid="config-strip" data-ready={ready ? "true" : "false"} role="group" aria-label="Settings for the next question">
      <span className="flex flex-wrap items-center gap-1">
        <DatabaseIcon className="size-4 text-muted-foreground" aria-hidden />
        <Select
          aria-label="Knowledge graph"
          data-testid="kg-select"
          className="w-52"
          value={selectedKgId ?? ""}
          onChange={(e) => onChange({ kgId: e.target.value || undefined })}
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
                    {k.triples !== undefined ? ` (${k.triples.toLocaleString("en")} triples)` : ""}
                    {k.entailment === "rdfs" ? " · RDFS entailment" : ""}
                    {k.status === "error" ? " — error" : ""}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </Select>
        <Button size="sm" variant="ghost" onClick={onUpload} data-testid="open-upload">
          <UploadIcon /> Upload RDF…
        </Button>
        <Button size="sm" variant="ghost" onClick={onAddEndpoint} data-testid="open-endpoint">
          <GlobeIcon /> Add endpoint…
        </Button>
      </span>

      <span className="flex flex-wrap items-center gap-1">
        <Select
          aria-label="LLM provider"
          data-testid="llm-select"
          className="w-44"
          value={llmChoice}
          onChange={(e) => {
            const v = e.target.value;
            if (!v) onChange({ llm: undefined });
            else onChange({ llm: { provider: v as "openai-compatible", model: config.llm?.model ?? "", baseURL: config.llm?.baseURL } });
          }}
        >
          <option value="">{llm.configured ? `Server: ${llm.provider} · ${llm.model}` : "Server (not configured)"}</option>
          <option value="openai-compatible">OpenAI-compatible…</option>
          <option value="openai">OpenAI (server key)</option>
          <option value="google">Google (server key)</option>
        </Select>
        {config.llm && (
          <>
            {config.llm.provider === "openai-compatible" && (
              <Input
                aria-label="LLM base URL"
                placeholder="http://127.0.0.1:11434/v1"
                className="h-8 w-52 text-xs"
                value={config.llm.baseURL ?? ""}
                onChange={(e) => onChange({ llm: { ...config.llm!, baseURL: e.target.value || undefined } })}
              />
            )}
            <Input
              aria-label="LLM model"
              placeholder="model"
              className="h-8 w-32 text-xs"
              value={config.llm.model}
              onChange={(e) => onChange({ llm: { ...config.llm!, model: e.target.value } })}
            />
          </>
        )}
      </span>

      <span className="flex flex-wrap items-center gap-2">
        <span className="flex items-center gap-0.5">
          <Select
            aria-label="Strategy"
            aria-describedby="strategy-description"
            data-testid="strategy-select"
            className="w-40"
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
          {strategy?.description && (
            <Tooltip label={strategy.description}>
              <button type="button" aria-label={`About ${strategy.label}`} className="rounded p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
                <InfoIcon className="size-3.5" />
              </button>
            </Tooltip>
          )}
          <span id="strategy-description" className="sr-only" data-testid="strategy-description">
            {strategy?.description}
          </span>
        </span>
        <Select aria-label="Mode" className="w-28" value={p.mode} onChange={(e) => setPipeline({ mode: e.target.value as "multi" | "single" })}>
          <option value="multi">Multi-turn</option>
          <option value="single">Single-turn</option>
        </Select>
        <NumberField label="θ" title="θ: attempts per validated LLM step" value={p.theta} min={1} max={10} onChange={(theta) => setPipeline({ theta })} />
        <NumberField label="L" title="L: answer items kept per previous turn" value={p.answerLimit} min={0} max={10_000} onChange={(answerLimit) => setPipeline({ answerLimit })} />
        <NumberField label="vlimit" title="vlimit: candidate vertices per entity mention" value={p.vlimit} min={1} max={10_000} onChange={(vlimit) => setPipeline({ vlimit })} />
        <NumberField label="query_num" title="query_num: candidate queries kept" value={p.queryNum} min={1} max={1000} onChange={(queryNum) => setPipeline({ queryNum })} />
        {p.strategy === "ragonite" && (
          <NumberField label="rounds" title="RAGONITE: retrieval rounds (SQL and fact search) before the answer" value={p.ragoniteRounds} min={1} max={10} onChange={(ragoniteRounds) => setPipeline({ ragoniteRounds })} />
        )}
        {p.strategy === "explorer" && (
          <NumberField
            label="steps"
            title="Explorer: tool calls per question (the turn ends without an answer when they run out)"
            value={p.explorerMaxSteps}
            min={1}
            max={200}
            onChange={(explorerMaxSteps) => setPipeline({ explorerMaxSteps })}
          />
        )}
        {p.strategy === "one-call" && (
          <>
            <NumberField label="examples" title="One call: solved examples from the experience pool in the prompt" value={p.oneCallExamples} min={0} max={20} onChange={(oneCallExamples) => setPipeline({ oneCallExamples })} />
            <NumberField label="repairs" title="One call: repairs after the first query (each one call with the validator's problems)" value={p.oneCallRepairs} min={0} max={10} onChange={(oneCallRepairs) => setPipeline({ oneCallRepairs })} />
          </>
        )}
        <label className="flex items-center gap-1.5 text-xs">
          <Switch checked={p.naturalAnswer} onCheckedChange={(naturalAnswer) => setPipeline({ naturalAnswer })} aria-label="Natural-language answer" />
          Sentence answer
        </label>
      </span>
      {p.strategy === "triad" && <TriadFields config={p} onChange={setPipeline} />}
    </div>
  );
}
