// A read-only share link: made from the history, opened in another browser (a second context: no cookie of the owner)
// it shows that conversation's turns, answers, SPARQL and derivation and nothing else; revoked, the page says it is gone.
import { expect, test } from "@playwright/test";
import { ask, FIGURE1, shot } from "./chat-page";

test("a share link shows one conversation read-only in another browser, and stops working once revoked", async ({ page, browser }, info) => {
  test.setTimeout(120_000);
  await page.goto("/");
  // a conversation that must not be seen through the link
  await ask(page, "Who founded Warner Bros.?", 0);
  await page.getByTestId("new-chat").click();
  await expect(page.getByTestId("turn")).toHaveCount(0);
  for (const [i, step] of FIGURE1.slice(0, 2).entries()) await ask(page, step.q, i);

  const item = page.getByTestId("history-item").filter({ hasText: FIGURE1[0].q });
  await item.hover();
  await item.getByTestId("share-conversation").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog).toContainText("This conversation is not shared.");
  await dialog.getByTestId("share-create").click();
  const url = await dialog.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
  await shot(page, info, "ux-05-share-dialog");

  // another browser: no session of the owner's
  const other = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const stranger = await other.newPage();
  const res = await stranger.goto(url);
  expect(res?.status()).toBe(200);
  const shared = stranger.getByTestId("shared-conversation");
  await expect(shared.getByTestId("shared-title")).toHaveText(FIGURE1[0].q);
  await expect(shared.getByTestId("turn")).toHaveCount(2);
  await expect(shared.getByTestId("turn").nth(0).getByTestId("answer")).toContainText(FIGURE1[0].expect);
  await expect(shared.getByTestId("turn").nth(1).getByTestId("answer")).toContainText(FIGURE1[1].expect);
  await expect(shared.getByTestId("shared-sparql").first()).toContainText("SELECT");
  await shared.getByTestId("turn").nth(0).getByTestId("show-derivation").click();
  await expect(shared.getByTestId("shared-derivation").locator("[data-testid=stage-card][data-stage=execution]")).toHaveAttribute("data-state", "done");
  // read-only, and nothing of the owner's other conversations: no history, no question box, no corrections
  await expect(stranger.getByText("Who founded Warner Bros.?")).toHaveCount(0);
  await expect(stranger.getByTestId("history")).toHaveCount(0);
  await expect(stranger.getByTestId("question-input")).toHaveCount(0);
  await expect(stranger.getByTestId("use-candidate")).toHaveCount(0);
  await shot(stranger, info, "ux-06-shared-view");
  // a forged signature opens nothing
  expect((await stranger.goto(url.replace(/\.[^.]+$/, ".AAAA")))?.status()).toBe(404);

  // the owner stops sharing: the same URL now says the link does not work
  await dialog.getByTestId("share-revoke").click();
  await expect(dialog).toContainText("This conversation is not shared.");
  const gone = await stranger.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(stranger.getByTestId("share-not-found")).toContainText("This share link does not work");
  await expect(stranger.getByText(FIGURE1[0].expect)).toHaveCount(0);
  await other.close();
});
