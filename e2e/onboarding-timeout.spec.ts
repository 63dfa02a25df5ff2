// An endpoint that passes the add-endpoint probe and then never answers: its preparation must stop at the query
// timeout with the reason shown, and the start page must never block the question box meanwhile.
import { expect, test } from "@playwright/test";
import { addEndpoint, overviewButton, shot } from "./chat-page";
import { startRefusingEndpoint } from "./onboarding-kg";

test("an endpoint that never answers: its preparation stops at the query timeout, saying so", async ({ page }, info) => {
  test.setTimeout(120_000);
  const endpoint = await startRefusingEndpoint("hang");
  try {
    await page.goto("/");
    await addEndpoint(page, endpoint.url);
    const status = page.getByTestId("suggestions-status");
    // while it waits, the start page says the KG is being prepared and the question box stays open; on a phone the
    // header says so beside the KG's name (the Overview entry is inside the settings sheet there)
    await expect(page.getByTestId("question-input")).toBeEditable();
    await page.setViewportSize({ width: 390, height: 844 });
    const phoneMark = page.getByTestId("phone-onboarding");
    await expect(phoneMark).toHaveAttribute("data-state", /queued|running/);
    await expect(phoneMark).toContainText("%");
    await shot(page, info, "38-onboarding-endpoint-waiting-390");
    await expect(status).toContainText(/stopped: The KG did not answer in time/, { timeout: 90_000 });
    await expect(status).toContainText("Chatting still works");
    await expect(phoneMark).toHaveAttribute("data-state", "failed");
    await shot(page, info, "39-onboarding-endpoint-timeout-390");
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(overviewButton(page)).toHaveAttribute("data-state", "failed");
    await expect(phoneMark).toBeHidden();
    // the overview says the same, why nothing is listed, and offers to run it again
    await overviewButton(page).click();
    await expect(page.getByTestId("overview-status-text")).toContainText("The KG did not answer in time");
    await expect(page.getByTestId("overview-no-profile").first()).toContainText("were not read");
    await expect(page.getByTestId("onboarding-resume")).toBeVisible();
    await shot(page, info, "40-onboarding-endpoint-timeout-overview-1440");
  } finally {
    await endpoint.close();
  }
});
