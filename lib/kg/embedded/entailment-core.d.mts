// Types for entailment-core.mjs (the JS the worker thread runs).
import type oxigraph from "oxigraph";

export declare const ENTAILED_GRAPH: string;

export interface EntailmentStats {
  added: number;
  byRule: { subClassOf: number; subPropertyOf: number; inverseOf: number };
  schema: { subClassOf: number; subPropertyOf: number; inverseOf: number };
}

export declare function materializeRdfs(store: oxigraph.Store, ox: typeof oxigraph): EntailmentStats;
