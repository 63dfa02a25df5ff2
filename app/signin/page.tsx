// Sign-in page for shared deployments (AUTH_PASSWORD): one password field; with sign-in off it sends the browser home.
import { redirect } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { getAuth } from "@/lib/server/auth";
import { safeCallbackPath } from "@/lib/server/auth-policy";
import { signInWithPassword } from "./actions";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; callbackUrl?: string }> }) {
  if (!(await getAuth())) redirect("/");
  const { error, callbackUrl } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <form action={signInWithPassword} className="w-full max-w-sm space-y-4 rounded-lg border bg-card p-6 shadow-sm">
        <h1 className="text-lg font-semibold">Sign in to Chatty-KG</h1>
        <p className="text-sm text-muted-foreground">This server is shared. Enter the password its administrator gave you.</p>
        <input type="hidden" name="callbackUrl" value={safeCallbackPath(callbackUrl)} />
        <label className="block space-y-1 text-sm">
          <span>Password</span>
          <Input name="password" type="password" autoComplete="current-password" required autoFocus aria-invalid={error ? true : undefined} />
        </label>
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error === "limit" ? "Too many attempts. Wait a minute, then try again." : "That password is not right. Try again."}
          </p>
        ) : null}
        <Button type="submit" className="w-full">
          Sign in
        </Button>
      </form>
    </main>
  );
}
