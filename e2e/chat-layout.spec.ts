// Layout stability while a turn streams: what the reader looks at in the chat and in the derivation does not move.
import { expect, test } from "@playwright/test";
import { ask, FIGURE1, turn } from "./chat-page";

test("streaming does not shift the chat the reader scrolled to, nor the derivation cards already shown", async ({ page }) => {
  await page.goto("/");
  // count layout shifts not caused by input (the CLS metric's raw entries)
  await page.evaluate(() => {
    const w = window as unknown as { __shifts: number[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!e.hadRecentInput) w.__shifts.push(e.value);
      }
    }).observe({ type: "layout-shift", buffered: false });
  });
  for (const [i, step] of FIGURE1.slice(0, 3).entries()) await ask(page, step.q, i);

  // the fourth question streams slowly (the mock delays the QIR reply)
  await page.getByTestId("question-input").fill("Who founded Warner Bros.?");
  await expect(page.getByTestId("send-button")).toBeEnabled(); // sends only once the KG list has loaded
  await page.getByTestId("question-input").press("Enter");
  const running = turn(page, 3);
  await expect(running).toHaveAttribute("data-status", "running");
  // the reader scrolls back to the first turn while the fourth one runs
  const scroller = page.getByTestId("chat-scroll");
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  const first = turn(page, 0).getByTestId("turn-question");
  const before = await first.boundingBox();
  // the running turn's derivation card for QIR, as shown while streaming
  const qirCard = page.locator("[data-testid=derivation] [data-testid=stage-card][data-stage=qir]");
  await expect(qirCard).toHaveAttribute("data-state", "running");
  const qirBefore = await qirCard.boundingBox();
  await page.evaluate(() => ((window as unknown as { __shifts: number[] }).__shifts = []));

  await expect(running).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(page.locator("[data-testid=derivation] [data-testid=stage-card][data-stage=execution]")).toHaveAttribute("data-state", "done");
  // the chat did not move under the reader, and cards above the growing end of the derivation stayed put
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
  expect((await first.boundingBox())!.y).toBeCloseTo(before!.y, 0);
  expect((await qirCard.boundingBox())!.y).toBeCloseTo(qirBefore!.y, 0);
  const cls = await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts.reduce((a, b) => a + b, 0));
  expect(cls).toBeLessThan(0.05);
});

test("a one-line answer takes the place of the step indicator without shrinking the turn", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("question-input").fill("Who founded Warner Bros.?");
  await expect(page.getByTestId("send-button")).toBeEnabled(); // sends only once the KG list has loaded
  await page.getByTestId("question-input").press("Enter");
  const t = turn(page, 0);
  await expect(t.getByTestId("step-indicator")).toBeVisible();
  const bubble = t.getByTestId("turn-answer-area");
  const whileRunning = (await bubble.boundingBox())!.height;
  await expect(t).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  const t2 = await ask(page, FIGURE1[0].q, 1);
  await expect(t2.getByTestId("answer")).toContainText(FIGURE1[0].expect);
  // the single-entity answer is shorter than the indicator, but the area keeps the indicator's height
  expect((await t2.getByTestId("turn-answer-area").boundingBox())!.height).toBeGreaterThanOrEqual(whileRunning - 1);
});
