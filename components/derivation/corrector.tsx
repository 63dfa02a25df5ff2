// What the derivation's correction controls need: which corrections the turn's strategy takes, whether they may be
// used now, the KG to search, and how to send one (the turn then re-runs from that step as its next attempt).
"use client";
import { createContext, useContext } from "react";
import type { Correction, CorrectionKind } from "@/lib/pipeline/corrections";

export interface Corrector {
  kinds: readonly CorrectionKind[];
  /** a turn is running, or this attempt has not finished: the controls show but do nothing */
  disabled: boolean;
  /** the KG the turn ran on (searching for another vertex) */
  kgId?: string;
  /** the attempt the correction is made on */
  attempt: number;
  rerun(correction: Correction): void;
}

const CorrectorContext = createContext<Corrector | null>(null);

export const CorrectorProvider = CorrectorContext.Provider;

/** The corrector when `kind` is one the turn's strategy takes; otherwise null (no control is shown). */
export function useCorrector(kind: CorrectionKind): Corrector | null {
  const c = useContext(CorrectorContext);
  return c && c.kinds.includes(kind) ? c : null;
}
