// Several runs side by side on the evaluation page: fixture runs ticked in the runs table, and (when ../shared has
// CK25) one `npm run eval` with two strategies (Chatty-KG and Triad, oracle) compared, with a screenshot.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { shot } from "./chat-page";

const RUNS_DIR = path.resolve(process.env.EVAL_RUNS_DIR?.trim() || ".data/eval");
const FIXTURES = path.join(process.cwd(), "test/fixtures/eval");
const FIXTURE_RUNS = [
  ["e2e-many-a", "run-a.json"],
  ["e2e-many-b", "run-b.json"],
  ["e2e-many-c", "run-replay.json"],
] as const;
const CK25 = path.resolve("../shared/data/ck25/graphs/prod-inst.ttl");
const CK25_OUT = path.join(RUNS_DIR, "e2e-ck25-oracle");
const CK25_RUNS = ["chatty-kg", "triad"].map((s) => `e2e-ck25-oracle-${s}`);

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  for (const [dir, file] of FIXTURE_RUNS) {
    mkdirSync(path.join(RUNS_DIR, dir), { recursive: true });
    cpSync(path.join(FIXTURES, file), path.join(RUNS_DIR, dir, "result.json"));
  }
});

test.afterAll(() => {
  for (const dir of [...FIXTURE_RUNS.map(([d]) => d), ...CK25_RUNS]) rmSync(path.join(RUNS_DIR, dir), { recursive: true, force: true });
});

async function compare(page: Page, refs: string[]) {
  await page.goto("/eval");
  for (const ref of refs) await page.locator(`[data-testid=run-row][data-ref="${ref}"]`).getByTestId("run-select").check();
  await page.getByTestId("compare-many-submit").click();
  // the form sends the ticked runs in the table's order (newest first)
  await expect(page).toHaveURL(/\/eval\/compare\?run=/);
  for (const ref of refs) expect(new URL(page.url()).searchParams.getAll("run")).toContain(ref);
  await expect(page.getByRole("heading", { level: 1, name: `Compare ${refs.length} runs` })).toBeVisible();
}

test("three runs ticked in the runs table compare side by side: metrics with the best marked, F1 by type, per question", async ({ page }) => {
  await compare(page, FIXTURE_RUNS.map(([d]) => d));
  await expect(page.getByTestId("compared-run")).toHaveCount(3);
  const f1 = page.locator("[data-testid=many-metric][data-metric=f1All]").getByTestId("many-metric-value");
  await expect(f1).toHaveCount(3);
  expect((await f1.allInnerTexts()).map((t) => t.replace(/\s*\(best\)/, "").trim()).sort()).toEqual(["0.556", "0.709", "0.714"]);
  // the best F1 (0.714, fixture run A) is marked, and only it
  await expect(f1.filter({ hasText: "0.714" })).toHaveClass(/text-success/);
  await expect(page.locator("[data-testid=many-metric][data-metric=f1All] .text-success")).toHaveCount(1);
  // a replay of another dataset: the page says questions line up by id only
  await expect(page.getByRole("note").filter({ hasText: "different datasets" })).toBeVisible();
  // the two hand-written runs are named as test fixtures; the replay (a real run on a fixture KG) is not
  const fixtures = page.getByTestId("fixture-note");
  await expect(fixtures).toContainText("never measured");
  await expect(fixtures).toContainText("fixture-a-sample-demo-chatty-kg");
  await expect(fixtures).toContainText("fixture-b-sample-demo-chatty-kg");
  await expect(fixtures).not.toContainText("replay");
  await expect(page.getByTestId("many-by-type-row")).toHaveCount(3);
  await expect(page.getByTestId("chart-many-f1-by-type")).toBeVisible();
  await expect(page.getByTestId("many-question")).toHaveCount(14);
});

test.describe(() => {
  test.skip(!existsSync(CK25), `CK25 not found at ${CK25}`);

  test("one npm run eval with two strategies on CK25 (oracle ceilings), compared on the eval page", async ({ page }, info) => {
    test.setTimeout(240_000);
    const args = ["scripts/eval.ts", "--dataset", "ck25", "--kg", CK25, "--strategy", "chatty-kg,triad", "--llm", "oracle", "--out", CK25_OUT];
    const stdout = execFileSync(path.join(process.cwd(), "node_modules/.bin/tsx"), args, { encoding: "utf8", timeout: 200_000, env: { ...process.env, EMBEDDING_ALLOW_REMOTE: "false" } });
    expect(stdout).toMatch(/^\| triad \| single \| [\d.]+ \| \d+\/50 \|/m);
    // the two runs of that one command, in a fixed order: Chatty-KG (A), Triad (B)
    await page.goto(`/eval/compare?${CK25_RUNS.map((r) => `run=${r}`).join("&")}`);
    await expect(page.getByTestId("compared-run").first()).toContainText("Chatty-KG");
    await expect(page.getByTestId("compared-run").nth(1)).toContainText("Triad");
    // Triad's ceiling is the higher F1 here
    await expect(page.locator("[data-testid=many-metric][data-metric=f1All] td").nth(1)).toHaveClass(/text-success/);
    await expect(page.getByTestId("many-by-shape-row").first()).toBeVisible();
    await expect(page.getByTestId("chart-many-f1-by-shape")).toBeVisible();
    await shot(page, info, "eval-compare-ck25-chatty-kg-vs-triad");
  });
});
