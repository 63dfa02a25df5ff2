// Sign-in for shared deployments, as pure rules: when it is on (AUTH_PASSWORD), the password check, what stays public.
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/errors";

type Env = Record<string, string | undefined>;

export const PASSWORD_VAR = "AUTH_PASSWORD";
export const SECRET_VAR = "AUTH_SECRET";
/** Auth.js signs and encrypts its session cookie with AUTH_SECRET; a short one would be guessable. */
export const MIN_SECRET_CHARS = 32;
export const SIGN_IN_PATH = "/signin";
/** Auth.js's own routes (sign-in callback, CSRF token, sign-out). */
export const AUTH_API_PREFIX = "/api/auth";

export type AuthSettings = { enabled: false } | { enabled: true; password: string; secret: string };

/**
 * Off unless AUTH_PASSWORD is set (the local default: `npm run serve` on loopback needs no sign-in). On, AUTH_SECRET
 * must be set too: a clear configuration error rather than a server that silently accepts no one.
 */
export function authSettingsFromEnv(env: Env = process.env): AuthSettings {
  const password = env[PASSWORD_VAR];
  if (!password?.trim()) return { enabled: false };
  const secret = env[SECRET_VAR]?.trim() ?? "";
  if (secret.length < MIN_SECRET_CHARS) {
    throw new AppError(
      "internal",
      `${PASSWORD_VAR} is set, so sign-in is on, but ${SECRET_VAR} is ${secret ? "shorter than" : "not set; it needs"} ${MIN_SECRET_CHARS} characters ` +
        `(e.g. from \`openssl rand -base64 32\`).`,
    );
  }
  return { enabled: true, password, secret };
}

/** Compares in constant time (over digests, so the length of the password does not show either). */
export function passwordMatches(given: unknown, expected: string): boolean {
  if (typeof given !== "string" || given.length === 0 || given.length > 1024) return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Paths anyone may reach when sign-in is on: the liveness probe, the sign-in page and Auth.js's routes. */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === "/api/health" ||
    pathname === SIGN_IN_PATH ||
    pathname === AUTH_API_PREFIX ||
    pathname.startsWith(`${AUTH_API_PREFIX}/`)
  );
}

/** Where to go after signing in: a path of this site only (never `//host` or an absolute URL), else "/". */
export function safeCallbackPath(raw: unknown): string {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/";
  if (raw.startsWith(SIGN_IN_PATH) || raw.length > 2000) return "/";
  return raw;
}

const SHARE_PAGE = /^\/share\/[^/]+$/;

/** Paths outside /api whose handlers check sign-in themselves, because machine clients call them with a bearer token. */
export const HANDLER_CHECKED_PATHS: readonly string[] = ["/text2sparql"];

export type AccessDecision = { kind: "allow" } | { kind: "redirect"; location: string } | { kind: "unauthorized" };

/**
 * What a request without a signed-in user gets when sign-in is on: a page is sent to the sign-in page (and back after),
 * anything else (API, form posts) is a 401.
 */
export function accessDecision(args: { enabled: boolean; signedIn: boolean; method: string; pathname: string; search?: string }): AccessDecision {
  if (!args.enabled || args.signedIn || isPublicPath(args.pathname) || HANDLER_CHECKED_PATHS.includes(args.pathname)) return { kind: "allow" };
  // a read-only share page (/share/<signed id>) is read by anyone holding the link; the page refuses unless SHARE_LINKS=on
  // allows links on a server with sign-in. Reads only: a server action posted to that path still needs sign-in.
  if (SHARE_PAGE.test(args.pathname) && (args.method === "GET" || args.method === "HEAD")) return { kind: "allow" };
  if ((args.method === "GET" || args.method === "HEAD") && !args.pathname.startsWith("/api/")) {
    const back = safeCallbackPath(`${args.pathname}${args.search ?? ""}`);
    return { kind: "redirect", location: `${SIGN_IN_PATH}${back === "/" ? "" : `?callbackUrl=${encodeURIComponent(back)}`}` };
  }
  return { kind: "unauthorized" };
}

export function unauthorizedError(): AppError {
  return new AppError("unauthorized", "Sign in first: this server is shared and needs its password.", { details: { signIn: SIGN_IN_PATH } });
}
