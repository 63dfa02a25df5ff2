#!/usr/bin/env node
// Reads vitest's and Playwright's JSON reports and prints one line "N passed, N failed[, N skipped]"; exit 1 on failure.
/* global process, console */
// Usage: node .ci/summarize.mjs <vitest.json> <playwright.json> [<vitest exit code> <playwright exit code>]
import fs from "node:fs";

const [vitestFile, playwrightFile, vitestExit = "0", playwrightExit = "0"] = process.argv.slice(2);
if (!vitestFile || !playwrightFile) {
  console.error("usage: summarize.mjs <vitest.json> <playwright.json> [vitestExit playwrightExit]");
  process.exit(2);
}

function readJson(file, runner) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    console.error(`${runner}: no readable report at ${file} (${e instanceof Error ? e.message : e})`);
    return null;
  }
}

/** Counts from vitest's JSON reporter; a test file that failed to load counts as one failure. */
export function countVitest(report) {
  const counts = { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0, skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) };
  for (const file of report.testResults ?? []) {
    const failedInside = (file.assertionResults ?? []).some((a) => a.status === "failed");
    if (file.status === "failed" && !failedInside) {
      counts.failed += 1;
      console.error(`vitest: ${file.name} failed outside any test: ${String(file.message ?? "").split("\n")[0]}`);
    }
  }
  return counts;
}

/** Counts from Playwright's JSON reporter; errors outside tests (e.g. the web server did not start) count as failures. */
export function countPlaywright(report) {
  const s = report.stats ?? {};
  const counts = { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0 };
  for (const err of report.errors ?? []) {
    counts.failed += 1;
    console.error(`playwright: ${String(err.message ?? "").split("\n")[0]}`);
  }
  return counts;
}

const total = { passed: 0, failed: 0, skipped: 0 };
const add = (c) => {
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
};

for (const [runner, file, exit, count] of [
  ["vitest", vitestFile, vitestExit, countVitest],
  ["playwright", playwrightFile, playwrightExit, countPlaywright],
]) {
  const report = readJson(file, runner);
  const c = report ? count(report) : { passed: 0, failed: 1, skipped: 0 };
  // A runner that exited non-zero without any recorded failure (crash, unhandled error) still failed once.
  if (report && Number(exit) !== 0 && c.failed === 0) {
    console.error(`${runner}: exited with code ${exit} although no test failed`);
    c.failed = 1;
  }
  add(c);
}

console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`);
process.exit(total.failed > 0 ? 1 : 0);
