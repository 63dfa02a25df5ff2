// The chat shows the conversation its URL names: New chat after a turn is empty and its next question starts another
// conversation; a history link opens that conversation's turns; back and forward show the previous one again.
import { expect, test } from "@playwright/test";
import { ask, FIGURE1, turn } from "./chat-page";

test("New chat after a turn, history links and back/forward follow the URL", async ({ page }) => {
  await page.goto("/");
  const t0 = await ask(page, FIGURE1[0].q, 0);
  await expect(t0.getByTestId("answer")).toContainText(FIGURE1[0].expect);
  await expect(page).toHaveURL(/\/c\/[^/]+$/);
  const first = new URL(page.url()).pathname;

  // New chat: the URL is "/" and the chat is empty
  await page.getByTestId("new-chat").click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("turn")).toHaveCount(0);
  await expect(page.getByTestId("empty-chat")).toBeVisible();

  // the next question starts a new conversation (a second history item, another URL, turn 1 of its own)
  const t1 = await ask(page, "Who founded Warner Bros.?", 0);
  await expect(t1).toHaveAttribute("data-status", "done");
  await expect(page).toHaveURL(/\/c\/[^/]+$/);
  const second = new URL(page.url()).pathname;
  expect(second).not.toBe(first);
  await expect(page.getByTestId("turn")).toHaveCount(1);
  await expect(page.getByTestId("history-item")).toHaveCount(2);

  // an older conversation from the history: its turns, and only its
  await page.getByTestId("history-item").filter({ hasText: FIGURE1[0].q }).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`${first}$`));
  await expect(page.getByTestId("turn")).toHaveCount(1);
  await expect(turn(page, 0).getByTestId("turn-question")).toHaveText(FIGURE1[0].q);

  // a follow-up in it stays in it
  const t2 = await ask(page, FIGURE1[1].q, 1);
  await expect(t2.getByTestId("answer")).toContainText(FIGURE1[1].expect);
  await expect(page).toHaveURL(new RegExp(`${first}$`));

  // back: the conversation before (the second one), with its own turn
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${second}$`));
  await expect(page.getByTestId("turn")).toHaveCount(1);
  await expect(turn(page, 0).getByTestId("turn-question")).toHaveText("Who founded Warner Bros.?");

  // forward: the first again, with the follow-up asked since (not a stale copy)
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`${first}$`));
  await expect(page.getByTestId("turn")).toHaveCount(2);
  await expect(turn(page, 1).getByTestId("turn-question")).toHaveText(FIGURE1[1].q);

  // New chat from an opened conversation, then a question: a third conversation, the first keeps its two turns
  await page.getByTestId("new-chat").click();
  await expect(page.getByTestId("turn")).toHaveCount(0);
  await ask(page, FIGURE1[0].q, 0);
  await expect(page.getByTestId("history-item")).toHaveCount(3);
  await page.goto(first);
  await expect(page.getByTestId("turn")).toHaveCount(2);
});

test("a conversation this browser does not own gets a page that says so", async ({ page, browser }) => {
  await page.goto("/");
  await ask(page, FIGURE1[0].q, 0);
  const url = page.url();
  const other = await browser.newContext();
  const stranger = await other.newPage();
  const res = await stranger.goto(url);
  expect(res?.status()).toBe(404);
  await expect(stranger.getByTestId("conversation-not-found")).toContainText("not yours");
  await stranger.getByRole("link", { name: "Start a new chat" }).click();
  await expect(stranger.getByTestId("empty-chat")).toBeVisible();
  await other.close();
});
