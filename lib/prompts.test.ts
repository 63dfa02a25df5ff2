import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readPromptJson, renderPrompt, renderPromptPair } from "./prompts";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "prompts-"));
  fs.writeFileSync(path.join(dir, "data.json"), '{ "examples": [1, 2] }');
  fs.writeFileSync(path.join(dir, "greet.md"), "You greet people.\n---user---\nSay hello to {{name}} ({{ count }} times).");
  process.env.CHATTY_PROMPTS_DIR = dir;
});
afterAll(() => {
  delete process.env.CHATTY_PROMPTS_DIR;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("prompts", () => {
  it("fills placeholders and splits system from user text", () => {
    expect(renderPromptPair("greet", { name: "Ada", count: 2 })).toEqual({
      system: "You greet people.",
      prompt: "Say hello to Ada (2 times).",
    });
  });
  it("refuses a missing placeholder instead of sending a broken prompt", () => {
    expect(() => renderPrompt("greet", { name: "Ada" })).toThrow(/count/);
  });
  it("names a missing prompt file", () => {
    expect(() => renderPrompt("nope")).toThrow(/Prompt file missing/);
  });
  it("reads a prompt's JSON data file, and names a missing one", () => {
    expect(readPromptJson("data")).toEqual({ examples: [1, 2] });
    expect(() => readPromptJson("greet")).toThrow(/Prompt file missing: .*greet\.json/);
  });
});
