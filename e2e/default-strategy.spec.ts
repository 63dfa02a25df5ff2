// The default strategy from evidence, as a user sees it: the Advanced sheet names it and says why, and the KG list
// (GET /api/kg) gives every KG its own default with the reason. This server's runs folder holds no real-model
// evaluation runs of the default KG, so it is the documented default.
import { expect, test } from "@playwright/test";
import { openAdvanced } from "./chat-page";

test("the settings name the default strategy and why; every listed KG carries its own", async ({ page }, info) => {
  await page.goto("/");
  const sheet = await openAdvanced(page);
  const line = sheet.getByTestId("default-strategy");
  await expect(line).toContainText("Default strategy: Explorer — chosen because it is the documented default");
  await expect(line).toContainText("no evaluation runs of this KG with a real model compare strategies yet");
  await sheet.screenshot({ path: info.outputPath("default-strategy.png") });
  const list = (await (await page.request.get("/api/kg")).json()) as { kgs: { id: string; defaultStrategy?: { strategy: string; source: string } }[] };
  expect(list.kgs[0]).toMatchObject({ id: "sample", defaultStrategy: { strategy: "explorer", source: "documented" } });
});
