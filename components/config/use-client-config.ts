// useClientConfig: the config strip's state, loaded from and saved to localStorage (after mount, so SSR markup matches).
"use client";
import { useCallback, useEffect, useState } from "react";
import { CONFIG_STORAGE_KEY, DEFAULT_CLIENT_CONFIG, parseStoredConfig, type ClientConfig } from "./client-config";

export function useClientConfig() {
  const [config, setConfig] = useState<ClientConfig>(DEFAULT_CLIENT_CONFIG);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    // reading localStorage must wait for the browser; the first render uses the defaults
    setConfig(parseStoredConfig(window.localStorage.getItem(CONFIG_STORAGE_KEY)));
    setLoaded(true);
  }, []);

  const update = useCallback((patch: Partial<ClientConfig>) => {
    setConfig((prev) => {
      const next = { ...prev, ...patch };
      window.localStorage.setItem(CONFIG_STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);

  return { config, update, loaded };
}
