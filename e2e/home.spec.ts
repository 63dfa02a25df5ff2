// The home page of a fresh install with no LLM configured: it loads, names the app and says which env vars to set.
import { expect, test } from "@playwright/test";

test("home page shows the app name, the LLM setup hint and the default KG", async ({ page }, testInfo) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Chatty-KG" })).toBeVisible();

  const llm = page.getByTestId("llm-status");
  await expect(llm).toContainText("Not configured");
  const vars = llm.getByRole("list", { name: "Environment variables to set" });
  await expect(vars).toContainText("OPENAI_API_KEY");
  await expect(vars).toContainText("GOOGLE_GENERATIVE_AI_API_KEY");
  await expect(vars).toContainText("LLM_BASE_URL");

  await expect(page.getByTestId("kg-status")).toContainText("Sample KG");
  await expect(page).toHaveTitle("Chatty-KG");

  await page.screenshot({ path: testInfo.outputPath("home-light.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: testInfo.outputPath("home-dark.png"), fullPage: true });
});

test("the favicon is served", async ({ request }) => {
  const res = await request.get("/favicon.svg");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
});

test("/api/health answers ok quickly", async ({ request }) => {
  const started = Date.now();
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { ok: boolean; uptimeMs: number };
  expect(body.ok).toBe(true);
  expect(body.uptimeMs).toBeGreaterThanOrEqual(0);
  expect(Date.now() - started).toBeLessThan(2_000);
});

test("with no language model set up, Send and the starter questions are off and say why", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("question-input").fill("Who is the author of Harry Potter?");
  await expect(page.getByTestId("send-button")).toBeDisabled();
  await expect(page.getByTestId("send-disabled-reason")).toContainText("no language model is set up");
  await expect(page.getByTestId("empty-chat").getByRole("button", { name: "Who is the author of Harry Potter?" })).toBeDisabled();
  await expect(page.getByTestId("chips-disabled-reason")).toContainText("Choose one under Model in the settings");
  await page.getByTestId("question-input").press("Enter");
  await expect(page.getByTestId("turn")).toHaveCount(0);
});
