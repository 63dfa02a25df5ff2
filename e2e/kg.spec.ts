// Knowledge graphs from the browser: a malformed upload names the file and line; an uploaded graph answers the next question.
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ask, shot } from "./chat-page";

const FIXTURES = path.join(process.cwd(), "test/fixtures/e2e");

test("a malformed RDF upload shows the error with file and line", async ({ page }, info) => {
  await page.goto("/");
  await page.getByTestId("open-upload").click();
  const dialog = page.getByTestId("upload-dialog");
  await dialog.getByTestId("upload-files").setInputFiles(path.join(FIXTURES, "malformed.ttl"));
  await dialog.getByTestId("upload-submit").click();
  const error = dialog.getByTestId("upload-error");
  await expect(error).toContainText("malformed.ttl");
  await expect(error).toContainText(/line 3/);
  await shot(page, info, "07-upload-error");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("switching to an uploaded KG makes the next answer come from it", async ({ page }) => {
  await page.goto("/");
  // the sample KG does not know the Zorblax Codex
  await page.getByTestId("open-upload").click();
  const dialog = page.getByTestId("upload-dialog");
  await dialog.getByTestId("upload-files").setInputFiles(path.join(FIXTURES, "zorblax.ttl"));
  await dialog.getByRole("textbox").fill("Zorblax graph");
  await dialog.getByTestId("upload-submit").click();
  await expect(dialog).toBeHidden();
  // the upload button gets the focus back, but its tooltip does not stand over the page (only keyboard focus shows it)
  await page.waitForTimeout(800);
  await expect(page.getByRole("tooltip")).toHaveCount(0);
  const select = page.getByTestId("kg-select");
  await expect(select.locator("option:checked")).toContainText("Zorblax graph");

  const t = await ask(page, "Who wrote the Zorblax Codex?", 0);
  await expect(t.getByTestId("answer")).toContainText("Ada Testwright");

  await expect(t.getByTestId("turn-origin")).toContainText("Zorblax graph");

  // back to the sample KG in a conversation with a turn: asked first; continuing keeps the conversation
  await select.selectOption("sample");
  await page.getByTestId("kg-switch-continue").click();
  // the choice is remembered for the next question and survives a reload
  await page.reload();
  await expect(page.getByTestId("kg-select").locator("option:checked")).toContainText("Sample KG");
  const t2 = await ask(page, "Who wrote the Zorblax Codex?", 1);
  // the sample KG has no such book: the turn says so (no answer, or a failure naming the stage) instead of Ada Testwright
  await expect(t2).not.toContainText("Ada Testwright");
  await expect(t2.locator("[data-testid=turn-error], [data-testid=answer][data-kind=none]")).toBeVisible();
  // the chat marks where the KG changed, and each turn says which KG answered it
  await expect(page.getByTestId("kg-switch-mark")).toHaveText(/From here on: Sample KG \(was Zorblax graph\)/);
  await expect(t2.getByTestId("turn-origin")).toContainText("Sample KG");
});

test("a label-less TriG upload answers, and the derivation shows which name matched", async ({ page }, info) => {
  await page.goto("/");
  // no rdfs:label anywhere: the lamp is a urn:uuid named only in lt:callName, its keeper only by a CamelCase IRI
  await page.getByTestId("open-upload").click();
  const dialog = page.getByTestId("upload-dialog");
  await dialog.getByTestId("upload-files").setInputFiles(path.join(FIXTURES, "lanterns.trig"));
  await dialog.getByRole("textbox").fill("Lantern graph");
  await dialog.getByTestId("upload-submit").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("kg-select").locator("option:checked")).toContainText("Lantern graph");

  const t = await ask(page, "Who tends the Marigold Lantern?", 0);
  await expect(t.getByTestId("answer")).toContainText("Wren Haldane");
  await expect(t).not.toContainText(/Ilse ?Moravec/);

  await t.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  const mention = derivation.locator("[data-testid=mention-candidates][data-mention='Marigold Lantern']");
  const chosen = mention.locator("[data-testid=vertex-candidate][data-chosen]");
  await expect(chosen).toContainText("Marigold Lantern");
  await expect(chosen.getByTestId("candidate-matched")).toContainText(/matched “Marigold Lantern” via .*callName/);
  await shot(page, info, "08-label-less-trig");
});
