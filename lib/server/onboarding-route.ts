// The onboarding routes' shared plumbing: the API over this process's services, and the KG id from the path.
import "server-only";
import { idSchema } from "@/lib/api/shared";
import { parseWith } from "./http";
import { createOnboardingApi, type OnboardingApi } from "./onboarding-api";
import { getServices } from "./services";

export function getOnboardingApi(): OnboardingApi {
  return createOnboardingApi(getServices());
}

/** Small JSON bodies only (an action, a notes text). */
export const ONBOARDING_BODY_LIMIT = 32 * 1024;

export async function kgIdOf(context: { params: Promise<{ id: string }> }): Promise<string> {
  const raw = (await context.params).id;
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    // not percent-encoded after all: the id as it came
  }
  return parseWith(idSchema, id, "KG id");
}
