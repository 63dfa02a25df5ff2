// Sign-in for a shared deployment, in a real browser: a second server on the same build with AUTH_PASSWORD set.
// Signed out, pages go to /signin and the API answers 401; a wrong password is refused; the right one opens the chat.
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100) + 2;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const PASSWORD = "e2e shared password";
let server: ChildProcess | undefined;
let serverLog = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = spawn("sh", ["-c", `npm run db:migrate && exec npx next start -H 127.0.0.1 -p ${PORT}`], {
    env: {
      ...process.env,
      KG_DEFAULT: "sample",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: "file:./.data/e2e-signin.db",
      AUTH_PASSWORD: PASSWORD,
      AUTH_SECRET: "e2e-auth-secret-0123456789abcdef0123456789",
      LLM_PROVIDER: "",
      LLM_BASE_URL: "",
      OPENAI_API_KEY: "",
      GOOGLE_GENERATIVE_AI_API_KEY: "",
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true, // its own process group, so the whole tree stops in afterAll
  });
  server.stderr?.on("data", (d: Buffer) => void (serverLog += d.toString()));
  const deadline = Date.now() + 100_000;
  for (;;) {
    const up = await fetch(`${ORIGIN}/api/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`the sign-in server on ${ORIGIN} did not start`);
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterEach(async ({ page: _page }, testInfo) => {
  // the server's own errors, next to the failure
  if (testInfo.status !== testInfo.expectedStatus && serverLog) await testInfo.attach("server-stderr", { body: serverLog, contentType: "text/plain" });
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
});

test("signed out: pages go to /signin, the API answers 401, health stays open", async ({ request }) => {
  const page = await request.get(`${ORIGIN}/c/some-conversation`, { maxRedirects: 0 });
  expect(page.status()).toBe(307);
  expect(page.headers()["location"]).toContain("/signin?callbackUrl=%2Fc%2Fsome-conversation");
  const api = await request.get(`${ORIGIN}/api/kg`);
  expect(api.status()).toBe(401);
  expect(((await api.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  const turn = await request.post(`${ORIGIN}/api/turns`, { data: { question: "Who?", kgId: "sample" } });
  expect(turn.status()).toBe(401);
  expect((await request.get(`${ORIGIN}/api/health`)).status()).toBe(200);
});

test("a wrong password is refused; the right one opens the chat, which keeps working", async ({ page }, testInfo) => {
  await page.goto(`${ORIGIN}/`);
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("That password is not right")).toBeVisible();
  await expect(page).toHaveURL(/\/signin\?error=1/);
  await page.screenshot({ path: testInfo.outputPath("signin-wrong-password.png") });
  expect((await page.request.get(`${ORIGIN}/api/kg`)).status()).toBe(401);

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Chatty-KG" })).toBeVisible();
  await expect(page.getByTestId("kg-status")).toContainText("Sample KG");
  expect((await page.request.get(`${ORIGIN}/api/kg`)).status()).toBe(200);
});
