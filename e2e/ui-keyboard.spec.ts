// Keyboard only: Tab reaches the question box (a skip link first), Enter sends, focus is visible, Esc closes dialogs.
import { expect, test, type Page } from "@playwright/test";
import { FIGURE1, turn } from "./chat-page";

/** True when the focused element shows a focus indicator (the ring is a box-shadow, or an outline). */
async function focusVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const cs = getComputedStyle(el);
    return el.matches(":focus-visible") && (cs.boxShadow !== "none" || (cs.outlineStyle !== "none" && cs.outlineWidth !== "0px"));
  });
}

test("Tab to the question box, Enter sends, dialogs close with Esc and give focus back", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("send-button")).toBeDisabled(); // empty box
  // the first Tab stop is the skip link, shown when focused
  await page.keyboard.press("Tab");
  const skip = page.getByTestId("skip-to-question");
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  expect(await focusVisible(page)).toBe(true);
  await page.keyboard.press("Enter");
  const input = page.getByTestId("question-input");
  await expect(input).toBeFocused();
  expect(await focusVisible(page)).toBe(true);

  // Enter sends (Shift+Enter would add a line)
  await page.keyboard.type("Who is");
  await page.keyboard.press("Shift+Enter");
  await expect(input).toHaveValue("Who is\n");
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(FIGURE1[0].q);
  await expect(page.getByTestId("send-button")).toBeEnabled();
  await page.keyboard.press("Enter");
  const t = turn(page, 0);
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 45_000 });
  await expect(t.getByTestId("answer")).toContainText(FIGURE1[0].expect);
  await expect(input).toHaveValue("");

  // reaching the question box with Tab alone (no skip link) also works, within a bounded number of stops
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await input.evaluate((el) => el === document.activeElement);
    // every stop on the way shows where focus is
    if (!reached) expect(await focusVisible(page), `tab stop ${i + 1} has no visible focus`).toBe(true);
  }
  expect(reached).toBe(true);

  // the upload dialog opens from the keyboard, Esc closes it and focus returns to its button
  const upload = page.getByTestId("open-upload");
  await upload.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("upload-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("upload-dialog")).toBeHidden();
  await expect(upload).toBeFocused();

  // same for the endpoint dialog
  const endpoint = page.getByTestId("open-endpoint");
  await endpoint.focus();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("endpoint-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("endpoint-dialog")).toBeHidden();
  await expect(endpoint).toBeFocused();
});
