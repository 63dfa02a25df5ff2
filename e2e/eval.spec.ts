// The evaluation pages: fixture runs copied into the server's runs dir (EVAL_RUNS_DIR, default .data/eval) are listed
// with their labelled macro F1, a run shows its SVG charts and question table, two runs compare, and an imported
// result file belongs to the browser that imported it.
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type BrowserContext } from "@playwright/test";

const RUNS_DIR = path.resolve(process.env.EVAL_RUNS_DIR?.trim() || ".data/eval");
const FIXTURES = path.join(process.cwd(), "test/fixtures/eval");
// names that cannot clash with real runs; removed again after the tests
const RUN_A = "e2e-fixture-run-a";
const RUN_B = "e2e-fixture-run-b";
const BROKEN = "e2e-fixture-broken";
const RUN_REPLAY = "e2e-fixture-run-replay";
const importedSessions = new Set<string>();

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  for (const [dir, file] of [
    [RUN_A, "run-a.json"],
    [RUN_B, "run-b.json"],
    [RUN_REPLAY, "run-replay.json"],
  ]) {
    mkdirSync(path.join(RUNS_DIR, dir), { recursive: true });
    cpSync(path.join(FIXTURES, file), path.join(RUNS_DIR, dir, "result.json"));
  }
  mkdirSync(path.join(RUNS_DIR, BROKEN), { recursive: true });
  writeFileSync(path.join(RUNS_DIR, BROKEN, "result.json"), '{ "version": 1, "runId": ');
});

test.afterAll(() => {
  for (const dir of [RUN_A, RUN_B, RUN_REPLAY, BROKEN]) rmSync(path.join(RUNS_DIR, dir), { recursive: true, force: true });
  for (const s of importedSessions) rmSync(path.join(RUNS_DIR, "imported", s), { recursive: true, force: true });
});

/** The session id inside the signed cookie ("<id>.<hmac>"), to clean up what this browser imported. */
async function rememberSession(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name === "ckg_session");
  if (cookie) importedSessions.add(cookie.value.slice(0, cookie.value.lastIndexOf(".")));
}

test("runs list: fixture runs with labelled macro F1, a broken file listed with its reason, reachable from the chat header", async ({ page }, info) => {
  await page.goto("/");
  await page.getByTestId("nav-eval").click();
  await expect(page).toHaveURL(/\/eval$/);
  await expect(page.getByRole("heading", { level: 1, name: "Evaluation runs" })).toBeVisible();

  const table = page.getByTestId("runs-table");
  await expect(table.getByRole("columnheader", { name: "Macro F1 (all)" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Macro F1 (answered only)" })).toBeVisible();
  const a = page.locator(`[data-testid=run-row][data-ref=${RUN_A}]`);
  await expect(a).toContainText("sample-demo");
  await expect(a).toContainText("Chatty-KG");
  await expect(a).toContainText("fixture · fixture-a");
  await expect(a.getByTestId("fixture-badge")).toHaveText("test fixture");
  await expect(a).toContainText("2 Jun 2025");
  await expect(a.getByTestId("run-f1-all")).toHaveText("0.714");
  await expect(a.getByTestId("run-f1-answered")).toContainText("0.873");
  await expect(page.locator(`[data-testid=run-row][data-ref=${RUN_B}]`).getByTestId("run-f1-all")).toHaveText("0.709");

  const broken = page.locator(`[data-testid=broken-run][data-ref=${BROKEN}]`);
  await expect(broken).toContainText("invalid");
  await expect(broken).toContainText("Not valid JSON");
  await page.screenshot({ path: info.outputPath("eval-01-runs.png"), fullPage: true });
});

test("a run: headline metrics, SVG charts with the right bars and values, filterable and sortable question table", async ({ page }, info) => {
  await page.goto("/eval");
  await page.locator(`[data-testid=run-row][data-ref=${RUN_A}]`).getByTestId("run-link").click();
  await expect(page).toHaveURL(new RegExp(`/eval/${RUN_A}$`));
  await expect(page.getByTestId("run-title")).toHaveText("fixture-a-sample-demo-chatty-kg");
  await expect(page.getByTestId("fixture-note")).toContainText("never measured");
  await expect(page.getByTestId("macro-f1-all")).toContainText("Macro F1 (all)");
  await expect(page.getByTestId("macro-f1-all-value")).toHaveText("0.714");
  await expect(page.getByTestId("macro-f1-answered")).toContainText("Macro F1 (answered only)");
  await expect(page.getByTestId("macro-f1-answered-value")).toHaveText("0.873");

  // F1 by type: 3 types × (all, answered only), drawn (ECharts) with the numbers in its data table
  const f1 = page.getByTestId("chart-f1-by-type");
  await expect(f1).toHaveAttribute("data-ready", "true");
  await expect(f1).toHaveAttribute("data-bars", "6");
  await expect(f1.getByTestId("chart-title")).toHaveText("F1 by question type");
  await expect(f1.getByTestId("chart-canvas").locator("svg")).toBeVisible();
  await f1.getByText("Show data").click();
  const f1Rows = f1.getByTestId("chart-data-row");
  await expect(f1Rows).toHaveCount(3);
  await expect(f1Rows.filter({ hasText: "count (3)" })).toHaveText(/count \(3\)\s*0\.333\s*0\.500/);
  await expect(f1.getByTestId("chart-data")).toContainText("0.810");
  await expect(f1.getByTestId("chart-data")).toContainText("0.971");

  // stage latency: one stack per type, with understanding / linking / execution segments and a total
  const stages = page.getByTestId("chart-stage-latency");
  await expect(stages).toHaveAttribute("data-bars", "3");
  await stages.getByText("Show data").click();
  await expect(stages.getByTestId("chart-data").locator("thead th")).toContainText(["", "Question understanding", "Linking", "Execution"]);
  await expect(stages.getByTestId("chart-data").locator("thead th").last()).toHaveText("Total");
  await expect(stages.getByTestId("chart-data-row").filter({ hasText: "boolean (2)" })).toContainText("850");

  // LLM calls: 3, 4, 5, 6 calls; queries: 0..8
  const llm = page.getByTestId("chart-llm-calls");
  await expect(llm).toHaveAttribute("data-bars", "4");
  await llm.getByText("Show data").click();
  await expect(llm.getByTestId("chart-data-row").locator("td")).toHaveText(["1", "6", "3", "1"]);
  await expect(page.getByTestId("chart-queries")).toHaveAttribute("data-bars", "9");
  await page.screenshot({ path: info.outputPath("eval-02-run.png"), fullPage: true });

  // the table: 11 questions, filter by type and failure, sort by F1
  const rows = page.getByTestId("question-row");
  await expect(rows).toHaveCount(11);
  await page.getByTestId("filter-type").selectOption("count");
  await expect(rows).toHaveCount(3);
  await page.getByTestId("filter-failure").selectOption("linking");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("No candidate vertex");
  await page.getByTestId("filter-type").selectOption("");
  await page.getByTestId("filter-failure").selectOption("");
  await page.getByTestId("sort-f1").click();
  await expect(rows.first().getByTestId("row-f1")).toHaveText("0.000");
  await page.getByTestId("sort-f1").click();
  await expect(rows.first().getByTestId("row-f1")).toHaveText("1.000");
  await expect(page.getByRole("columnheader", { name: "F1" })).toHaveAttribute("aria-sort", "descending");
});

test("a replay scored the official way: scoring and replay labelled, the published comparison, a table answer shown compactly", async ({ page }) => {
  await page.goto(`/eval/${RUN_REPLAY}`);
  await expect(page.getByTestId("run-scoring")).toHaveText("scoring TEXT2SPARQL official (exact values)");
  await expect(page.getByTestId("run-replay")).toContainText("replay of test/fixtures/eval/queries/tiny.json (3 queries, run as given)");
  await expect(page.getByTestId("macro-f1-all-value")).toHaveText("0.556");
  const comparison = page.getByTestId("official-comparison");
  await expect(comparison).toContainText("Per-question F1 equal on 2/3");
  await expect(comparison).toContainText("dune-ask: official F1 1.000, this run 0.000");
  // the two-column answer of "hobbit" in the question table: size, columns and its row
  await expect(page.getByTestId("question-table")).toContainText("[1 × book, a] The Hobbit | J. R. R. Tolkien");
});

test("compare two runs: metric deltas, per-type F1 side by side, per-question wins and losses", async ({ page }, info) => {
  await page.goto("/eval");
  const form = page.getByTestId("compare-form");
  await form.locator("select[name=a]").selectOption(RUN_A);
  await form.locator("select[name=b]").selectOption(RUN_B);
  await page.getByTestId("compare-submit").click();
  await expect(page).toHaveURL(new RegExp(`/eval/compare\\?a=${RUN_A}&b=${RUN_B}$`));

  const f1 = page.locator("[data-testid=metric-delta][data-metric=f1All]");
  await expect(f1).toContainText("0.714");
  await expect(f1).toContainText("0.709");
  await expect(f1.getByTestId("delta")).toContainText("−0.005");
  await expect(page.locator("[data-testid=metric-delta][data-metric=meanLlmCalls]").getByTestId("delta")).toContainText("+1.55");

  const chart = page.getByTestId("chart-compare-f1-by-type");
  await expect(chart).toHaveAttribute("data-bars", "6");
  await chart.getByText("Show data").click();
  await expect(chart.getByTestId("chart-data-row").locator("td")).toHaveText(["0.810", "0.800", "0.333", "0.667", "1.000", "0.500"]);

  await expect(page.getByTestId("fixture-note")).toContainText("fixture-a-sample-demo-chatty-kg, fixture-b-sample-demo-chatty-kg");
  await expect(page.getByTestId("outcome-tally")).toContainText("B better 3");
  await expect(page.getByTestId("outcome-tally")).toContainText("A better 3");
  await expect(page.getByTestId("outcome-tally")).toContainText("ties 5");
  await expect(page.locator("[data-testid=question-outcome][data-outcome=win]")).toHaveCount(3);
  await expect(page.locator("[data-testid=question-outcome]").filter({ hasText: "Who founded Warner Bros.?" })).toContainText("B better");
  await page.screenshot({ path: info.outputPath("eval-03-compare.png"), fullPage: true });
});

test("an imported result file belongs to this browser: another browser gets 404 and does not see it", async ({ page, browser }, info) => {
  await page.goto("/eval");
  // an invalid file is refused with the reason
  await page.getByTestId("import-file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"version":1}') });
  await expect(page.getByTestId("import-error")).toContainText("notes.json: Not a valid result file");
  const refused = await page.request.post("/eval/import", { data: "not json at all", headers: { "content-type": "application/json" } });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("bad_request");

  await page.getByTestId("import-file").setInputFiles(path.join(FIXTURES, "run-b.json"));
  await expect(page).toHaveURL(/\/eval\/imported~fixture-b-sample-demo-chatty-kg/);
  await rememberSession(page.context());
  const url = page.url();
  await expect(page.getByText("imported by you")).toBeVisible();
  await expect(page.getByTestId("macro-f1-all-value")).toHaveText("0.709");
  await page.goto("/eval");
  await expect(page.locator("[data-testid=run-row][data-ref^='imported~']")).toHaveCount(1);
  await page.screenshot({ path: info.outputPath("eval-04-imported.png"), fullPage: true });

  const other = await browser.newContext();
  try {
    const p2 = await other.newPage();
    const res = await p2.goto(url);
    expect(res?.status()).toBe(404);
    await p2.goto("/eval");
    await expect(p2.locator(`[data-testid=run-row][data-ref=${RUN_A}]`)).toBeVisible();
    await expect(p2.locator("[data-testid=run-row][data-ref^='imported~']")).toHaveCount(0);
    // path-like refs are unknown runs, not files
    expect((await p2.goto("/eval/..%2F..%2Fpackage.json"))?.status()).toBe(404);
  } finally {
    await other.close();
  }
});
