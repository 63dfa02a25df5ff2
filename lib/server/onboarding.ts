// The app's onboarding service: jobs run in this server process, results in the app database, KGs opened through the
// registry (so a job and the turns share one open KG), the model from the environment for the questions
// (ONBOARDING_VERBALIZER=template|llm|auto; auto: the model when one is configured).
import "server-only";
import type { Queries } from "@/lib/db/queries";
import type { OnboardingService } from "@/lib/kg/onboarding/service";
import { createOnboardingService } from "@/lib/kg/onboarding/runner";
import { llmConfigFromEnv, type Env } from "@/lib/llm/config";
import { createLlmFromConfig } from "@/lib/llm/create";
import type { LlmGateway } from "@/lib/llm/types";
import type { KgRegistry } from "./kg-registry";

/** The model for the questions phase, or undefined (templates) when ONBOARDING_VERBALIZER=template or none is configured. */
export function onboardingLlm(env: Env): LlmGateway | undefined {
  const mode = env.ONBOARDING_VERBALIZER?.trim() || "auto";
  if (mode === "template") return undefined;
  try {
    const config = llmConfigFromEnv(env);
    return config ? createLlmFromConfig(config) : undefined;
  } catch {
    // a misconfigured model leaves the template questions; turns report the configuration problem themselves
    return undefined;
  }
}

export function createAppOnboarding(deps: { registry: KgRegistry; queries: Pick<Queries, "onboarding">; env?: Env }): OnboardingService {
  const env = deps.env ?? process.env;
  return createOnboardingService({
    store: deps.queries.onboarding,
    // the default KG is everyone's; uploads and endpoints open with the session that added them
    open: (kgKey, sessionId) => deps.registry.getKg(sessionId ?? "", kgKey),
    contentHash: (kgKey, sessionId) => deps.registry.contentKey(sessionId ?? "", kgKey),
    llm: () => onboardingLlm(env),
  });
}

/**
 * Which KGs are prepared without being asked (ONBOARDING_AUTO): "true" (default) the KGs users add and the default KG
 * at start; "added" only the KGs users add; "false" none (the overview's "Prepare this KG" and `npm run onboard` still do).
 */
export function onboardingAuto(env: Env = process.env): { added: boolean; default: boolean } {
  const v = env.ONBOARDING_AUTO?.trim().toLowerCase() ?? "true";
  if (v === "false" || v === "0" || v === "off") return { added: false, default: false };
  if (v === "added") return { added: true, default: false };
  return { added: true, default: true };
}
