// Prompts live as Markdown files in prompts/; this reads one and fills its {{placeholders}}.
import fs from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";

const cache = new Map<string, string>();

function promptsDir(): string {
  return process.env.CHATTY_PROMPTS_DIR ?? path.join(process.cwd(), "prompts");
}

/** Reads prompts/<name>.md once per process. */
export function readPrompt(name: string): string {
  return readCached(path.join(promptsDir(), `${name}.md`));
}

/** Reads prompts/<name>.json once per process (a strategy's data, e.g. Triad's default few-shot examples). */
export function readPromptJson(name: string): unknown {
  return JSON.parse(readCached(path.join(promptsDir(), `${name}.json`)));
}

// why each caller builds its path with a literal extension: the bundler then traces prompts/*.md and *.json only
function readCached(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      throw new AppError("internal", `Prompt file missing: ${file}`, { cause: e });
    }
    cache.set(file, text);
  }
  return text;
}

/** Fills {{name}} placeholders; every placeholder must be given (a missing one is a bug, not an empty string). */
export function renderPrompt(name: string, vars: Record<string, string | number> = {}): string {
  return readPrompt(name).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => {
    if (!(key in vars)) throw new AppError("internal", `Prompt ${name} needs a value for {{${key}}}`);
    return String(vars[key]);
  });
}

/** Splits a prompt file into its system part and its user part at a line "---user---" (if present). */
export function renderPromptPair(name: string, vars: Record<string, string | number> = {}): { system: string; prompt: string } {
  const text = renderPrompt(name, vars);
  const [system, prompt] = text.split(/^---user---$/m);
  return prompt === undefined ? { system: "", prompt: system.trim() } : { system: system.trim(), prompt: prompt.trim() };
}
