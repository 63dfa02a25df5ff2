// In-process full-text index over entity labels (token inverted index, accent/case folding); one implementation shared with the KG worker.
export { LabelIndex, tokenize } from "./embedded/label-index-core.mjs";
