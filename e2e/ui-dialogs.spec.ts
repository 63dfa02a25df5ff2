// The upload dialog shows a progress bar while the bytes go up. (The add-endpoint dialog's refusal of a private URL is
// e2e/endpoint-policy.spec.ts, on the server that keeps private endpoints refused.)
import { expect, test } from "@playwright/test";

test("the upload dialog shows a progress bar while the file uploads, then selects the new graph", async ({ page }) => {
  await page.goto("/");
  // slow the upload down (CDP network throttling) so the progress bar is on screen long enough to see
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 50, downloadThroughput: -1, uploadThroughput: 400 * 1024 });
  const lines = ["@prefix ex: <http://example.org/progress/> ."];
  for (let i = 0; i < 12_000; i++) lines.push(`ex:item${i} ex:label "Progress test item number ${i} with some padding text" .`);
  const body = Buffer.from(lines.join("\n") + "\n", "utf8");
  expect(body.length).toBeGreaterThan(700_000);

  await page.getByTestId("open-upload").click();
  const dialog = page.getByTestId("upload-dialog");
  await dialog.getByTestId("upload-files").setInputFiles({ name: "progress.ttl", mimeType: "text/turtle", buffer: body });
  await dialog.getByRole("textbox").fill("Progress graph");
  await dialog.getByTestId("upload-submit").click();
  const bar = dialog.getByRole("progressbar", { name: "Upload progress" });
  await expect(bar).toBeVisible();
  await expect(dialog.getByTestId("upload-submit")).toBeDisabled();
  const percent = Number(await bar.getAttribute("aria-valuenow"));
  expect(percent).toBeGreaterThanOrEqual(0);
  expect(percent).toBeLessThanOrEqual(100);

  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(dialog).toBeHidden({ timeout: 45_000 });
  await expect(page.getByTestId("kg-select").locator("option:checked")).toContainText("Progress graph");
});
