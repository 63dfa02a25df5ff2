// useClientConfig: the config strip's state, loaded from and saved to localStorage (after mount, so SSR markup matches).
"use client";
import { useCallback, useEffect, useState } from "react";
import type { StrategyId } from "@/lib/pipeline/types";
import { CONFIG_STORAGE_KEY, defaultClientConfig, followKgDefault, parseStoredConfig, type ClientConfig } from "./client-config";

/** `serverStrategy`: the server's default strategy, used until the user picks one. */
export function useClientConfig(serverStrategy?: StrategyId) {
  const [config, setConfig] = useState<ClientConfig>(() => defaultClientConfig(serverStrategy));
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    // reading localStorage must wait for the browser; the first render uses the defaults
    setConfig(parseStoredConfig(window.localStorage.getItem(CONFIG_STORAGE_KEY), serverStrategy));
    setLoaded(true);
  }, [serverStrategy]);

  const update = useCallback((patch: Partial<ClientConfig>) => {
    setConfig((prev) => {
      // choosing another strategy pins it; until then the server's default applies
      const picked = patch.pipeline !== undefined && patch.pipeline.strategy !== prev.pipeline.strategy;
      const next = { ...prev, ...patch, ...(picked ? { strategyPicked: true } : {}) };
      window.localStorage.setItem(CONFIG_STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);

  /** the KG in use names its default strategy: an unpicked strategy follows it (not stored: the next KG may differ) */
  const followDefault = useCallback((strategy: StrategyId | undefined) => setConfig((prev) => followKgDefault(prev, strategy)), []);

  return { config, update, loaded, followDefault };
}
