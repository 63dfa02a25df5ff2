// Types for label-index-core.mjs (the JS the worker thread runs).
import type { LabelHit } from "../types";

export declare function tokenize(text: string): string[];
/** Singular forms a token may be the English plural of; empty when it does not look plural. */
export declare function singulars(token: string): string[];

export declare class LabelIndex {
  constructor();
  readonly size: number;
  add(iri: string, label: string, lang?: string): void;
  /** distinct indexed tokens with the number of labels holding each */
  tokenUses(): IterableIterator<[string, number]>;
  /** some label holds the token, as typed or as another number of it */
  hasToken(token: string): boolean;
  search(text: string, options: { limit: number; language?: string; preferLanguage?: string }): LabelHit[];
}
