// The theme toggle is remembered across reloads and applied before the first paint (no light flash in dark mode).
import { expect, test } from "@playwright/test";

test("dark theme persists across a reload and is on <html> before the first frame", async ({ page }) => {
  // record <html>'s class at the first animation frame, i.e. before anything is painted
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { __firstFrameClass: string }).__firstFrameClass = document.documentElement.className;
    });
  });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  const html = page.locator("html");
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("aria-label", "Switch to light theme");
  const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { __firstFrameClass?: string }).__firstFrameClass)).toMatch(/\bdark\b/);
  await expect(html).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(darkBg);
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("aria-label", "Switch to light theme");

  // back to light: also remembered, even though the system prefers dark now
  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveClass(/\blight\b/);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { __firstFrameClass?: string }).__firstFrameClass)).toMatch(/\blight\b/);
  await expect(html).not.toHaveClass(/\bdark\b/);
});
