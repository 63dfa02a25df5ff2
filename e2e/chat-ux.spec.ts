// The chat a person meets (issue 29), at 1440×900 and 390×844: which KG and strategy are in use, a finished turn with
// its derivation, the Advanced sheet (a sentence, default and reset per parameter), errors in words with the code in a
// details line, a question past the limit kept, the KG switch asked, keyboard shortcuts, and a header that fits.
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ask, FIGURE1, openAdvanced, shot, turn, uploadKg } from "./chat-page";

const FIXTURES = path.join(process.cwd(), "test/fixtures/e2e");
const SIZES = [
  { name: "1440", viewport: { width: 1440, height: 900 } },
  { name: "390", viewport: { width: 390, height: 844 } },
] as const;

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The settings controls: in the header on a desktop, in the Settings sheet on a phone (opened here). */
async function settings(page: Page, phone: boolean) {
  if (!phone) return page.getByTestId("chat-header");
  await page.getByTestId("open-settings").click();
  const sheet = page.getByTestId("settings-sheet");
  await expect(sheet).toBeVisible();
  return sheet;
}

for (const size of SIZES) {
  test.describe(`at ${size.name} px`, () => {
    test.use({ viewport: size.viewport });
    const phone = size.viewport.width < 768;

    test("start page, a finished turn with its derivation, the Advanced sheet and an error", async ({ page }, info) => {
      test.setTimeout(120_000);
      await page.goto("/");
      // the start page names the KG in use and the strategy; the header fits
      await expect(page.getByTestId("kg-in-use")).toContainText("Sample KG");
      await expect(page.getByTestId("empty-chat").getByRole("button", { name: FIGURE1[0].q })).toBeEnabled();
      const header = (await page.getByTestId("chat-header").boundingBox())!;
      expect(header.height / size.viewport.height).toBeLessThanOrEqual(0.15);
      expect(header.height, "one row").toBeLessThan(60);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await expect(page.getByTestId("strategy-in-use")).toContainText("Answered with the Chatty-KG strategy");
      if (phone) await expect(page.getByTestId("phone-kg")).toHaveText("Sample KG");
      else await expect(page.getByTestId("strategy-select")).toHaveValue("chatty-kg");
      await shot(page, info, `ux-01-start-${size.name}`);

      // a finished turn says where it came from; its derivation beside it (a drawer on the phone)
      const t = await ask(page, FIGURE1[0].q, 0);
      await expect(t.getByTestId("answer")).toContainText(FIGURE1[0].expect);
      await expect(t.getByTestId("turn-origin")).toHaveText("Sample KG · Chatty-KG · mock");
      if (phone) await t.getByTestId("show-derivation").click();
      const derivation = page.getByTestId("derivation");
      await expect(derivation.locator("[data-testid=stage-card][data-stage=execution]")).toHaveAttribute("data-state", "done");
      // the QIR's edge label sits beside its arrow, not on it
      const label = (await derivation.getByTestId("qir-edge-label").first().boundingBox())!;
      const edge = (await derivation.getByTestId("qir-edge").first().locator("path").boundingBox())!;
      expect(label.y + label.height).toBeLessThanOrEqual(edge.y + 1);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, info, `ux-02-turn-derivation-${size.name}`);
      if (phone) await page.keyboard.press("Escape");

      // the Advanced sheet: the strategy's parameters, each with a sentence, its default and a reset
      if (phone) {
        const sheet = await settings(page, true);
        await sheet.getByTestId("open-advanced").click();
      } else await openAdvanced(page);
      const advanced = page.getByTestId("advanced-sheet");
      await expect(advanced).toBeVisible();
      const vlimit = advanced.locator("[data-testid=parameter][data-key=vlimit]");
      await expect(vlimit).toContainText("How many KG entities the label search returns");
      await expect(vlimit.getByTestId("parameter-default")).toHaveText("Default: 600");
      await vlimit.getByRole("spinbutton").fill("50");
      await expect(vlimit.getByTestId("parameter-default")).toHaveText("Changed — default 600");
      await expect(advanced).toContainText("1 changed from the default.");
      await shot(page, info, `ux-03-advanced-${size.name}`);
      await vlimit.getByRole("button", { name: /Reset Candidate entities per name to 600/ }).click();
      await expect(vlimit.getByRole("spinbutton")).toHaveValue("600");
      await expect(advanced).toContainText("All at their defaults.");
      await page.keyboard.press("Escape");
      await expect(advanced).toBeHidden();

      // an error in words: a model server this server may not call is refused before anything is saved
      const box = phone ? await settings(page, true) : page.getByTestId("chat-header");
      await box.getByTestId("llm-select").selectOption("openai-compatible");
      await box.getByRole("textbox", { name: "LLM base URL" }).fill("http://10.1.2.3:8000/v1");
      await box.getByRole("textbox", { name: "LLM model" }).fill("some-model");
      if (phone) await page.keyboard.press("Escape");
      const failed = await ask(page, FIGURE1[1].q, 1);
      await expect(failed).toHaveAttribute("data-status", "failed");
      const error = failed.getByTestId("turn-error");
      await expect(error.getByTestId("error-sentence")).toHaveText("That address is not allowed from this server. Use one of the addresses the details name, or ask the operator to allow it.");
      await expect(error.getByTestId("error-details")).toContainText("url_forbidden");
      await expect(error.getByTestId("retry-turn")).toBeVisible();
      // its derivation does not offer corrections of steps that never ran
      if (!phone) await expect(page.getByTestId("rerun-status")).toHaveText(/^No step ran, so there is nothing to correct/);
      await shot(page, info, `ux-04-error-${size.name}`);
      // Edit puts the question back in the box
      await error.getByTestId("edit-turn").click();
      await expect(page.getByTestId("question-input")).toHaveValue(FIGURE1[1].q);
      await expect(page.getByTestId("question-input")).toBeFocused();
    });
  });
}

test("a question past the limit is refused with a sentence and kept; the counter shows near the limit", async ({ page }) => {
  await page.goto("/");
  const input = page.getByTestId("question-input");
  await input.fill("Who is the author of Harry Potter? ".repeat(90)); // ~3,150 characters: no counter yet
  await expect(page.getByTestId("question-counter")).toHaveCount(0);
  const long = "x".repeat(4_100);
  await input.fill(long);
  await expect(page.getByTestId("question-counter")).toHaveText("4,100 / 4,000");
  await expect(page.getByTestId("question-too-long")).toContainText("Shorten it by 100");
  await expect(page.getByTestId("send-button")).toBeDisabled();
  await input.press("Enter");
  await expect(page.getByTestId("turn")).toHaveCount(0);
  await expect(input).toHaveValue(long);
  // shortened to the limit: it can be sent
  await input.press("End");
  for (let i = 0; i < 100; i++) await input.press("Backspace");
  await expect(page.getByTestId("question-counter")).toHaveText("4,000 / 4,000");
  await expect(page.getByTestId("send-button")).toBeEnabled();
});

test("switching KG in a conversation asks; a new conversation is the default and the start page follows the KG", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  // an upload on an empty chat needs no question: it becomes the KG in use, and the start page says what was loaded
  await uploadKg(page, path.join(FIXTURES, "zorblax.ttl"), "Zorblax graph");
  await expect(page.getByTestId("chat-notice")).toHaveText(/KG ‘Zorblax graph’ loaded: [\d,]+ triples from 1 file\. It is the KG in use now\./);
  await expect(page.getByTestId("kg-in-use")).toContainText("Zorblax graph");
  // no other KG's questions on its start page
  await expect(page.getByTestId("starter-chip")).toHaveCount(0);
  await expect(page.getByTestId("empty-chat").getByRole("button", { name: FIGURE1[0].q })).toHaveCount(0);
  const t = await ask(page, "Who wrote the Zorblax Codex?", 0);
  await expect(t.getByTestId("answer")).toContainText("Ada Testwright");
  await expect(t.getByTestId("turn-origin")).toContainText("Zorblax graph · Chatty-KG");

  // back to the sample KG: asked first, and New conversation (the default button) starts an empty chat on it
  await page.getByTestId("kg-select").selectOption("sample");
  const ask_ = page.getByTestId("kg-switch-dialog");
  await expect(ask_).toContainText("Ask “Sample KG” in a new conversation?");
  await expect(ask_.getByTestId("kg-switch-new")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("turn")).toHaveCount(0);
  await expect(page.getByTestId("kg-in-use")).toContainText("Sample KG");
  await expect(page.getByTestId("empty-chat").getByRole("button", { name: FIGURE1[0].q })).toBeVisible();
  // the history names each conversation's KG, under the day it was active
  const day = page.getByTestId("history-day").first();
  await expect(day.locator("h3")).toHaveText("Today");
  await expect(day.getByTestId("history-item-meta").first()).toContainText("Zorblax graph ·");
});

test("keyboard: / focuses the question box, Ctrl+Shift+O starts a new chat, Esc closes the sheet; the side panel resizes", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("heading", { name: "Ask a knowledge graph" }).click();
  await page.keyboard.press("/");
  await expect(page.getByTestId("question-input")).toBeFocused();
  await expect(page.getByTestId("question-input")).toHaveValue("");
  const t = await ask(page, FIGURE1[0].q, 0);
  await expect(t).toHaveAttribute("data-status", "done");
  await page.getByTestId("question-input").blur();
  await page.keyboard.press("Control+Shift+O");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("turn")).toHaveCount(0);

  await page.getByTestId("open-advanced").click();
  await expect(page.getByTestId("advanced-sheet")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("advanced-sheet")).toBeHidden();
  await expect(page.getByTestId("open-advanced")).toBeFocused();

  // the derivation column: wider with the arrow keys on its edge (remembered), and maximised over the chat
  const side = page.getByTestId("derivation-drawer");
  const before = (await side.boundingBox())!.width;
  await page.getByTestId("side-resize").focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  await expect.poll(async () => (await side.boundingBox())!.width).toBeGreaterThan(before + 50);
  await page.reload();
  await expect.poll(async () => (await side.boundingBox())!.width).toBeGreaterThan(before + 50);
  await page.getByTestId("side-maximise").click();
  await expect(page.getByRole("main")).toBeHidden();
  await page.getByTestId("side-maximise").click();
  await expect(page.getByRole("main")).toBeVisible();
});

test("one Copy for the whole answer, and Ask again runs it as a new attempt with the current settings", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  const t = await ask(page, FIGURE1[0].q, 0);
  await t.getByRole("button", { name: "Copy the whole answer" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("J. K. Rowling");
  await t.getByTestId("ask-again").click();
  await expect(t).toHaveAttribute("data-attempts", "2");
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 45_000 });
  await expect(t.getByTestId("attempt-label")).toContainText("Asked again with the settings of that moment");
  await expect(t.getByTestId("answer")).toContainText(FIGURE1[0].expect);
  await expect(turn(page, 0).getByTestId("attempt-button")).toHaveCount(2);
});

test("nothing in the header is cut off at 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(page.getByTestId("config-strip")).toHaveAttribute("data-ready", "true");
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  const header = page.getByTestId("chat-header");
  // one row at 1440; at 1280 the settings may wrap to a second row, but never past it and never cut
  expect((await header.boundingBox())!.height).toBeLessThan(100);
  for (const id of ["kg-select", "strategy-select", "llm-select", "open-advanced", "export-menu", "theme-toggle"]) {
    const box = (await header.getByTestId(id).first().boundingBox())!;
    expect(box.x + box.width, id).toBeLessThanOrEqual(1280);
  }
  // the names in the selects fit their boxes (a native select cuts its text silently): every strategy, model choice
  // and mode, and the KG in use
  for (const [id, all] of [["kg-select", false], ["llm-select", true], ["strategy-select", true], ["mode-select", true]] as const) {
    const cut = await header.getByTestId(id).evaluate((el: HTMLSelectElement, every: boolean) => {
      const probe = document.createElement("span");
      probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${getComputedStyle(el).font}`;
      document.body.append(probe);
      const texts = every ? [...el.options].map((o) => o.text) : [el.options[el.selectedIndex]?.text ?? ""];
      const tooWide = texts.filter((t) => {
        probe.textContent = t;
        return probe.getBoundingClientRect().width > el.clientWidth - 28; // the chevron's padding
      });
      probe.remove();
      return tooWide;
    }, all);
    expect(cut, id).toEqual([]);
  }
});
