// End-to-end tests: a production build served on 127.0.0.1, driven by Debian's chromium (Playwright's download is blocked).
// Two app servers share one build: one with no LLM configured (the setup hint), one whose LLM is the local mock
// OpenAI-compatible server playing the scripted Figure-1 dialogue.
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const LLM_PORT = PORT + 1;
const MOCK_LLM_PORT = Number(process.env.E2E_MOCK_LLM_PORT ?? 4010);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const LLM_BASE_URL = `http://127.0.0.1:${LLM_PORT}`;

/** The key the app sends to the mock LLM; no page or response may ever contain it (e2e/api-key.spec.ts). */
export const E2E_LLM_API_KEY = "sk-e2e-9f3c1a7d-do-not-leak";

// The first server must start with no LLM configured: the home page then has to explain what to set.
const NO_LLM = {
  LLM_PROVIDER: "",
  LLM_MODEL: "",
  LLM_BASE_URL: "",
  LLM_API_KEY: "",
  OPENAI_API_KEY: "",
  GOOGLE_GENERATIVE_AI_API_KEY: "",
};

// onboarding: KGs a test adds are prepared (template questions: deterministic, no mock-model calls); the default KG is
// not, so specs that count the sample KG's experience pool see only what they put there
const COMMON_ENV = { KG_DEFAULT: "sample", NEXT_TELEMETRY_DISABLED: "1", ONBOARDING_AUTO: "added", ONBOARDING_VERBALIZER: "template" };

const chromium = {
  ...devices["Desktop Chrome"],
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  // .ci/run sets PLAYWRIGHT_JSON_OUTPUT_FILE to collect machine-readable results next to the list output.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [["list"], ["json"]] : [["list"]],
  use: { trace: "off", screenshot: "only-on-failure", acceptDownloads: true },
  projects: [
    { name: "no-llm", testMatch: /(home|endpoint-policy)\.spec\.ts/, use: { ...chromium, baseURL: BASE_URL } },
    { name: "mock-llm", testIgnore: /(home|endpoint-policy)\.spec\.ts/, use: { ...chromium, baseURL: LLM_BASE_URL } },
  ],
  webServer: [
    {
      command: `npx tsx lib/llm/testing/mock-openai-server.ts --port ${MOCK_LLM_PORT} --script test/fixtures/e2e/figure1-rules.json --api-key ${E2E_LLM_API_KEY}`,
      url: `http://127.0.0.1:${MOCK_LLM_PORT}/v1/models`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      // E2E_SKIP_BUILD=1 serves the existing build (CI's second run, on PostgreSQL)
      command: `npm run db:migrate && ${process.env.E2E_SKIP_BUILD === "1" ? "" : "npx next build && "}npx next start -H 127.0.0.1 -p ${PORT}`,
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 300_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { ...NO_LLM, ...COMMON_ENV, DATABASE_URL: process.env.E2E_DATABASE_URL ?? "file:./.data/e2e.db" },
    },
    {
      // started after the build above (web servers start in order), so it serves the same .next output
      command: `npm run db:migrate && npx next start -H 127.0.0.1 -p ${LLM_PORT}`,
      url: `${LLM_BASE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        ...COMMON_ENV,
        OPENAI_API_KEY: "",
        GOOGLE_GENERATIVE_AI_API_KEY: "",
        LLM_PROVIDER: "openai-compatible",
        LLM_BASE_URL: `http://127.0.0.1:${MOCK_LLM_PORT}/v1`,
        LLM_MODEL: "mock",
        LLM_API_KEY: E2E_LLM_API_KEY,
        // the mock model plays Chatty-KG's scripted dialogue: new conversations start there (lib/server/default-strategy.ts)
        STRATEGY_DEFAULT: "chatty-kg",
        // e2e/onboarding.spec.ts adds an endpoint served on 127.0.0.1 by the test itself
        KG_ALLOW_PRIVATE_ENDPOINTS: "true",
        DATABASE_URL: process.env.E2E_LLM_DATABASE_URL ?? "file:./.data/e2e-llm.db",
      },
    },
  ],
});
