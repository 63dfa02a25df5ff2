// Page helpers for the chat e2e tests: ask a question and wait for its turn to finish, open panels, save screenshots.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page, type Response, type TestInfo } from "@playwright/test";

/** Screenshots of the main views also go here: Playwright empties test-results/ at every start, this folder survives
 * (git-ignored; .ci/run copies it next to the reports). */
export const SCREENSHOT_DIR = path.join(process.cwd(), "e2e-output", "screenshots");

export const FIGURE1 = [
  { q: "Who is the author of Harry Potter?", expect: "J. K. Rowling" },
  { q: "When was its first movie released?", expect: "2001-11-16" },
  { q: "Who played the main character?", expect: "Daniel Radcliffe" },
  { q: "When was he born?", expect: "1989-07-23" },
  { q: "What else has he starred in?", expect: "The Woman in Black" },
] as const;

export function turn(page: Page, index: number): Locator {
  return page.getByTestId("turn").nth(index);
}

/** Types the question, sends it with Enter and waits until its turn has finished (done or failed). */
export async function ask(page: Page, question: string, index: number): Promise<Locator> {
  const input = page.getByTestId("question-input");
  await input.fill(question);
  // the box only sends once the KG list has loaded (the Send button says when)
  await expect(page.getByTestId("send-button")).toBeEnabled();
  await input.press("Enter");
  const t = turn(page, index);
  await expect(t.getByTestId("turn-question")).toHaveText(question);
  await expect(t).toHaveAttribute("data-status", /^(done|failed|interrupted)$/, { timeout: 45_000 });
  return t;
}

/**
 * The answer of the next server action (rename, feedback, …). The UI shows such changes at once (optimistic); a test
 * that reloads must first wait for the save, or a busy machine's reload cancels it.
 */
export function nextServerAction(page: Page): Promise<Response> {
  return page.waitForResponse((r) => r.request().method() === "POST" && r.request().headers()["next-action"] !== undefined);
}

export async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  const png = await page.screenshot({ path: info.outputPath(`${name}.png`) });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  writeFileSync(path.join(SCREENSHOT_DIR, `${name}.png`), png);
}

/**
 * Picks a strategy in the config strip once it has read the stored settings (data-ready): a choice made before that
 * is overwritten by them, and the turn would run with the previous strategy.
 */
export async function chooseStrategy(page: Page, strategy: string): Promise<void> {
  await expect(page.getByTestId("config-strip")).toHaveAttribute("data-ready", "true");
  const select = page.getByTestId("strategy-select");
  await select.selectOption(strategy);
  await expect(select).toHaveValue(strategy);
}

/** Uploads `files` through the upload dialog as a KG named `name` and waits until it is the KG in use. */
export async function uploadKg(page: Page, files: string, name: string): Promise<void> {
  await page.getByTestId("open-upload").click();
  const dialog = page.getByTestId("upload-dialog");
  await dialog.getByTestId("upload-files").setInputFiles(files);
  await dialog.getByRole("textbox").fill(name);
  await dialog.getByTestId("upload-submit").click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await expect(page.getByTestId("kg-select").locator("option:checked")).toContainText(name);
}

/** Adds the SPARQL endpoint at `url` through the endpoint dialog and waits until the dialog closes. */
export async function addEndpoint(page: Page, url: string): Promise<void> {
  await page.getByTestId("open-endpoint").click();
  const dialog = page.getByTestId("endpoint-dialog");
  await dialog.getByLabel("Endpoint URL").fill(url);
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** The header's Overview button (desktop; on a phone it sits in the settings sheet, the start page links the overview). */
export const overviewButton = (page: Page): Locator => page.getByTestId("open-kg-overview").filter({ visible: true }).first();

/** Opens the Advanced sheet (every parameter of the chosen strategy, each with its sentence, default and reset). */
export async function openAdvanced(page: Page): Promise<Locator> {
  await expect(page.getByTestId("config-strip").first()).toHaveAttribute("data-ready", "true");
  await page.getByTestId("open-advanced").first().click();
  const sheet = page.getByTestId("advanced-sheet");
  await expect(sheet).toBeVisible();
  return sheet;
}

/** Sets one parameter in the Advanced sheet by its label and closes the sheet (Esc). */
export async function setParameter(page: Page, label: RegExp, value: string): Promise<void> {
  const sheet = await openAdvanced(page);
  const field = sheet.getByRole("spinbutton", { name: label });
  await field.fill(value);
  await expect(field).toHaveValue(value);
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
}
