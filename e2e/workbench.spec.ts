// The SPARQL workbench and answers you can see, on the production build, offline: completion offers a class's
// predicates on the sample KG, a syntax error is underlined where it is, a download holds the result's rows, a
// count-per-group answer is a bar chart, a fixture KG with WKT geometries is a map. Screenshots at 1440×900 and 390×844.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { ask, chooseStrategy, shot } from "./chat-page";

const ONT = "http://example.org/chatty-kg/ontology/";
const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Screenshots of the page at both sizes (the page is put back to desktop size afterwards). */
async function shots(page: Page, info: TestInfo, name: string, before?: () => Promise<void>) {
  for (const s of SIZES) {
    await page.setViewportSize({ width: s.width, height: s.height });
    await before?.();
    await page.waitForTimeout(400); // charts redraw on resize
    await shot(page, info, `${name}-${s.name}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function typeQuery(page: Page, text: string) {
  const editor = page.getByTestId("sparql-editor");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.type(text);
}

test("workbench: the class's predicates are offered, a syntax error is marked, downloads hold the rows", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/workbench?kg=sample");
  await expect(page.getByTestId("workbench-kg")).toHaveValue("sample");

  // completion: after `?film a ont:Film ;` the predicates films use come first, ont:director among them
  await typeQuery(page, `PREFIX ont: <${ONT}>\nSELECT ?film ?d WHERE {\n?film a ont:Film ;\nont:d`);
  const list = page.locator(".cm-tooltip-autocomplete");
  await expect(list).toBeVisible();
  await expect(list.locator("completion-section").first()).toHaveText("Used by ont:Film");
  await expect(list.getByRole("option").first()).toContainText("ont:director");
  // a person's predicate comes only after the film's own ones, under the KG's other predicates
  const options = await list.getByRole("option").allInnerTexts();
  const at = (name: string) => options.findIndex((o) => o.startsWith(name));
  expect(at("ont:releaseDate")).toBeGreaterThan(0);
  expect(at("ont:deathDate")).toBeGreaterThan(at("ont:releaseDate"));
  await expect(list.locator("completion-section").nth(1)).toHaveText("Predicates");
  await shots(page, info, "workbench-completion", async () => {
    if (await list.isVisible()) return;
    await page.getByTestId("sparql-editor").focus();
    await page.keyboard.press("Control+Space");
    await expect(list).toBeVisible();
  });
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("sparql-editor")).toContainText("ont:director");
  // an entity by name in the object slot: its IRI is written, with the PREFIX line its namespace needs
  await page.keyboard.type(" Columbus");
  const entity = list.getByRole("option", { name: /Chris Columbus/ });
  await expect(entity).toBeVisible();
  await entity.click();
  await expect(page.getByTestId("sparql-editor")).toContainText("ont:director res:Chris_Columbus");
  await expect(page.getByTestId("sparql-editor")).toContainText("PREFIX res: <http://example.org/chatty-kg/resource/>");

  // a syntax error: underlined at the offending word, listed with what was expected
  await typeQuery(page, `PREFIX ont: <${ONT}>\nSELECT ?film WHERE {\n?film a ont:Film .\n} LIMT 5`);
  const diagnostic = page.getByTestId("sparql-diagnostic").first();
  await expect(diagnostic).toHaveAttribute("data-source", "syntax");
  await expect(diagnostic).toContainText(/^4:\d+ /); // line 4 (the editor indents, so the column varies)
  await expect(diagnostic).toContainText("unexpected “LIMT”");
  await expect(diagnostic).toContainText("LIMIT");
  await expect(page.locator(".cm-lintRange-error")).toHaveText("LIMT");
  await shots(page, info, "workbench-syntax-error");
  // an unknown predicate is flagged at its place with the validator's suggestion
  await typeQuery(page, `PREFIX ont: <${ONT}>\nSELECT ?film WHERE {\n?film a ont:Film ;\nont:directer ?d .\n}`);
  await expect(page.locator("[data-testid=sparql-diagnostic][data-source=kg]")).toContainText("Similar predicates: ont:director");
  await expect(page.locator(".cm-lintRange-warning")).toHaveText("ont:directer");
  await shots(page, info, "workbench-diagnostic");
  // hover on a predicate: its name and how often the KG uses it
  const box = await page.evaluate(() => {
    // where "ont:Film" is drawn (the highlighter may split it over several spans)
    const content = document.querySelector(".cm-content")!;
    const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
    for (const n of nodes) {
      const at = n.data.indexOf("Film");
      if (at >= 0 && n.data.slice(at, at + 4) === "Film") {
        const r = document.createRange();
        r.setStart(n, at);
        r.setEnd(n, at + 4);
        const b = r.getBoundingClientRect();
        return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      }
    }
    return null;
  });
  expect(box).not.toBeNull();
  await page.mouse.move(box!.x, box!.y);
  const hover = page.getByTestId("sparql-hover");
  await expect(hover).toContainText("film");
  await expect(hover).toContainText(/\d+ instances/);
  // an update is explained as refused before it runs
  await typeQuery(page, "DELETE WHERE { ?s ?p ?o }");
  await expect(page.locator("[data-testid=sparql-diagnostic][data-source=read-only]")).toContainText("read-only queries only");

  // a count per group: shown as bars, downloadable with every row
  await typeQuery(page, `PREFIX ont: <${ONT}>\nSELECT ?genre (COUNT(?film) AS ?films) WHERE {\n?film a ont:Film ; ont:genre ?genre .\n} GROUP BY ?genre ORDER BY DESC(?films)`);
  await page.keyboard.press("Escape");
  await page.getByTestId("sparql-run").click();
  const chart = page.getByTestId("answer-chart");
  await expect(chart).toHaveAttribute("data-view", "bar");
  await expect(chart).toHaveAttribute("data-ready", "true");
  await shots(page, info, "workbench-chart");
  await page.getByTestId("view-option").filter({ hasText: "Table" }).click();
  const rowCount = Number((await page.getByTestId("sparql-row-count").innerText()).split(" ")[0]);
  expect(rowCount).toBeGreaterThan(3);
  const shownFirst = await page.getByTestId("sparql-results").locator("tbody tr").first().innerText();

  const [csvDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-csv").click()]);
  expect(csvDownload.suggestedFilename()).toBe("query-result.csv");
  const csv = (await readFile(await csvDownload.path())).toString("utf8").trimEnd().split("\r\n");
  expect(csv[0]).toBe("genre,films");
  expect(csv).toHaveLength(rowCount + 1);
  expect(shownFirst).toContain(csv[1].split(",")[1]);
  const [jsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-json").click()]);
  const json = JSON.parse((await readFile(await jsonDownload.path())).toString("utf8"));
  expect(json.head.vars).toEqual(["genre", "films"]);
  expect(json.results.bindings).toHaveLength(rowCount);

  // SELECT * lists its columns in the query's order, and the run is in the history
  await typeQuery(page, "SELECT * WHERE { ?s ?p ?o } LIMIT 3");
  await page.keyboard.press("Escape");
  await page.getByTestId("sparql-run").click();
  await expect(page.getByTestId("sparql-results").locator("thead th")).toHaveText(["?s", "?p", "?o"]);
  await page.getByTestId("sparql-history").click();
  await expect(page.getByTestId("sparql-history-entry")).toHaveCount(2);
  await expect(page.getByTestId("sparql-history-entry").first()).toContainText("SELECT * WHERE");
  await page.keyboard.press("Escape");
  // "Link" copies an address that opens the workbench on this KG with this query
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy a link to this query in the workbench" }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(link);
  expect(url.pathname).toBe("/workbench");
  expect(url.searchParams.get("kg")).toBe("sample");
  expect(url.searchParams.get("q")).toBe("SELECT * WHERE { ?s ?p ?o } LIMIT 3");
  await page.goto(link);
  await expect(page.getByTestId("sparql-editor")).toHaveText("SELECT * WHERE { ?s ?p ?o } LIMIT 3");
});

test("chat: a count-per-group answer is a bar chart, with the table one click away", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "one-shot-sparql");
  const t = await ask(page, "How many films are there per genre?", 0);
  await expect(t).toHaveAttribute("data-status", "done");
  const visual = t.getByTestId("result-visual");
  await expect(visual).toHaveAttribute("data-view", "bar");
  const chart = t.getByTestId("answer-chart");
  await expect(chart).toHaveAttribute("data-ready", "true");
  await expect(chart.getByTestId("chart-title")).toHaveText("films by genre");
  await expect(chart.getByTestId("chart-canvas").locator("svg")).toBeVisible();
  await expect(chart.getByTestId("chart-canvas")).toContainText("fantasy film");
  // the data table under the chart is closed until asked for
  await expect(chart.getByTestId("chart-data")).toBeHidden();
  await shots(page, info, "chart-answer", () => chart.scrollIntoViewIfNeeded());
  await chart.getByText("Show data").click();
  await expect(chart.getByTestId("chart-data-row").first()).toContainText("fantasy");
  // PNG export
  const [png] = await Promise.all([page.waitForEvent("download"), chart.getByTestId("export-png").click()]);
  expect(png.suggestedFilename()).toBe("films-by-genre.png");
  expect((await readFile(await png.path())).subarray(1, 4).toString()).toBe("PNG");
  // back to the table
  await visual.getByTestId("view-option").filter({ hasText: "Table" }).click();
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "table");
  await expect(t.getByTestId("answer").getByRole("columnheader")).toHaveText(["genre", "films"]);

  // the final query in the SPARQL tab is formatted, with the KG's prefixes
  await page.getByRole("tab", { name: "SPARQL" }).click();
  await expect(page.getByTestId("sparql-editor")).toContainText("PREFIX ont:");
  await expect(page.getByTestId("sparql-editor")).toContainText("GROUP BY ?genre");
});

test("a fixture KG with WKT geometries: the answer is a map of the bundled world outline", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // no request may leave the machine for tiles or anything else
  const outside: string[] = [];
  page.on("request", (r) => {
    const host = new URL(r.url()).hostname;
    if (host !== "127.0.0.1" && host !== "localhost") outside.push(r.url());
  });
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await page.getByTestId("open-upload").click();
  const dialog = page.getByTestId("upload-dialog");
  await dialog.getByTestId("upload-files").setInputFiles(path.join(process.cwd(), "test/fixtures/e2e/beacons-wkt.ttl"));
  await dialog.getByRole("textbox").fill("Beacons");
  await dialog.getByTestId("upload-submit").click();
  await expect(dialog).toBeHidden();
  await chooseStrategy(page, "one-shot-sparql");
  const t = await ask(page, "Where are the beacons and harbour zones?", 0);
  await expect(t).toHaveAttribute("data-status", "done");
  const chart = t.getByTestId("answer-chart");
  await expect(chart).toHaveAttribute("data-view", "map");
  await expect(chart).toHaveAttribute("data-ready", "true");
  // 4 beacons (points) and 1 harbour zone (a polygon outline)
  await expect(chart).toHaveAttribute("data-points", "5");
  await expect(chart.getByTestId("chart-canvas")).toContainText("Gullrock Beacon");
  // the harbour zone (an outline) is named on the map too
  await expect(chart.getByTestId("chart-canvas").locator("svg text").filter({ hasText: "Brineholt harbour zone" })).toBeVisible();
  await shots(page, info, "map-answer", () => chart.scrollIntoViewIfNeeded());
  expect(outside).toEqual([]);
});

test("chat: an entity answer shows the graph of the facts behind it; a node opens the entity card", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  const t = await ask(page, "Who is the author of Harry Potter?", 0);
  await expect(t).toHaveAttribute("data-status", "done");
  await expect(t.getByTestId("answer")).toContainText("J. K. Rowling");
  const graph = t.getByTestId("answer-graph");
  await expect(graph).toHaveAttribute("data-ready", "true");
  // Harry Potter —author→ J. K. Rowling: two entity nodes and the edge between them, at least
  expect(Number(await graph.getAttribute("data-nodes"))).toBeGreaterThanOrEqual(2);
  expect(Number(await graph.getAttribute("data-edges"))).toBeGreaterThanOrEqual(1);
  await expect(graph.getByTestId("chart-canvas")).toContainText("J. K. Rowling");
  await expect(graph.getByTestId("chart-data")).toBeHidden();
  await shots(page, info, "graph-answer", () => graph.scrollIntoViewIfNeeded());
  await graph.getByText("Show data").click();
  await expect(graph.getByTestId("chart-data-row").first()).toContainText("J. K. Rowling");
  // a click on the answer's node opens its entity card
  await graph.getByTestId("chart-canvas").getByText("J. K. Rowling", { exact: true }).first().click();
  await expect(page.getByTestId("entity-card")).toBeVisible();
  await expect(page.getByTestId("entity-card").getByRole("heading", { name: "J. K. Rowling" })).toBeVisible();
});
