// Steering a derivation (mock LLM, sample KG): the model links "Daniel Radcliffe" to the invented engineer of the same
// name and finds no film; the user picks the actor among the candidates and the turn re-runs from there as attempt 2;
// unticking a predicate at query selection changes the answer (attempt 3); an item expands to the triple behind it;
// the attempts survive a reload and the first one stays one click away.
import { expect, test } from "@playwright/test";
import { ask, chooseStrategy, setParameter, shot, turn } from "./chat-page";

const QUESTION = "Which films did Daniel Radcliffe star in?";
const ACTOR = /\/Daniel_Radcliffe$/;

test("a wrong same-named entity is corrected from the derivation; predicates and provenance; attempts are kept", async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");

  const t = await ask(page, QUESTION, 0);
  await expect(t).toHaveAttribute("data-status", "done");
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "none");

  // the derivation shows the engineer chosen among same-named candidates
  await t.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  const mention = derivation.locator("[data-testid=mention-candidates][data-mention='Daniel Radcliffe']");
  await expect(mention.locator("[data-testid=vertex-candidate][data-chosen] button").first()).toHaveAttribute("title", /Daniel_Radcliffe_engineer$/);
  await shot(page, info, "10-wrong-vertex");

  // choose the actor: the turn re-runs from relation linking as attempt 2 and answers with his films
  const actor = mention.getByTestId("vertex-candidate").filter({ has: page.locator(`button[title$="/Daniel_Radcliffe"]`) });
  await actor.getByTestId("use-candidate").click();
  await expect(t).toHaveAttribute("data-attempt", "2");
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 45_000 });
  await expect(t.getByTestId("answer")).toContainText("22 results");
  await t.getByTestId("answer").getByRole("button", { name: /Show all 22/ }).click();
  await expect(t.getByTestId("answer")).toContainText("Swiss Army Man");
  await expect(t.getByTestId("answer")).toContainText("Now You See Me 2");
  await expect(t.getByTestId("attempt-label")).toContainText('Linked "Daniel Radcliffe" to Daniel Radcliffe');
  // the derivation marks what was kept and what the user decided; the chosen vertex is the actor, "your choice"
  await expect(derivation).toHaveAttribute("data-attempt", "2");
  await expect(derivation.locator("[data-testid=stage-card][data-stage=qir]")).toHaveAttribute("data-mark", "kept");
  await expect(derivation.locator("[data-testid=stage-card][data-stage=entity-linking]")).toHaveAttribute("data-mark", "decided");
  await expect(mention.locator("[data-testid=vertex-candidate][data-chosen] button").first()).toHaveAttribute("title", ACTOR);
  await expect(mention).toContainText("your choice");
  // one LLM call (the predicate choice for the new vertex); the chat, QIR and vertex calls were not made again
  await expect(t.getByTestId("turn-stats")).toContainText("1 LLM calls");
  await shot(page, info, "11-corrected-vertex");

  // the first attempt stays one click away
  await t.getByRole("button", { name: "Attempt 1" }).click();
  await expect(t.getByTestId("answer")).toHaveAttribute("data-kind", "none");
  await expect(derivation).toHaveAttribute("data-attempt", "1");
  await t.getByRole("button", { name: "Attempt 2 (latest)" }).click();
  await expect(t.getByTestId("answer")).toContainText("22 results");

  // query selection: untick "starred in" (actor → film edges): only the films stored as film → actor remain
  const picker = derivation.getByTestId("predicate-picker");
  await picker.locator("[data-testid=predicate-choice][data-iri$='/starredIn']").uncheck();
  await picker.getByTestId("rerun-predicates").click();
  await expect(t).toHaveAttribute("data-attempt", "3");
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 45_000 });
  await expect(t.getByTestId("turn-stats")).toContainText("0 LLM calls");
  const answer = t.getByTestId("answer");
  await expect(answer).not.toContainText("22 results");
  const showAll = answer.getByRole("button", { name: /Show all/ });
  if (await showAll.count()) await showAll.click();
  await expect(answer).toContainText("Now You See Me 2");
  await expect(answer).not.toContainText("Swiss Army Man");

  // provenance: the item expands to the triple behind it, with links
  const item = answer.locator("li").filter({ hasText: "Now You See Me 2" });
  await item.getByTestId("provenance-toggle").click();
  const provenance = item.getByTestId("provenance");
  await expect(provenance.getByTestId("provenance-triple")).toHaveCount(1);
  await expect(provenance.getByTestId("provenance-triple")).toContainText("Now You See Me 2");
  await expect(provenance.getByTestId("provenance-triple")).toContainText("starring");
  await expect(provenance.getByTestId("provenance-triple")).toContainText("Daniel Radcliffe");
  await expect(item.getByTestId("provenance-toggle")).toHaveAttribute("aria-expanded", "true");
  await shot(page, info, "12-provenance");

  // reload: all three attempts are kept, the latest shown, the first one click away
  await page.reload();
  const again = turn(page, 0);
  await expect(again).toHaveAttribute("data-attempt", "3");
  await expect(again.getByTestId("attempt-button")).toHaveCount(3);
  await expect(again.getByTestId("answer")).not.toContainText("Swiss Army Man");
  await again.getByRole("button", { name: "Attempt 1" }).click();
  await expect(again.getByTestId("answer")).toHaveAttribute("data-kind", "none");
  await again.getByRole("button", { name: "Attempt 2" }).click();
  await expect(again.getByTestId("answer")).toContainText("22 results");

  // the final query, edited in the SPARQL panel, re-runs the turn as attempt 4 (no model call)
  await again.getByRole("button", { name: "Attempt 3 (latest)" }).click();
  await page.getByRole("tab", { name: "SPARQL" }).click();
  const editor = page.getByTestId("sparql-editor");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("SELECT ?film WHERE { <http://example.org/chatty-kg/resource/Daniel_Radcliffe> <http://example.org/chatty-kg/ontology/starredIn> ?film }");
  await page.getByTestId("sparql-rerun-turn").click();
  await expect(again).toHaveAttribute("data-attempt", "4");
  await expect(again).toHaveAttribute("data-status", "done", { timeout: 45_000 });
  await expect(again.getByTestId("attempt-label")).toContainText("Ran an edited query");
  await expect(again.getByTestId("turn-stats")).toContainText("0 LLM calls");
  await expect(again.getByTestId("answer")).toContainText("Swiss Army Man");
  await expect(again.getByTestId("answer")).not.toContainText("Now You See Me 2");
});

test("RAGONITE: the SQL edited in the query panel re-runs the turn, its rows cited", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/");
  // the config strip is interactive once the page has loaded its settings (a select changed before that is lost)
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "ragonite");
  await setParameter(page, /Retrieval rounds/, "1");
  const t = await ask(page, "Which films did Chris Columbus direct?", 0);
  await expect(t).toHaveAttribute("data-status", "done");
  await expect(t.getByTestId("answer").getByTestId("cite-marks")).toHaveCount(5);
  // the derivation offers no step corrections for RAGONITE; its SQL is edited in the query panel
  await t.getByTestId("show-derivation").click();
  await expect(page.getByTestId("derivation").getByTestId("use-candidate")).toHaveCount(0);
  await page.getByTestId("derivation").getByRole("button", { name: "Open SQL in query panel" }).first().click();
  const panel = page.getByTestId("sparql-panel");
  await expect(panel).toHaveAttribute("data-language", "sql");
  await panel.getByTestId("sparql-editor").click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type(" LIMIT 2");
  await panel.getByTestId("sparql-rerun-turn").click();
  await expect(t).toHaveAttribute("data-attempt", "2");
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 45_000 });
  await expect(t.getByTestId("turn-stats")).toContainText("0 LLM calls");
  await expect(t.getByTestId("answer").getByTestId("cite-marks")).toHaveCount(2);
  await expect(t.getByTestId("answer").getByTestId("cite-marks").first()).toHaveText("[S1.1]");
});

test("another vertex found by label search, keyboard only, starts the next attempt", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/");
  const t = await ask(page, QUESTION, 0);
  await t.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  // find another vertex by label search (keyboard only): the engineer's search result is offered with its type
  const find = derivation.getByTestId("find-vertex").first();
  await find.focus();
  await page.keyboard.press("Enter");
  await expect(find).toHaveAttribute("aria-expanded", "true");
  const input = derivation.getByTestId("entity-search-input");
  await input.fill("Radcliffe");
  await input.press("Enter");
  const hits = derivation.getByTestId("entity-search-hit");
  await expect(hits.filter({ hasText: /engineer/i }).first()).toBeVisible();
  await expect(hits.filter({ hasText: /actor/i }).first()).toBeVisible();
  // Mark Radcliffe (a producer) is a vertex, but the re-run still answers: no film edges → "no answer", attempt 2
  await hits.filter({ hasText: "Mark Radcliffe" }).getByRole("button", { name: /^Use/ }).click();
  await expect(t).toHaveAttribute("data-attempt", "2");
  await expect(t).toHaveAttribute("data-status", /^(done|failed)$/, { timeout: 45_000 });
  await expect(t.getByTestId("attempt-label")).toContainText("Mark Radcliffe");
});
