// The one-call strategy on the sample KG (mock LLM rules in test/fixtures/e2e/figure1-rules.json): the first query is
// the wrong way round, the validator says so and the repair answers; marked helpful, the turn becomes a solved example
// that the next turn's prompt shows with its similarity.
import { expect, test } from "@playwright/test";
import { ask, chooseStrategy, FIGURE1, nextServerAction, openAdvanced, shot } from "./chat-page";

test("one call: schema cards, a repair after the validator's problem, then the answered turn as an example", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "one-call");
  await expect(page.getByTestId("strategy-description")).toContainText("schema cards");
  const sheet = await openAdvanced(page);
  await expect(sheet.getByLabel(/Repairs after the first query/)).toHaveValue("3");
  await page.keyboard.press("Escape");

  const first = await ask(page, FIGURE1[0].q, 0);
  await expect(first).toHaveAttribute("data-status", "done");
  await expect(first.getByTestId("answer")).toContainText(FIGURE1[0].expect);

  await first.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  const retrieval = derivation.locator("[data-testid=stage-card][data-stage=retrieval]");
  await expect(retrieval).toContainText(/no experience pool; \d+ of \d+ schema card\(s\)/);
  // the query-generation card: the valid repair, and the first call refused with the validator's problem
  const generation = derivation.locator("[data-testid=stage-card][data-stage=query-generation]");
  await expect(generation).toContainText("Attempt 2/4 (repair): valid");
  await expect(generation).toContainText("Validation: Nothing matches ?author ont:author res:Harry_Potter, but it holds the other way round");
  await shot(page, info, "one-call-repair");

  // the final query opens in the SPARQL panel
  await derivation.getByTestId("executed-queries").getByRole("button", { name: "Open in SPARQL panel" }).last().click();
  await expect(page.getByTestId("sparql-editor")).toContainText("ont:author ?author");

  // helpful: the turn joins the experience pool, and the next prompt shows it as a solved example
  const saved = nextServerAction(page);
  await first.getByRole("button", { name: "Good answer" }).click();
  await saved;
  const second = await ask(page, FIGURE1[0].q, 1);
  await expect(second.getByTestId("answer")).toContainText(FIGURE1[0].expect);
  await second.getByTestId("show-derivation").click();
  await expect(page.getByTestId("derivation").locator("[data-testid=stage-card][data-stage=retrieval]")).toContainText(/1 solved example\(s\) of 1 by (BM25|embedding similarity)/);
  await expect(page.getByTestId("derivation").locator("[data-testid=stage-card][data-stage=query-generation]")).toContainText("Attempt 1/4: valid");
});
