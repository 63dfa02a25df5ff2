// What the MCP tools run on: the app's KG registry and turn runner, the caller's session, and where the app is served.
import type { Queries } from "@/lib/db/queries";
import type { OnboardingService } from "@/lib/kg/onboarding/service";
import type { KgRegistry } from "@/lib/server/kg-registry";
import type { RateLimiter } from "@/lib/server/rate-limit";
import type { TurnRunner } from "@/lib/server/turn-runner";

export interface McpContext {
  registry: KgRegistry;
  runner: TurnRunner;
  /** reads a stored turn for the derivation resource */
  queries: Pick<Queries, "getTurn">;
  /** counts ask_kg runs as the turn routes count questions */
  limiter: RateLimiter;
  /** the session whose KGs the tools see and under which ask_kg keeps its conversations */
  sessionId: string;
  /** the app's base URL for links to a derivation (absent: links are paths) */
  appUrl?: string;
  /** the KGs' onboarding results: describe_schema and the overview/examples resources read the profile from here */
  onboarding?: Pick<OnboardingService, "getProfile" | "getNotes" | "listExamples">;
}
