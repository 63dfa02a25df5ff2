// Narrow screens (800 px): history and derivation are drawers that open and close, and nothing scrolls sideways.
import { expect, test, type Page } from "@playwright/test";
import { ask, FIGURE1, shot } from "./chat-page";

test.use({ viewport: { width: 800, height: 900 } });

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test("history and derivation open and close as drawers at 800 px, without horizontal scroll", async ({ page }, info) => {
  await page.goto("/");
  const history = page.getByTestId("history-drawer");
  const derivation = page.getByTestId("derivation-drawer");
  // both side panels are hidden until asked for; the chat takes the width
  await expect(history).toBeHidden();
  await expect(derivation).toBeHidden();
  await expect(page.getByTestId("question-input")).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  // history drawer: opens from the header button, closes on the backdrop
  await page.getByTestId("open-history").click();
  await expect(history).toBeVisible();
  await expect(page.getByTestId("open-history")).toHaveAttribute("aria-expanded", "true");
  await expect(history.getByTestId("new-chat")).toBeVisible();
  const box = await history.boundingBox();
  expect(box?.x).toBe(0);
  expect(box!.width).toBeLessThan(800);
  await shot(page, info, "10-narrow-history-drawer");
  await page.getByTestId("drawer-backdrop").click({ position: { x: 700, y: 450 } });
  await expect(history).toBeHidden();

  // history drawer again: Esc closes it
  await page.getByTestId("open-history").click();
  await expect(history).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();

  // a turn's "How it was derived" opens the derivation drawer (on the right); its close button closes it
  const t = await ask(page, FIGURE1[0].q, 0);
  await expect(t.getByTestId("answer")).toContainText(FIGURE1[0].expect);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await t.getByTestId("show-derivation").click();
  await expect(derivation).toBeVisible();
  await expect(derivation.getByTestId("derivation")).toContainText(FIGURE1[0].q);
  const dbox = await derivation.boundingBox();
  expect(Math.round(dbox!.x + dbox!.width)).toBe(800);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await shot(page, info, "11-narrow-derivation-drawer");
  await derivation.getByRole("button", { name: "Close panel" }).click();
  await expect(derivation).toBeHidden();

  // the header button toggles it too, and Esc closes it
  await page.getByTestId("open-derivation").click();
  await expect(derivation).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(derivation).toBeHidden();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});
