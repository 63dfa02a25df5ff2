// What identifies a KG's content for onboarding: a SHA-256 over its files (names sorted, each file's bytes), or the
// endpoint's URL — an endpoint cannot be hashed, so a user says when it changed (OnboardingService.invalidate).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** sha256 of the files' contents in the order given (callers sort), with the entailment regime (it changes the KG). */
export async function hashFiles(paths: string[], entailment = "none"): Promise<string> {
  const h = createHash("sha256");
  h.update(`entailment:${entailment}\n`);
  for (const p of paths) {
    h.update(`file\n`);
    await new Promise<void>((resolve, reject) => {
      const s = createReadStream(p);
      s.on("data", (chunk) => h.update(chunk));
      s.on("end", () => resolve());
      s.on("error", reject);
    });
  }
  return `sha256:${h.digest("hex")}`;
}

export const endpointHash = (url: string) => `endpoint:${url}`;
