// Writes a tiny BERT-shaped ONNX model folder (Gather(embeddings, input_ids) → last_hidden_state) for offline tests.
// Usage: npx tsx scripts/make-tiny-model.ts <dir>   (then localModelPath=<parent of dir>, model=<basename of dir>)
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import onnxProto from "onnx-proto";

const { onnx } = onnxProto;

/** Relation words grouped by meaning: words in a group share a "concept" axis, so mean-pooled cosine ranks sensibly. */
export const TINY_CONCEPTS: Record<string, string[]> = {
  birth: ["born", "birth", "birthplace"],
  death: ["died", "death", "dead"],
  acting: ["played", "starring", "actor", "actors", "starred", "cast"],
  directing: ["directed", "director"],
  founding: ["founded", "founder", "founders", "by"],
  release: ["released", "release", "published", "publication"],
  writing: ["wrote", "written", "writer", "author"],
  spouse: ["married", "spouse", "wife", "husband"],
  date: ["date", "when", "year"],
  place: ["place", "where", "location", "located", "city"],
};

export interface TinyModelInfo {
  dir: string;
  dims: number;
  vocab: string[];
}

const SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"];

/** Deterministic embedding matrix: a strong unit on the word's concept axis, plus a small word-specific component. */
function embeddingMatrix(vocab: string[], conceptOf: Map<string, number>, dims: number): Float32Array {
  const emb = new Float32Array(vocab.length * dims);
  const nConcepts = Object.keys(TINY_CONCEPTS).length;
  vocab.forEach((word, i) => {
    const row = i * dims;
    const concept = conceptOf.get(word);
    if (concept !== undefined) emb[row + concept] = 1;
    // why: specials must weigh little in the mean so they don't make every sentence look alike
    const scale = concept === undefined ? 0.05 : 0.25;
    for (let j = nConcepts; j < dims; j++) emb[row + j] = scale * Math.sin((i + 1) * (j + 1));
  });
  return emb;
}

export function writeTinyModel(dir: string, dims = 16): TinyModelInfo {
  const conceptOf = new Map<string, number>();
  Object.values(TINY_CONCEPTS).forEach((words, c) => words.forEach((w) => conceptOf.set(w, c)));
  const vocab = [...SPECIALS, ...conceptOf.keys()];
  if (dims <= Object.keys(TINY_CONCEPTS).length) throw new Error(`dims must exceed the ${Object.keys(TINY_CONCEPTS).length} concept axes`);
  const emb = embeddingMatrix(vocab, conceptOf, dims);

  const T = onnx.TensorProto.DataType;
  const dim = (p: number | string) => (typeof p === "number" ? { dimValue: p } : { dimParam: p });
  const valueInfo = (name: string, elemType: number, shape: (number | string)[]) => ({
    name,
    type: { tensorType: { elemType, shape: { dim: shape.map(dim) } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: "chatty-kg tiny-bert",
    opsetImport: [{ domain: "", version: 13 }],
    graph: {
      name: "tiny",
      node: [
        {
          opType: "Gather",
          input: ["embeddings", "input_ids"],
          output: ["last_hidden_state"],
          attribute: [{ name: "axis", i: 0, type: onnx.AttributeProto.AttributeType.INT }],
        },
      ],
      initializer: [{ name: "embeddings", dataType: T.FLOAT, dims: [vocab.length, dims], rawData: Buffer.from(emb.buffer) }],
      input: [valueInfo("input_ids", T.INT64, ["batch", "seq"])],
      output: [valueInfo("last_hidden_state", T.FLOAT, ["batch", "seq", dims])],
    },
  });
  const bytes = onnx.ModelProto.encode(model).finish();

  fs.mkdirSync(path.join(dir, "onnx"), { recursive: true });
  fs.writeFileSync(path.join(dir, "onnx", "model.onnx"), bytes);
  fs.writeFileSync(path.join(dir, "onnx", "model_quantized.onnx"), bytes); // name picked for dtype q8
  const json = (file: string, value: unknown) => fs.writeFileSync(path.join(dir, file), JSON.stringify(value, null, 2));
  json("config.json", {
    model_type: "bert",
    architectures: ["BertModel"],
    hidden_size: dims,
    vocab_size: vocab.length,
    max_position_embeddings: 64,
    num_attention_heads: 1,
    num_hidden_layers: 1,
  });
  json("tokenizer_config.json", {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: 64,
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    pad_token: "[PAD]",
    unk_token: "[UNK]",
  });
  const special = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const cls = { SpecialToken: { id: "[CLS]", type_id: 0 } };
  json("tokenizer.json", {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((s, i) => special(s, i)),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [cls, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [
        cls,
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((w, i) => [w, i])),
    },
  });
  return { dir, dims, vocab };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = process.argv[2] ?? "models/local/tiny-bert";
  const info = writeTinyModel(path.resolve(out));
  console.log(`wrote ${info.dir} (${info.vocab.length} tokens, ${info.dims} dims)`);
}
