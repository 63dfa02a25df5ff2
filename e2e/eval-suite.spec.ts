// A suite run (`npm run eval -- --suite`) on the evaluation page: one run in the list, and under its headline the
// macro F1 per KG, per gold query shape and per language. The fixture is the CLI's result on the two fixture KGs of
// test/fixtures/eval/suite (question-grounded oracle, Triad), copied into the server's runs dir.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const RUNS_DIR = path.resolve(process.env.EVAL_RUNS_DIR?.trim() || ".data/eval");
const RUN = "e2e-fixture-suite";

test.beforeAll(() => {
  mkdirSync(path.join(RUNS_DIR, RUN), { recursive: true });
  cpSync(path.join(process.cwd(), "test/fixtures/eval/run-suite.json"), path.join(RUNS_DIR, RUN, "result.json"));
});
test.afterAll(() => rmSync(path.join(RUNS_DIR, RUN), { recursive: true, force: true }));

test("a suite is one run: listed once, its tables per KG, shape and language under the headline", async ({ page }, info) => {
  await page.goto("/eval");
  const row = page.locator(`[data-testid=run-row][data-ref=${RUN}]`);
  await expect(row).toContainText("suite");
  await expect(row.getByTestId("run-f1-all")).toContainText("1.000");
  await expect(row.getByTestId("run-f1-all")).toContainText("oracle: question-grounded ceiling");
  await row.getByTestId("run-link").click();
  await expect(page).toHaveURL(new RegExp(`/eval/${RUN}$`));
  await expect(page.getByTestId("suite-line")).toContainText("Suite of 2 KGs from test/fixtures/eval/suite/manifest.tsv");
  const byKg = page.getByTestId("suite-by-kg");
  await expect(byKg.getByRole("row")).toHaveCount(3);
  await expect(byKg.getByRole("row").nth(1)).toContainText("harbour");
  await expect(byKg.getByRole("row").nth(1)).toContainText("4");
  await expect(byKg.getByRole("row").nth(2)).toContainText("orchard");
  await expect(byKg.getByRole("row").nth(2)).toContainText("farming: trees");
  await expect(page.getByTestId("suite-by-shape")).toContainText("count");
  const byLang = page.getByTestId("suite-by-language");
  await expect(byLang.getByRole("row").filter({ hasText: "de" })).toContainText("1");
  await expect(page.getByTestId("question-row")).toHaveCount(6);
  await page.getByTestId("suite-tables").screenshot({ path: info.outputPath("eval-suite.png") });
});
