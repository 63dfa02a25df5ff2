// The KGs the settings offer (the sample, this session's uploads and endpoints) and which one the next question uses:
// the stored choice while it is still in the list, else the server's default.
"use client";
import { useCallback, useEffect, useMemo, useState } from "react";
import type { KgListItem } from "@/lib/api/contract";
import { api } from "@/components/api-client";

export function useKgList(chosen: string | undefined) {
  const [kgs, setKgs] = useState<KgListItem[]>([]);
  const [defaultKgId, setDefaultKgId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const res = await api.kgs();
      setKgs(res.kgs);
      setDefaultKgId(res.defaultKgId);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  /** a KG just added (upload, endpoint) is in the list at once, so the next question goes to it before the reload ends */
  const add = useCallback((kg: KgListItem) => setKgs((list) => (list.some((k) => k.id === kg.id) ? list : [...list, kg])), []);

  const selectedKgId = chosen && kgs.some((k) => k.id === chosen) ? chosen : (defaultKgId ?? chosen);
  const names = useMemo(() => new Map(kgs.map((k) => [k.id, k.name])), [kgs]);
  return { kgs, error, reload, add, selectedKgId, selectedKg: kgs.find((k) => k.id === selectedKgId), names };
}
