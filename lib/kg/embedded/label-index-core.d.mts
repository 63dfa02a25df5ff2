// Types for label-index-core.mjs (the JS the worker thread runs).
import type { LabelHit } from "../types";

export declare function tokenize(text: string): string[];
/** Singular forms a token may be the English plural of; empty when it does not look plural. */
export declare function singulars(token: string): string[];

export declare class LabelIndex {
  constructor();
  readonly size: number;
  add(iri: string, label: string, lang?: string): void;
  search(text: string, options: { limit: number; language?: string; preferLanguage?: string }): LabelHit[];
}
