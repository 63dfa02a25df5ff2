// RAGONITE on the sample KG with the mock LLM: the strategy and its rounds in the config strip, an answer with
// citations, the retrieval rounds (SQL and fact search) in the derivation, and the SQL in the query panel.
import { expect, test } from "@playwright/test";
import { ask, chooseStrategy, setParameter, shot } from "./chat-page";

test("RAGONITE answers from SQL over the induced database, cites its rows, and shows SQL and searches", async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "ragonite");
  // the rounds field is in the Advanced sheet for RAGONITE; one round (the mock model's script has one SQL step)
  await setParameter(page, /Retrieval rounds/, "1");

  const t = await ask(page, "Which films did Chris Columbus direct?", 0);
  // a failed turn says why (the error text), instead of only its status
  expect(await t.getByTestId("turn-error").allTextContents()).toEqual([]);
  await expect(t).toHaveAttribute("data-status", "done");
  const answer = t.getByTestId("answer");
  await expect(answer).toHaveAttribute("data-kind", "items");
  await expect(answer).toContainText("Home Alone");
  await expect(answer).toContainText("Harry Potter and the Chamber of Secrets");
  // every item cites its row; the sources list the SQL result and rows, linking to the KG entities
  await expect(answer.getByTestId("cite-marks")).toHaveCount(5);
  await expect(answer.getByTestId("cite-marks").first()).toHaveText("[S1.1]");
  const citations = t.getByTestId("citations");
  await expect(citations).toContainText("sources from the KG");
  await expect(citations.locator("[data-testid=citation][data-kind=sql-row]").first().getByTestId("entity-link")).toContainText("Home Alone");
  await expect(t).toContainText("Chris Columbus directed five films in the KG [S1]");

  // derivation: the database and passages, one retrieval round with the SQL and the search run for the agent
  await t.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  await expect(derivation.locator("[data-testid=stage-card][data-stage=induction]")).toContainText(/tables .* passages searched by BM25/);
  const retrieval = derivation.locator("[data-testid=stage-card][data-stage=retrieval]");
  await expect(retrieval).toHaveAttribute("data-state", "done");
  await expect(retrieval.getByTestId("retrieval-round")).toHaveCount(1);
  await expect(retrieval.getByTestId("query-line")).toContainText("S1 · SQL · 5 rows");
  await expect(retrieval.getByTestId("fact-search")).toContainText("run for the agent");
  await expect(derivation.locator("[data-testid=stage-card][data-stage=answer]")).toContainText("5 items");
  await shot(page, info, "10-ragonite-derivation");

  // the query panel shows the answer's SQL, labelled SQL, and runs it on the induced database
  await retrieval.getByRole("button", { name: "Open SQL in query panel" }).click();
  const panel = page.getByTestId("sparql-panel");
  await expect(panel).toHaveAttribute("data-language", "sql");
  await expect(panel.getByTestId("query-language")).toContainText("SQL over the database induced from the KG");
  await expect(page.getByRole("tab", { name: "SQL" })).toBeVisible();
  await panel.getByTestId("sparql-run").click();
  await expect(panel).toContainText("Mrs. Doubtfire");
  await shot(page, info, "11-ragonite-sql-panel");

  // an update is refused with a clear error
  const editor = panel.getByTestId("sparql-editor");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("DELETE FROM film");
  await panel.getByTestId("sparql-run").click();
  await expect(panel.getByTestId("sparql-error")).toContainText("sql_forbidden");
});
