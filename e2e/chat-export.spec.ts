// JSON export of a conversation: each turn's question, answer and the SPARQL that produced it.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import type { ConversationExport } from "@/lib/api/contract";
import { ask, FIGURE1 } from "./chat-page";

test("the JSON export holds the questions, the answers and their SPARQL", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("export-menu")).toBeDisabled(); // nothing to export before the first question
  for (const [i, step] of FIGURE1.slice(0, 2).entries()) {
    const t = await ask(page, step.q, i);
    await expect(t.getByTestId("answer")).toContainText(step.expect);
  }
  await page.getByTestId("export-menu").click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "JSON" }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  const data = JSON.parse(await readFile((await download.path()) as string, "utf8")) as ConversationExport;
  expect(page.url()).toContain(`/c/${data.id}`);
  expect(data.title).toBe(FIGURE1[0].q);
  expect(data.turns.map((t) => t.question)).toEqual([FIGURE1[0].q, FIGURE1[1].q]);
  for (const [i, t] of data.turns.entries()) {
    expect(t.status).toBe("done");
    expect(JSON.stringify(t.answer)).toContain(FIGURE1[i].expect);
    expect(t.sparql.length).toBeGreaterThan(0);
    expect(t.sparql[0]).toMatch(/\b(SELECT|ASK)\b/i);
  }
  expect(data.turns[0].sparql.join("\n")).toContain("Harry_Potter");
});
