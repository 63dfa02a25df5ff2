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
  return readPromptFile(`${name}.md`);
}

/** Reads any file of prompts/ (e.g. a strategy's few-shot examples as JSON) once per process. */
export function readPromptFile(fileName: string): string {
  const file = path.join(promptsDir(), fileName);
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
