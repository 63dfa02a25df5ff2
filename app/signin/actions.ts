"use server";
// The sign-in form's action: checks the shared password through Auth.js and goes back where the browser came from.
import { redirect } from "next/navigation";
import { getAuth, isWrongPassword } from "@/lib/server/auth";
import { safeCallbackPath, SIGN_IN_PATH } from "@/lib/server/auth-policy";

export async function signInWithPassword(form: FormData): Promise<void> {
  const a = await getAuth();
  if (!a) redirect("/");
  const back = safeCallbackPath(form.get("callbackUrl"));
  try {
    // on success this throws Next's redirect to `back`, which must travel on
    await a.signIn("credentials", { password: String(form.get("password") ?? ""), redirectTo: back });
  } catch (e) {
    if (isWrongPassword(e)) redirect(`${SIGN_IN_PATH}?error=1${back === "/" ? "" : `&callbackUrl=${encodeURIComponent(back)}`}`);
    throw e;
  }
}
