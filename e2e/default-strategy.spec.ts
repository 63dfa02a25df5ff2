// The default strategy as a user sees it: the Advanced sheet names it and says why, and the KG list (GET /api/kg) gives
// every KG its own. This e2e server fixes it with STRATEGY_DEFAULT=chatty-kg (its mock model plays Chatty-KG's
// dialogue, playwright.config.ts); the rule from evaluation runs is tested in lib/server/default-strategy.test.ts.
import { expect, test } from "@playwright/test";
import { openAdvanced } from "./chat-page";

test("the settings name the default strategy and why; every listed KG carries its own", async ({ page }, info) => {
  await page.goto("/");
  const sheet = await openAdvanced(page);
  await expect(sheet.getByTestId("default-strategy")).toHaveText("Default strategy: Chatty-KG — chosen because the server's STRATEGY_DEFAULT setting names it");
  await sheet.screenshot({ path: info.outputPath("default-strategy.png") });
  const list = (await (await page.request.get("/api/kg")).json()) as { kgs: { id: string; defaultStrategy?: { strategy: string; source: string } }[] };
  expect(list.kgs[0]).toMatchObject({ id: "sample", defaultStrategy: { strategy: "chatty-kg", source: "setting" } });
});
