// The paper's Figure-1 dialogue on the sample KG with the mock LLM: five answers, derivation, SPARQL editing, entity
// cards, reload, rename, export and delete of the conversation.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { ask, FIGURE1, nextServerAction, shot, turn } from "./chat-page";

test.describe.configure({ mode: "serial" });

test("the Figure-1 dialogue: five turns answered, derivation and SPARQL inspectable, conversation kept", async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");

  for (const [i, step] of FIGURE1.entries()) {
    const t = await ask(page, step.q, i);
    await expect(t).toHaveAttribute("data-status", "done");
    await expect(t.getByTestId("answer")).toContainText(step.expect);
  }
  // the first question created the conversation: the URL follows it, and it is in the history titled by that question
  await expect(page).toHaveURL(/\/c\/[\w-]+$/);
  const conversationUrl = page.url();
  await expect(page.getByTestId("history-list")).toContainText(FIGURE1[0].q);

  // turn 5 lists his other films: the first 10, then all of them
  const t5 = turn(page, 4);
  await expect(t5.getByTestId("answer")).toContainText(/\d+ results/);
  await expect(t5.getByTestId("answer").locator("li")).toHaveCount(10);
  await t5.getByRole("button", { name: /Show all \d+/ }).click();
  expect(await t5.getByTestId("answer").locator("li").count()).toBeGreaterThanOrEqual(21);
  await expect(t5.getByTestId("answer")).toContainText("Swiss Army Man");
  await shot(page, info, "01-chat-figure1");

  // derivation of turn 4 ("he" = the actor, not the engineer): stage cards, linked vertex, an expandable LLM call
  await turn(page, 3).getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  await expect(derivation).toContainText("When was he born?");
  await expect(derivation.getByTestId("standalone-question")).toContainText("Daniel Radcliffe");
  for (const stage of ["qir", "entity-linking", "relation-linking", "query-generation", "query-selection", "execution"]) {
    await expect(derivation.locator(`[data-testid=stage-card][data-stage=${stage}]`)).toHaveAttribute("data-state", "done");
  }
  await expect(derivation.getByTestId("qir-table")).toContainText("birth date");
  // "he" is the actor a previous answer named: linked from the dialogue, no vertex LLM call
  await expect(derivation.getByTestId("linked-vertices")).toContainText("from the previous answer");
  // the QIR as a graph: the entity and the date variable joined by the relation
  const graph = derivation.getByTestId("qir-graph");
  await expect(graph.locator("[data-testid=qir-node][data-kind=entity]")).toContainText(["Daniel Radcliffe"]);
  await expect(graph.locator("[data-testid=qir-node][data-kind=variable]")).toHaveCount(1);
  await expect(graph.getByTestId("qir-edge")).toContainText(["birth date"]);
  // entity candidates for the mention: several (actor and engineer), exactly one chosen, and it is the actor
  const mention = derivation.locator("[data-testid=mention-candidates][data-mention='Daniel Radcliffe']");
  expect(await mention.getByTestId("vertex-candidate").count()).toBeGreaterThanOrEqual(2);
  const chosen = mention.locator("[data-testid=vertex-candidate][data-chosen]");
  await expect(chosen).toHaveCount(1);
  await expect(chosen.getByRole("button")).toHaveAttribute("title", /Daniel_Radcliffe$/);
  // ranked predicates with scores; candidate queries say which ran and with how many rows
  await expect(derivation.getByTestId("ranked-predicates").getByTestId("ranked-predicate").first()).toContainText(/\d\.\d{3}/);
  await expect(derivation.getByTestId("ranked-predicates")).toContainText(/birth ?date/i);
  const ran = derivation.locator("[data-testid=candidate-query][data-ran=true]");
  expect(await ran.count()).toBeGreaterThanOrEqual(1);
  await expect(ran.first()).toContainText(/ran · \d+ rows?/);
  await expect(derivation.getByTestId("candidates-ran")).toContainText(/\d+ of \d+ ran/);
  await expect(derivation.getByTestId("timing-bar")).toContainText("total");
  // an LLM call expands to its prompt (holding the user's question) and its raw output
  const call = derivation.getByTestId("llm-call").first();
  await call.locator("summary").click();
  await expect(call).toContainText(/when was he born/i);
  await expect(call.getByTestId("llm-raw-output")).not.toBeEmpty();
  await shot(page, info, "02-derivation");

  // the executed query opens in the SPARQL panel; edit it and run it again
  await derivation.getByTestId("executed-queries").getByRole("button", { name: "Open in SPARQL panel" }).first().click();
  const editor = page.getByTestId("sparql-editor");
  await expect(editor).toContainText("Daniel_Radcliffe");
  await expect(editor).toContainText("birthDate");
  await page.getByTestId("sparql-run").click();
  await expect(page.getByTestId("sparql-results")).toContainText("1989-07-23");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(
    "PREFIX ont: <http://example.org/chatty-kg/ontology/>\nSELECT ?place WHERE { <http://example.org/chatty-kg/resource/Daniel_Radcliffe> ont:birthPlace ?place }",
  );
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("sparql-results")).toContainText("London");
  await expect(page.getByTestId("sparql-row-count")).toHaveText("1 row");
  await shot(page, info, "03-sparql");
  // a syntax error is reported with its line
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("SELECT ?x WHERE {\n  ?x ?y \n}}");
  await page.getByTestId("sparql-run").click();
  await expect(page.getByTestId("sparql-error")).toContainText(/line \d+/);

  // clicking an entity in the results opens its card; following an edge opens that entity's card
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("SELECT ?a WHERE { <http://example.org/chatty-kg/resource/Harry_Potter> <http://example.org/chatty-kg/ontology/author> ?a }");
  await page.getByTestId("sparql-run").click();
  await page.getByTestId("sparql-results").getByRole("button", { name: "J. K. Rowling" }).click();
  const card = page.getByTestId("entity-card");
  await expect(card.getByRole("heading", { name: "J. K. Rowling" })).toBeVisible();
  await expect(card).toContainText("Outgoing");
  await expect(card).toContainText("Incoming");
  await shot(page, info, "04-entity-card");
  await card.getByRole("button", { name: /Harry Potter and the Philosopher's Stone/ }).first().click();
  await expect(card.getByRole("heading", { name: /Philosopher's Stone/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(card).toBeHidden();

  // reload: the conversation is intact (five turns, their answers, and their stored derivations)
  await page.reload();
  await expect(page.getByTestId("turn")).toHaveCount(5);
  for (const [i, step] of FIGURE1.entries()) await expect(turn(page, i).getByTestId("answer")).toContainText(step.expect);
  await turn(page, 0).getByTestId("show-derivation").click();
  await expect(page.locator("[data-testid=stage-card][data-stage=execution]")).toContainText("J. K. Rowling");
  expect(page.url()).toBe(conversationUrl);

  // thumbs up is stored
  const marked = nextServerAction(page);
  await turn(page, 0).getByRole("button", { name: "Good answer" }).click();
  await expect(turn(page, 0).getByRole("button", { name: "Good answer" })).toHaveAttribute("aria-pressed", "true");
  expect((await marked).ok()).toBe(true);
  await page.reload();
  await expect(turn(page, 0).getByRole("button", { name: "Good answer" })).toHaveAttribute("aria-pressed", "true");

  // export as Markdown: the download holds the questions
  await page.getByTestId("export-menu").click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Markdown" }).click()]);
  const text = await readFile((await download.path()) as string, "utf8");
  expect(text).toContain(FIGURE1[0].q);
  expect(text).toContain(FIGURE1[4].q);

  // rename inline, then delete with confirmation
  const item = page.getByTestId("history-item").filter({ hasText: FIGURE1[0].q });
  await item.hover();
  await item.getByRole("button", { name: /Rename/ }).click();
  const titleBox = page.getByRole("textbox", { name: "Conversation title" });
  await titleBox.fill("Figure 1 dialogue");
  const saved = nextServerAction(page);
  await titleBox.press("Enter");
  await expect(page.getByTestId("history-list")).toContainText("Figure 1 dialogue");
  expect((await saved).ok()).toBe(true);
  await page.reload();
  await expect(page.getByTestId("history-list")).toContainText("Figure 1 dialogue");
  await shot(page, info, "05-renamed");

  const renamed = page.getByTestId("history-item").filter({ hasText: "Figure 1 dialogue" });
  await renamed.hover();
  await renamed.getByRole("button", { name: /Delete/ }).click();
  const dialog = page.getByTestId("delete-dialog");
  await expect(dialog).toContainText("Figure 1 dialogue");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("history-list")).not.toContainText("Figure 1 dialogue");
  const gone = await page.goto(conversationUrl);
  expect(gone?.status()).toBe(404);
});

test("the derivation streams live while a turn runs", async ({ page }, info) => {
  await page.goto("/");
  const input = page.getByTestId("question-input");
  await input.fill("Who founded Warner Bros.?");
  await page.getByTestId("send-button").click();
  const t = turn(page, 0);
  // the QIR reply is delayed by the mock: the chat stage is already reported while the turn still runs
  await expect(t.getByTestId("step-indicator")).toBeVisible();
  await expect(t).toHaveAttribute("data-status", "running");
  await expect(page.getByTestId("stop-button")).toBeVisible();
  const derivation = page.getByTestId("derivation");
  await expect(derivation.locator("[data-testid=stage-card][data-stage=qir]")).toHaveAttribute("data-state", "running");
  await expect(derivation.locator("[data-testid=stage-card][data-stage=entity-linking]")).toHaveCount(0);
  await shot(page, info, "06-streaming");
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(derivation.locator("[data-testid=stage-card][data-stage=execution]")).toHaveAttribute("data-state", "done");
  for (const name of ["Harry Warner", "Albert Warner", "Sam Warner", "Jack L. Warner"]) await expect(t.getByTestId("answer")).toContainText(name);
});

test("Stop aborts a running turn and Retry runs it again", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("question-input").fill("Who founded Warner Bros.?");
  // the box only sends once the KG list has loaded: an earlier Enter is ignored
  await expect(page.getByTestId("send-button")).toBeEnabled();
  await page.getByTestId("question-input").press("Enter");
  const t = turn(page, 0);
  await expect(t).toHaveAttribute("data-status", "running");
  await page.getByTestId("stop-button").click();
  await expect(t).toHaveAttribute("data-status", "interrupted");
  await expect(t.getByTestId("turn-error")).toContainText("Stopped");
  await t.getByRole("button", { name: "Retry" }).click();
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(t.getByTestId("answer")).toContainText("Harry Warner");
});
