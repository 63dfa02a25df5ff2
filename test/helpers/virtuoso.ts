// Virtuoso test suites run only where Debian's virtuoso-opensource is installed; elsewhere they say why they skip.
import { virtuosoMissing } from "@/lib/kg/testing/virtuoso";

/** Why the Virtuoso suites skip here, or undefined when they run. REQUIRE_VIRTUOSO=1 (CI) turns a skip into a failure. */
export const virtuosoSkip: string | undefined = virtuosoMissing();

if (virtuosoSkip) {
  if (process.env.REQUIRE_VIRTUOSO === "1") throw new Error(`REQUIRE_VIRTUOSO=1 but Virtuoso cannot run: ${virtuosoSkip}`);
  console.warn(`[virtuoso] suites skipped: ${virtuosoSkip}`);
}

/** A describe() title tagged [virtuoso] (CI counts these), with the reason when skipped. */
export function virtuosoSuite(title: string): string {
  return `[virtuoso] ${title}${virtuosoSkip ? ` (skipped: ${virtuosoSkip})` : ""}`;
}
