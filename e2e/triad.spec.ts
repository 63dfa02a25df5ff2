// Triad chosen in the config strip answers a sample-KG question (mock LLM playing the Chat agent, the G-agent and the
// D-agent), its three roles visible in the derivation; with the model-knowledge switch on, an answer the KG does not
// hold comes from the model and is labelled "not from the KG" in the chat and the derivation.
import { expect, test } from "@playwright/test";
import { ask, chooseStrategy, openAdvanced, setParameter, shot } from "./chat-page";

test.describe.configure({ mode: "serial" });

test("Triad answers from the KG: template, linking and the chosen query, each role named in the derivation", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "triad");
  // Triad's parameters are in the Advanced sheet, each with its sentence and default
  const sheet = await openAdvanced(page);
  const fields = sheet.getByTestId("strategy-parameters");
  await expect(fields.getByLabel(/Examples shown to the G-agent/)).toHaveValue("3");
  await expect(fields.getByLabel(/Retries when no query returns rows/)).toHaveValue("3");
  await expect(fields.getByRole("switch", { name: /model's own knowledge/ })).toHaveAttribute("aria-checked", "false");
  await page.keyboard.press("Escape");

  const t = await ask(page, "Where was J. K. Rowling born?", 0);
  await expect(t).toHaveAttribute("data-status", "done");
  await expect(t.getByTestId("answer")).toContainText("Yate");
  await expect(t.getByTestId("answer-not-from-kg")).toHaveCount(0);

  await t.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  const card = (stage: string) => derivation.locator(`[data-testid=stage-card][data-stage=${stage}]`);
  await expect(card("qir")).toContainText("G-agent (generalist)");
  await expect(card("qir").getByTestId("template-sparql")).toContainText("<e0> <r0> ?place");
  await expect(card("entity-linking")).toContainText("D-agent (decision maker), entities");
  await expect(card("relation-linking")).toContainText('<r0> "born in" → birth place');
  await expect(card("execution")).toContainText("1 candidate queries run, 1 with rows");
  await expect(card("answer")).toContainText("A-agent (advisor): answer from the rows of candidate 1");
  await expect(derivation.getByTestId("derivation-not-from-kg")).toHaveCount(0);
  await shot(page, info, "triad-derivation");
});

test("with the switch on, a question the KG cannot answer gets the model's answer, labelled not from the KG", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await expect(page.getByTestId("llm-status")).toContainText("Using");
  await chooseStrategy(page, "triad");
  await setParameter(page, /Retries when no query returns rows/, "0");

  // switched off (the default): the KG has no answer, and no model answer is made up
  const off = await ask(page, "Who is the mayor of Hogsmeade?", 0);
  await expect(off.getByTestId("answer")).toHaveAttribute("data-kind", "none");
  await expect(off.getByTestId("answer-not-from-kg")).toHaveCount(0);

  const sheet = await openAdvanced(page);
  const knowledge = sheet.getByRole("switch", { name: /model's own knowledge/ });
  await knowledge.click();
  await expect(knowledge).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  const on = await ask(page, "Who is the mayor of Hogsmeade?", 1);
  await expect(on).toHaveAttribute("data-status", "done");
  await expect(on.getByTestId("answer-not-from-kg")).toHaveText("From the model's own knowledge, not from the KG");
  await expect(on.getByTestId("answer")).toContainText("Aberforth Dumbledore");
  await on.getByTestId("show-derivation").click();
  const derivation = page.getByTestId("derivation");
  await expect(derivation.getByTestId("derivation-not-from-kg")).toContainText("not from the KG");
  await expect(derivation.locator("[data-testid=stage-card][data-stage=answer]")).toContainText("answer from the model's own knowledge, not from the KG");
  await shot(page, info, "triad-model-knowledge");
});
