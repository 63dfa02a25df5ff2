// The add-endpoint dialog explains a refused URL. It runs on the e2e server without an LLM, which keeps the default
// endpoint policy (private, loopback and link-local addresses refused); the mock-LLM server allows them for
// e2e/onboarding.spec.ts's local endpoint.
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
