// A multi-column question (the one-shot baseline writes a three-variable SELECT, mock LLM) answered as a table: real
// <table>, columns in query order, entity links, keyboard sorting, copy as CSV, show all; the exports keep every column.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import type { ConversationExport } from "@/lib/api/contract";
import { ask, chooseStrategy, shot } from "./chat-page";

const QUESTION = "Which films are there, with their director and release date?";

test("a three-column answer is a sortable table, copied as CSV, and exported with all its columns", async ({ page, context }, info) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "one-shot-sparql");

  const t = await ask(page, QUESTION, 0);
  await expect(t).toHaveAttribute("data-status", "done");
  const answer = t.getByTestId("answer");
  await expect(answer).toHaveAttribute("data-kind", "table");
  const table = answer.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["film", "director", "released"]);
  await expect(answer.getByTestId("table-size")).toHaveText("29 rows × 3 columns");
  // the query's order (ORDER BY ?released), labelled entities as links that open the entity card
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText("Home Alone");
  await expect(rows.first()).toContainText("Chris Columbus");
  await expect(rows.first()).toContainText("1990-11-16");
  await shot(page, info, "table-answer");

  // sort by "released" with the keyboard: ascending, then descending; aria-sort says which
  const released = table.getByRole("columnheader", { name: /released/ });
  const sortButton = released.getByRole("button");
  await sortButton.focus();
  await page.keyboard.press("Enter");
  await expect(released).toHaveAttribute("aria-sort", "ascending");
  await expect(rows.first()).toContainText("1990-11-16");
  await page.keyboard.press("Enter");
  await expect(released).toHaveAttribute("aria-sort", "descending");
  await expect(rows.first()).not.toContainText("1990-11-16");
  const newest = (await rows.first().locator("td").nth(2).innerText()).trim();
  const next = (await rows.nth(1).locator("td").nth(2).innerText()).trim();
  expect(newest >= next).toBe(true);

  // show all 29 rows
  await answer.getByRole("button", { name: "Show all 29 rows" }).click();
  await expect(rows).toHaveCount(29);

  // copy as CSV: header with IRI columns for the entity columns, rows in the sorted order
  await answer.getByRole("button", { name: "Copy as CSV" }).click();
  const csv = await page.evaluate(() => navigator.clipboard.readText());
  const lines = csv.split("\r\n");
  expect(lines[0]).toBe("film,film IRI,director,director IRI,released");
  expect(lines).toHaveLength(30);
  expect(lines.at(-1)).toContain("Home Alone,http://example.org/chatty-kg/resource/Home_Alone,Chris Columbus,");

  // an entity link in a cell opens its card
  await rows.first().getByTestId("entity-link").first().getByRole("button").first().click();
  await expect(page.getByTestId("entity-card")).toBeVisible();
  await page.keyboard.press("Escape");

  // the exports keep every column
  await page.getByTestId("export-menu").click();
  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "JSON" }).click()]);
  const data = JSON.parse(await readFile((await json.path()) as string, "utf8")) as ConversationExport;
  const exported = data.turns[0].answer;
  expect(exported?.kind).toBe("table");
  if (exported?.kind !== "table") return;
  expect(exported.columns).toEqual(["film", "director", "released"]);
  expect(exported.rows).toHaveLength(29);
  await page.getByTestId("export-menu").click();
  const [md] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Markdown" }).click()]);
  const markdown = await readFile((await md.path()) as string, "utf8");
  expect(markdown).toContain("| film | director | released |");
  expect(markdown).toContain("| Home Alone (<http://example.org/chatty-kg/resource/Home_Alone>) | Chris Columbus (<http://example.org/chatty-kg/resource/Chris_Columbus>) | 1990-11-16 |");
});
