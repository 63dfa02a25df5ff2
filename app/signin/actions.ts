"use server";
// The sign-in form's action: checks the shared password through Auth.js and goes back where the browser came from.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress, getAuth, isWrongPassword } from "@/lib/server/auth";
import { getSignInLimiter } from "@/lib/server/limiters";
import { safeCallbackPath, SIGN_IN_PATH } from "@/lib/server/auth-policy";

export async function signInWithPassword(form: FormData): Promise<void> {
  const a = await getAuth();
  if (!a) redirect("/");
  const back = safeCallbackPath(form.get("callbackUrl"));
  const again = (error: string) => `${SIGN_IN_PATH}?error=${error}${back === "/" ? "" : `&callbackUrl=${encodeURIComponent(back)}`}`;
  try {
    await getSignInLimiter().acquire(clientAddress(await headers()));
  } catch (e) {
    // by code: the limiter is shared through globalThis, possibly created by another bundle's copy of AppError
    if ((e as { code?: unknown } | null)?.code === "rate_limited") redirect(again("limit"));
    throw e;
  }
  try {
    // on success this throws Next's redirect to `back`, which must travel on
    await a.signIn("credentials", { password: String(form.get("password") ?? ""), redirectTo: back });
  } catch (e) {
    if (isWrongPassword(e)) redirect(again("1"));
    throw e;
  }
}
