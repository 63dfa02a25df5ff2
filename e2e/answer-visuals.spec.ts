// Every kind of answer as people see it, at 1440×900 and 390×844 (screenshots answer-<kind>-desktop/phone.png): a
// table, a bar chart, a line chart, a scatter plot, a number, yes/no, no answer, a list, and an entity answer with the
// graph of the facts behind it. Until the graph can be drawn there is one line saying it is loading (never an empty box
// with export buttons); "Show data" under a chart stays closed until clicked.
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { ask, chooseStrategy, shot } from "./chat-page";

const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function shots(page: Page, info: TestInfo, name: string, target: Locator) {
  for (const s of SIZES) {
    await page.setViewportSize({ width: s.width, height: s.height });
    await page.waitForTimeout(400); // charts redraw on resize
    await target.scrollIntoViewIfNeeded();
    await shot(page, info, `${name}-${s.name}`);
    // nothing in the answer is wider than the page (no sideways scrolling on a phone)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${s.name} overflows the page by ${overflow}px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** "Show data" under a chart is closed until clicked; clicking it shows the chart's rows. */
async function showDataStartsClosed(chart: Locator, firstRow: string) {
  await expect(chart.getByText("Show data")).toBeVisible();
  await expect(chart.getByTestId("chart-data")).toBeHidden();
  await chart.getByText("Show data").click();
  await expect(chart.getByTestId("chart-data-row").first()).toContainText(firstRow);
  await chart.getByText("Show data").click();
  await expect(chart.getByTestId("chart-data")).toBeHidden();
}

test("an entity answer: one loading line until the facts are there, then a small graph; Show data closed", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // any moment an export button is on the page while its chart is not drawn yet is recorded
  await page.addInitScript(() => {
    const w = window as unknown as { earlyExports: number };
    w.earlyExports = 0;
    new MutationObserver(() => {
      for (const b of document.querySelectorAll('[data-testid="export-png"], [data-testid="export-svg"]')) if (!b.closest("figure")?.hasAttribute("data-ready")) w.earlyExports++;
    }).observe(document, { childList: true, subtree: true, attributes: true });
  });
  // the provenance (the facts behind the answer) is held back until the test lets it through
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/api/turns/*/provenance*", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  const t = await ask(page, "Who is the author of Harry Potter?", 0);
  await expect(t).toHaveAttribute("data-status", "done");
  const box = t.getByTestId("answer-graph-box");
  await expect(box).toHaveText("Loading the facts behind the answer…");
  await expect(box.getByTestId("export-png")).toHaveCount(0);
  await expect(box.getByTestId("chart-canvas")).toHaveCount(0);
  await shot(page, info, "answer-graph-loading-desktop");
  release();

  const graph = t.getByTestId("answer-graph");
  await expect(graph).toHaveAttribute("data-ready", "true");
  await expect(graph.getByTestId("chart-canvas")).toContainText("J. K. Rowling");
  await expect(graph.getByTestId("export-png")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { earlyExports: number }).earlyExports)).toBe(0);
  // one fact: a small graph, not a page-wide canvas around two nodes
  const size = await graph.boundingBox();
  expect(size!.width).toBeLessThanOrEqual(480);
  expect(size!.height).toBeLessThanOrEqual(260);
  await showDataStartsClosed(graph, "J. K. Rowling");
  await shots(page, info, "answer-graph", t);
});

test("every answer view at 1440 and 390 px: charts drawn, switches work, Show data closed, nothing overflows", async ({ page }, info) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "one-shot-sparql");
  let i = 0;
  const next = async (question: string) => {
    const t = await ask(page, question, i++);
    await expect(t).toHaveAttribute("data-status", "done");
    return t;
  };

  // a table with no number to draw: the table itself, no switch
  let t = await next("Which films are there, with their director and release date?");
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "table");
  await expect(t.getByTestId("view-switch")).toHaveCount(0);
  await shots(page, info, "answer-table", t);

  // label + number: bars
  t = await next("How many films are there per genre?");
  let chart = t.getByTestId("answer-chart");
  await expect(chart).toHaveAttribute("data-view", "bar");
  await expect(chart).toHaveAttribute("data-ready", "true");
  await showDataStartsClosed(chart, "fantasy film");
  // on a phone the longest genre name is still written whole beside its bar
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(chart.getByTestId("chart-canvas").locator("svg text").filter({ hasText: /^science fiction film$/ })).toHaveCount(1);
  await page.setViewportSize({ width: 1440, height: 900 });
  await shots(page, info, "answer-bar", t);

  // year + number: a line
  t = await next("How many films were released per year?");
  chart = t.getByTestId("answer-chart");
  await expect(chart).toHaveAttribute("data-view", "line");
  await expect(chart).toHaveAttribute("data-ready", "true");
  await showDataStartsClosed(chart, "1990");
  await shots(page, info, "answer-line", t);

  // two numbers per book: bars first, the scatter one click away
  t = await next("How many pages does each Harry Potter book have, by its place in the series?");
  await expect(t.getByTestId("result-visual")).toHaveAttribute("data-view", "bar");
  await t.getByTestId("view-option").filter({ hasText: "Scatter plot" }).click();
  chart = t.getByTestId("answer-chart");
  await expect(chart).toHaveAttribute("data-view", "scatter");
  await expect(chart).toHaveAttribute("data-ready", "true");
  await expect(chart).toHaveAttribute("data-points", "7");
  await showDataStartsClosed(chart, "Philosopher");
  await shots(page, info, "answer-scatter", t);

  // a number, yes/no, nothing found, a list of entities (its graph one click away)
  t = await next("How many films are there?");
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "count");
  await shots(page, info, "answer-number", t);
  t = await next("Did Chris Columbus direct a film?");
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "boolean");
  await shots(page, info, "answer-yes-no", t);
  t = await next("Which films were released before 1900?");
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "none");
  await expect(t.getByTestId("answer-chart")).toHaveCount(0);
  await shots(page, info, "answer-empty", t);
  t = await next("Which films did Chris Columbus make?");
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "items");
  await expect(t.getByTestId("answer-graph-box")).toHaveCount(0);
  await t.getByTestId("toggle-answer-graph").click();
  const graph = t.getByTestId("answer-graph");
  await expect(graph).toHaveAttribute("data-ready", "true");
  await shots(page, info, "answer-list-graph", t);

  // the wheel over the graph scrolls the chat (the graph does not swallow it) until "Zoom and move" is on
  await graph.scrollIntoViewIfNeeded();
  const scroller = page.getByTestId("chat-scroll");
  const scrollTop = () => scroller.evaluate((el) => el.scrollTop);
  const box = (await graph.getByTestId("chart-canvas").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const before = await scrollTop();
  await page.mouse.wheel(0, -300);
  await expect.poll(scrollTop).toBeLessThan(before);
  await graph.scrollIntoViewIfNeeded();
  await graph.getByTestId("chart-roam").click();
  await expect(graph.getByTestId("chart-roam")).toHaveAttribute("aria-pressed", "true");
  const box2 = (await graph.getByTestId("chart-canvas").boundingBox())!;
  await page.mouse.move(box2.x + box2.width / 2, box2.y + box2.height / 2);
  const held = await scrollTop();
  await page.mouse.wheel(0, -300);
  await page.waitForTimeout(300);
  expect(await scrollTop()).toBe(held);
});
