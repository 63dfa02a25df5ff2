// End-to-end tests: a production build served on 127.0.0.1, driven by Debian's chromium (Playwright's download is blocked).
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// The server must start with no LLM configured: the home page then has to explain what to set.
const NO_LLM = {
  LLM_PROVIDER: "",
  LLM_MODEL: "",
  LLM_BASE_URL: "",
  LLM_API_KEY: "",
  OPENAI_API_KEY: "",
  GOOGLE_GENERATIVE_AI_API_KEY: "",
};

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  timeout: 30_000,
  retries: 0,
  workers: 1,
  // .ci/run sets PLAYWRIGHT_JSON_OUTPUT_FILE to collect machine-readable results next to the list output.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [["list"], ["json"]] : [["list"]],
  use: { baseURL: BASE_URL, trace: "off", screenshot: "only-on-failure" },
  projects: [
    {
      name: "debian-chromium",
      use: {
        ...devices["Desktop Chrome"],
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
      },
    },
  ],
  webServer: {
    command: `npx prisma migrate deploy && npx next build && npx next start -H 127.0.0.1 -p ${PORT}`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      ...NO_LLM,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "file:./.data/e2e.db",
      KG_DEFAULT: "sample",
      NEXT_TELEMETRY_DISABLED: "1",
      // type errors are the typecheck step's job (see next.config.mjs)
      CHATTY_SKIP_BUILD_TYPECHECK: "1",
    },
  },
});
