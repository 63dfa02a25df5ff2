// The add-endpoint dialog explains a refused URL; the upload dialog shows a progress bar while the bytes go up.
import { expect, test } from "@playwright/test";

test("adding a loopback SPARQL endpoint is refused with the reason, in the dialog", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("open-endpoint").click();
  const dialog = page.getByTestId("endpoint-dialog");
  await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill("http://127.0.0.1:9/sparql");
  await dialog.getByRole("button", { name: "Add" }).click();
  const error = dialog.getByRole("alert");
  await expect(error).toContainText("127.0.0.1:9");
  await expect(error).toContainText(/private, loopback or link-local/);
  // the dialog stays open with the URL kept, so it can be corrected; nothing was added to the KG list
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "Endpoint URL" })).toHaveValue("http://127.0.0.1:9/sparql");
  await expect(page.getByTestId("kg-select").locator("option", { hasText: "127.0.0.1" })).toHaveCount(0);
});

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
