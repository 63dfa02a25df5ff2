// The explorer strategy, switched in the config strip, answers the first Figure-1 question on the sample KG (mock LLM
// rules in test/fixtures/e2e/figure1-rules.json), with its plan and every tool call in the derivation.
import { expect, test } from "@playwright/test";
import { ask, chooseStrategy, FIGURE1, openAdvanced, shot } from "./chat-page";

test("the explorer answers a Figure-1 question; its plan, tool calls and final query are in the derivation", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "explorer");
  await expect(page.getByTestId("strategy-description")).toContainText("explores the KG");
  // the step budget is in the Advanced sheet while the explorer is chosen, with what it does and its default
  const sheet = await openAdvanced(page);
  const steps = sheet.locator("[data-testid=parameter][data-key=explorerMaxSteps]");
  await expect(steps.getByLabel(/Tool calls per question/)).toHaveValue("20");
  await expect(steps).toContainText("When they run out the turn ends");
  await expect(steps.getByTestId("parameter-default")).toHaveText("Default: 20");
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  const t = await ask(page, FIGURE1[0].q, 0);
  await expect(t).toHaveAttribute("data-status", "done");
  await expect(t.getByTestId("answer")).toContainText(FIGURE1[0].expect);

  await t.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  for (const stage of ["chat", "plan", "explore", "execution"]) {
    await expect(derivation.locator(`[data-testid=stage-card][data-stage=${stage}]`).last()).toHaveAttribute("data-state", "done");
  }
  await expect(derivation.locator("[data-testid=stage-card][data-stage=plan]")).toContainText("find the Harry Potter book series");
  const explore = derivation.locator("[data-testid=stage-card][data-stage=explore]");
  await expect(explore).toContainText("3 tool call(s), 1 final query tried; final query accepted");
  const calls = explore.getByTestId("tool-call");
  await expect(calls).toHaveCount(3);
  await expect(calls.locator("summary")).toContainText([/search_entities.*\d+ ms/, /execute_sparql.*\d+ ms/, /finish.*\d+ ms/]);
  // a tool call opens to its input and output
  await calls.first().locator("summary").click();
  await expect(calls.first()).toContainText('"query": "Harry Potter"');
  await expect(calls.first()).toContainText("http://example.org/chatty-kg/resource/Harry_Potter");
  await shot(page, info, "explorer-derivation");

  // the final query opens in the SPARQL panel
  await derivation.getByTestId("executed-queries").getByRole("button", { name: "Open in SPARQL panel" }).first().click();
  await expect(page.getByTestId("sparql-editor")).toContainText("res:Harry_Potter ont:author ?author");
});
