#!/usr/bin/env node
// Reads vitest's and Playwright's JSON reports and prints one line "N passed, N failed[, N skipped]"; exit 1 on failure.
// Before it: the [virtuoso] suites' counts, and one line per extra report (e.g. the runs against PostgreSQL).
/* global process, console */
// Usage: node .ci/summarize.mjs <vitest.json> <playwright.json> [<vitest exit code> <playwright exit code>]
//          [--extra <label> <vitest|playwright> <report.json> <exit code>]…
import fs from "node:fs";

const args = process.argv.slice(2);
const extraAt = args.indexOf("--extra");
const [vitestFile, playwrightFile, vitestExit = "0", playwrightExit = "0"] = extraAt >= 0 ? args.slice(0, extraAt) : args;
if (!vitestFile || !playwrightFile) {
  console.error("usage: summarize.mjs <vitest.json> <playwright.json> [vitestExit playwrightExit] [--extra label vitest|playwright file exit]…");
  process.exit(2);
}
const extras = [];
for (let i = extraAt; i >= 0 && i < args.length; i = args.indexOf("--extra", i + 1)) {
  const [label, runner, file, exit = "0"] = args.slice(i + 1, i + 5);
  if (!label || (runner !== "vitest" && runner !== "playwright") || !file) {
    console.error("--extra needs <label> <vitest|playwright> <report.json> <exit code>");
    process.exit(2);
  }
  extras.push({ label, runner, file, exit });
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

/** Counts of the tests under a describe() whose title starts with the tag, e.g. "[virtuoso]". */
export function countTagged(report, tag) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const file of report.testResults ?? []) {
    for (const a of file.assertionResults ?? []) {
      if (!(a.ancestorTitles ?? []).some((t) => t.startsWith(tag))) continue;
      if (a.status === "passed") counts.passed++;
      else if (a.status === "failed") counts.failed++;
      else counts.skipped++;
    }
  }
  return counts;
}

const line = (c) => `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ""}`;
const total = { passed: 0, failed: 0, skipped: 0 };
const add = (c) => {
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
};

const virtuoso = { passed: 0, failed: 0, skipped: 0 };
const runs = [
  { label: undefined, runner: "vitest", file: vitestFile, exit: vitestExit },
  { label: undefined, runner: "playwright", file: playwrightFile, exit: playwrightExit },
  ...extras,
];
for (const { label, runner, file, exit } of runs) {
  const report = readJson(file, runner);
  const c = report ? (runner === "vitest" ? countVitest(report) : countPlaywright(report)) : { passed: 0, failed: 1, skipped: 0 };
  // A runner that exited non-zero without any recorded failure (crash, unhandled error) still failed once.
  if (report && Number(exit) !== 0 && c.failed === 0) {
    console.error(`${label ?? runner}: exited with code ${exit} although no test failed`);
    c.failed = 1;
  }
  if (report && runner === "vitest") {
    const v = countTagged(report, "[virtuoso]");
    for (const k of Object.keys(v)) virtuoso[k] += v[k];
  }
  if (label) console.log(`${label}: ${line(c)}`);
  add(c);
}
console.log(`virtuoso tests: ${line(virtuoso)}`);

console.log(line(total));
process.exit(total.failed > 0 ? 1 : 0);
