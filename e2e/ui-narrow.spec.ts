// Narrow screens (800 px): history and derivation are drawers that open and close, and nothing scrolls sideways;
// an open drawer takes focus, keeps Tab inside, and gives focus back to what opened it when it closes.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ask, FIGURE1, shot } from "./chat-page";

test.use({ viewport: { width: 800, height: 900 } });

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Whether keyboard focus is on an element inside `drawer`. */
async function focusInside(drawer: Locator): Promise<boolean> {
  return drawer.evaluate((el) => el.contains(document.activeElement));
}

/** Presses Tab (or Shift+Tab) `times` times and checks after each press that focus is still inside `drawer`. */
async function expectTabStaysInside(page: Page, drawer: Locator, key: "Tab" | "Shift+Tab", times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key);
    expect(await focusInside(drawer), `${key} #${i + 1} left the drawer`).toBe(true);
  }
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
  // focus moved into the drawer, onto its first element, and Tab / Shift+Tab cycle inside it (New chat, search box)
  await expect(history.getByTestId("new-chat")).toBeFocused();
  await expectTabStaysInside(page, history, "Tab", 4);
  await expectTabStaysInside(page, history, "Shift+Tab", 4);
  const box = await history.boundingBox();
  expect(box?.x).toBe(0);
  expect(box!.width).toBeLessThan(800);
  await shot(page, info, "10-narrow-history-drawer");
  await page.getByTestId("drawer-backdrop").click({ position: { x: 700, y: 450 } });
  await expect(history).toBeHidden();
  await expect(page.getByTestId("open-history")).toBeFocused();

  // history drawer again, keyboard only: Enter on the toggle opens it with focus inside, Esc closes it, focus returns
  await page.getByTestId("open-history").focus();
  await page.keyboard.press("Enter");
  await expect(history).toBeVisible();
  await expect(history.getByTestId("new-chat")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();
  await expect(page.getByTestId("open-history")).toBeFocused();

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
  // focus is on the drawer's first element (the active tab) and Tab cannot leave the drawer
  await expect(derivation.getByRole("tab", { name: "Derivation" })).toBeFocused();
  await expectTabStaysInside(page, derivation, "Tab", 6);
  await expectTabStaysInside(page, derivation, "Shift+Tab", 6);
  await derivation.getByRole("button", { name: "Close panel" }).click();
  await expect(derivation).toBeHidden();
  // closed, focus goes back to the button that opened it
  await expect(t.getByTestId("show-derivation")).toBeFocused();

  // the header button toggles it too, and Esc closes it, handing focus back to the header button
  await page.getByTestId("open-derivation").click();
  await expect(derivation).toBeVisible();
  await expect(derivation.getByRole("tab", { name: "Derivation" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(derivation).toBeHidden();
  await expect(page.getByTestId("open-derivation")).toBeFocused();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});
