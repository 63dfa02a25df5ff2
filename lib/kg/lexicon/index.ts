// The KG lexicon: one place where every strategy finds the names of a KG's entities, classes and properties.
export { buildLexicon, DEFAULT_LEXICON_LIMITS, type BuiltLexicon, type LexiconLimits, type LexiconStats } from "./build";
export { classifyPredicate, discoverNamePredicates, valueStats, type LexiconSelect, type NamePredicate, type NameRole } from "./discover";
export { describeSource, Lexicon, type LexiconHit, type LexiconName, type LexiconSearchOptions, type NameSource, type TermKind } from "./lexicon";
export { isOpaqueIri, localNames, localPart, splitWords, stem, stemmedText } from "./names";
export { allowedEdits, closeWords, describeCorrection, editDistance, type WordCorrection } from "./fuzzy";
