// The browser session: a random id in an httpOnly, SameSite=Lax cookie signed with HMAC-SHA256 (SESSION_SECRET);
// with sign-in on (AUTH_PASSWORD), only signed-in browsers get one.
import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SIGN_IN_PATH } from "./auth-policy";
import { isSignedIn, requireSignedIn } from "./auth";

export const SESSION_COOKIE = "ckg_session";
/** One year: conversations are kept per browser, so the cookie should outlive a browser restart. */
export const SESSION_MAX_AGE_S = 365 * 24 * 3600;
const ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** A new random session id (128 bits, base64url). */
export function newSessionId(): string {
  return randomBytes(16).toString("base64url");
}

function mac(id: string, secret: string): string {
  return createHmac("sha256", secret).update(`session:${id}`).digest("base64url");
}

/** `<id>.<hmac>`: the cookie value for a session id. */
export function signSessionId(id: string, secret: string): string {
  return `${id}.${mac(id, secret)}`;
}

/** The session id inside a cookie value, or null when it is malformed or its signature does not match. */
export function verifySessionCookie(value: string | undefined, secret: string): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return null;
  const id = value.slice(0, dot);
  if (!ID_PATTERN.test(id)) return null;
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(id, secret));
  // constant-time compare: the signature must not be guessable byte by byte from response times
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/**
 * SESSION_SECRET, or a random secret generated once and kept in <dataDir>/session-secret (mode 0600)
 * so a restart keeps everyone's sessions.
 */
export function loadSessionSecret(env: Record<string, string | undefined> = process.env, dataDir = path.resolve(".data")): string {
  const fromEnv = env.SESSION_SECRET?.trim();
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, "session-secret");
  try {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  } catch {
    // not created yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    // "wx": two processes starting at once must end up with the same secret, so only the first write wins
    writeFileSync(file, `${secret}\n`, { flag: "wx", mode: 0o600 });
    return secret;
  } catch {
    return readFileSync(file, "utf8").trim();
  }
}

const cache = globalThis as unknown as { __chattyKgSessionSecret?: string };
function secret(): string {
  cache.__chattyKgSessionSecret ??= loadSessionSecret();
  return cache.__chattyKgSessionSecret;
}

/** For pages (server components): the session id, or null for a browser without a valid cookie (an empty session). */
export async function readSessionId(): Promise<string | null> {
  // with sign-in on, a page is for signed-in browsers only (proxy.ts redirects first; this holds if a path slips past it)
  if (!(await isSignedIn())) redirect(SIGN_IN_PATH);
  const jar = await cookies();
  return verifySessionCookie(jar.get(SESSION_COOKIE)?.value, secret());
}

/** For route handlers: the session id of the browser's cookie, or null when it has none; sets no cookie (401 when signed out). */
export async function cookieSessionId(): Promise<string | null> {
  await requireSignedIn();
  const jar = await cookies();
  return verifySessionCookie(jar.get(SESSION_COOKIE)?.value, secret());
}

/**
 * A token that carries a session id for one purpose (an MCP session id names the app session its requests run
 * under): `<purpose>.<nonce>.<id>.<hmac>`, unique per call, verifiable by every server process sharing SESSION_SECRET.
 */
export function sessionToken(purpose: string, id: string): string {
  const nonce = randomBytes(9).toString("base64url");
  return `${purpose}.${nonce}.${id}.${mac(`${purpose}:${nonce}:${id}`, secret())}`;
}

/** The session id inside a sessionToken of this purpose, or null when malformed or forged. */
export function verifySessionToken(purpose: string, value: string | null | undefined): string | null {
  const m = /^([a-z0-9-]+)\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]+)$/.exec(value?.trim() ?? "");
  if (!m || m[1] !== purpose) return null;
  const given = Buffer.from(m[4]);
  const expected = Buffer.from(mac(`${purpose}:${m[2]}:${m[3]}`, secret()));
  return given.length === expected.length && timingSafeEqual(given, expected) ? m[3] : null;
}

/** For route handlers and server actions: the session id, setting a new signed cookie when there is none. */
export async function getSessionId(): Promise<string> {
  // every API route and server action starts here: with sign-in on, a browser that is not signed in gets a 401
  await requireSignedIn();
  const jar = await cookies();
  const existing = verifySessionCookie(jar.get(SESSION_COOKIE)?.value, secret());
  if (existing) return existing;
  const id = newSessionId();
  jar.set(SESSION_COOKIE, signSessionId(id, secret()), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: SESSION_MAX_AGE_S,
    // Secure only when asked: `npm run serve` runs on plain http://127.0.0.1, where a Secure cookie would be dropped
    secure: process.env.SESSION_COOKIE_SECURE === "true",
  });
  return id;
}
