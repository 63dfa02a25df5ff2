// Finds the JSON value in a model's reply: bare, fenced, or wrapped in prose; failures say why, so agents can re-prompt.
//
// Tolerated (models do these often and the intent is unambiguous):
//   - ```json … ``` or ``` … ``` fences, prose before/after the value, <think>…</think> blocks of reasoning models;
//   - trailing commas before } or ] (outside strings).
// Not tolerated (guessing would change meaning): single quotes, comments, unquoted keys, truncated output.

export type JsonExtraction = { ok: true; value: unknown; json: string } | { ok: false; reason: string };

export interface ExtractOptions {
  /** which top-level value is acceptable; default "object-or-array" */
  expect?: "object" | "array" | "object-or-array";
}

const MAX_STARTS = 20; // enough for prose with a few stray brackets; bounded so huge outputs stay cheap

/** Index just past the bracket matching the one at `start`, or -1 when the text ends first (truncated output). */
function matchBracket(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") stack.push("}");
    else if (c === "[") stack.push("]");
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return i + 1; // mismatched: let JSON.parse report the position
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

/** Drops commas directly before } or ] outside strings. */
export function removeTrailingCommas(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === "\\") out += json[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ",") {
      let j = i + 1;
      while (j < json.length && /\s/.test(json[j])) j++;
      if (json[j] === "}" || json[j] === "]") continue;
    }
    out += c;
  }
  return out;
}

function syntaxReason(candidate: string, error: unknown): string {
  const msg = error instanceof Error ? error.message : String(error);
  const m = /position (\d+)/.exec(msg);
  if (!m) return `JSON syntax error: ${msg}`;
  const pos = Number(m[1]);
  const near = candidate.slice(Math.max(0, pos - 20), pos + 20).replace(/\s+/g, " ");
  return `JSON syntax error at position ${pos}: ${msg.replace(/\s*\(line \d+ column \d+\)/, "")} (near "${near}")`;
}

function tryParse(candidate: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (error) {
    try {
      return { ok: true, value: JSON.parse(removeTrailingCommas(candidate)) };
    } catch {
      return { ok: false, error };
    }
  }
}

function kindOk(value: unknown, expect: NonNullable<ExtractOptions["expect"]>): boolean {
  const isArray = Array.isArray(value);
  const isObject = typeof value === "object" && value !== null && !isArray;
  if (expect === "object") return isObject;
  if (expect === "array") return isArray;
  return isObject || isArray;
}

function describe(expect: NonNullable<ExtractOptions["expect"]>): string {
  return expect === "object" ? "JSON object" : expect === "array" ? "JSON array" : "JSON object or array";
}

/** Extracts the first acceptable JSON value from model text. */
export function extractJson(text: string, options: ExtractOptions = {}): JsonExtraction {
  const expect = options.expect ?? "object-or-array";
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  if (!cleaned) return { ok: false, reason: "the output is empty; expected a " + describe(expect) };

  const candidates: string[] = [];
  for (const m of cleaned.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) candidates.push(m[1].trim());
  // Scan the fenced content first, then the whole text, for bracketed values.
  const sources = [...candidates, cleaned];
  let truncatedAt: number | undefined;
  let best: { candidate: string; error: unknown } | undefined;
  const opener = expect === "object" ? /[{]/g : expect === "array" ? /[[]/g : /[{[]/g;

  for (const source of sources) {
    const whole = tryParse(source);
    if (whole.ok && kindOk(whole.value, expect)) return { ok: true, value: whole.value, json: source };
    let starts = 0;
    let nextAllowed = 0; // never pick a value nested inside a malformed outer one
    for (const m of source.matchAll(opener)) {
      if (m.index < nextAllowed) continue;
      if (++starts > MAX_STARTS) break;
      const end = matchBracket(source, m.index);
      if (end < 0) {
        if (truncatedAt === undefined && source === cleaned) truncatedAt = m.index;
        break; // everything after an unclosed bracket is inside it

      }
      nextAllowed = end;
      const candidate = source.slice(m.index, end);
      const r = tryParse(candidate);
      if (r.ok && kindOk(r.value, expect)) return { ok: true, value: r.value, json: candidate };
      // The longest failing candidate is most likely the value the model meant to write.
      if (!r.ok && (!best || candidate.length > best.candidate.length)) best = { candidate, error: r.error };
    }
  }
  if (best) return { ok: false, reason: syntaxReason(best.candidate, best.error) };
  if (truncatedAt !== undefined) {
    return { ok: false, reason: `the ${describe(expect)} starting at position ${truncatedAt} is never closed (output truncated?)` };
  }
  return { ok: false, reason: `no ${describe(expect)} found in the output` };
}
