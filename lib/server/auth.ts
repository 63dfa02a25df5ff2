// Auth.js (next-auth v5) for shared deployments: one shared password (credentials provider), JWT sessions in a cookie,
// loaded only when AUTH_PASSWORD is set, so the local default pays nothing for it.
import "server-only";
import type { NextAuthConfig, NextAuthResult } from "next-auth";
import { authSettingsFromEnv, passwordMatches, SIGN_IN_PATH, unauthorizedError, type AuthSettings } from "./auth-policy";
import { logError } from "./security";

/** A signed-in browser stays signed in for 30 days (Auth.js renews the cookie while it is used). */
export const AUTH_SESSION_MAX_AGE_S = 30 * 24 * 3600;

/**
 * Auth.js's refusal of a password. By its `type`, not instanceof or `name`: a production build minifies class names,
 * and the server-action bundle may hold its own copy of the error classes.
 */
export function isWrongPassword(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { type?: unknown }).type === "CredentialsSignin";
}

export function authConfig(settings: Extract<AuthSettings, { enabled: true }>, credentials: NextAuthConfig["providers"][number]): NextAuthConfig {
  return {
    secret: settings.secret,
    // the app runs behind whatever host name it is given (`npm run serve` on loopback, a reverse proxy); AUTH_URL pins it
    trustHost: true,
    session: { strategy: "jwt", maxAge: AUTH_SESSION_MAX_AGE_S },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    providers: [credentials],
    logger: {
      // a wrong password is an expected outcome, not a server error worth a stack trace
      error: (e) => {
        if (!isWrongPassword(e)) logError("[chatty-kg] sign-in:", e);
      },
      warn: () => {},
      debug: () => {},
    },
  };
}

const cache = globalThis as unknown as { __chattyKgAuth?: Promise<NextAuthResult | null> };

/** The client's address as the request tells it (first X-Forwarded-For entry, X-Real-IP), for the sign-in limiter. */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  // last: the connection's own address, which scripts/serve.mjs writes (a client cannot set it)
  return forwarded || headers.get("x-real-ip")?.trim() || headers.get("x-chatty-client-addr")?.trim() || "unknown";
}

/** The Auth.js instance, or null when sign-in is off (AUTH_PASSWORD unset). */
export function getAuth(): Promise<NextAuthResult | null> {
  cache.__chattyKgAuth ??= (async () => {
    const settings = authSettingsFromEnv();
    if (!settings.enabled) return null;
    const [{ default: NextAuth }, { default: Credentials }] = await Promise.all([import("next-auth"), import("next-auth/providers/credentials")]);
    const credentials = Credentials({
      credentials: { password: { label: "Password", type: "password" } },
      // one shared password: every browser that knows it signs in as the same user, each keeping its own conversations
      authorize: (input) => (passwordMatches(input?.password, settings.password) ? { id: "shared", name: "Signed in" } : null),
    });
    return NextAuth(authConfig(settings, credentials));
  })();
  return cache.__chattyKgAuth;
}

/** True when sign-in is off or this request's browser is signed in (route handlers, server actions, pages). */
export async function isSignedIn(): Promise<boolean> {
  const a = await getAuth();
  if (!a) return true;
  const session = await a.auth();
  return Boolean(session?.user);
}

/** Throws unauthorized (401) unless isSignedIn. */
export async function requireSignedIn(): Promise<void> {
  if (!(await isSignedIn())) throw unauthorizedError();
}
