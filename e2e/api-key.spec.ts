// The configured LLM key must never reach the browser: no response body, header or page HTML contains it.
import { expect, test } from "@playwright/test";
import { E2E_LLM_API_KEY } from "../playwright.config";
import { ask } from "./chat-page";

test("no response body or page HTML contains the LLM API key", async ({ page }) => {
  const bodies: Promise<string>[] = [];
  page.on("response", (res) => {
    bodies.push(
      res.body().then(
        (b) => `${JSON.stringify(res.headers())}\n${b.toString("utf8")}`,
        // bodies of redirects and aborted requests cannot be read; they carry nothing to check
        () => "",
      ),
    );
  });
  await page.goto("/");
  const t = await ask(page, "Who is the author of Harry Potter?", 0);
  await expect(t.getByTestId("answer")).toContainText("J. K. Rowling");
  await t.getByTestId("show-derivation").click();
  await page.getByTestId("llm-call").first().locator("summary").click();
  await page.reload();
  await expect(page.getByTestId("turn")).toHaveCount(1);
  const exportRes = await page.request.get(`${new URL(page.url()).pathname.replace(/^\/c\//, "/api/conversations/")}/export?format=json`);
  expect(exportRes.status()).toBe(200);
  const all = [...(await Promise.all(bodies)), await page.content(), await exportRes.text()];
  expect(all.length).toBeGreaterThan(5);
  // the streamed turn (with its recorded LLM calls) is among the checked bodies
  expect(all.some((b) => b.includes("data-result"))).toBe(true);
  for (const body of all) expect(body).not.toContain(E2E_LLM_API_KEY);
});
