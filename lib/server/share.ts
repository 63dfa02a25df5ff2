// Share links: whether this server offers them, and the signed token in their URL (/share/<id>.<hmac>). The id alone
// is 128 random bits; the HMAC (with the session secret) lets a forged or mangled URL be refused before any query.
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { loadSessionSecret } from "./session";

type Env = Record<string, string | undefined>;

/** Why sharing is off (null: it is on). On by default; off by default where sign-in is required (SHARE_LINKS=on allows it). */
export function shareLinksOff(env: Env = process.env): string | null {
  const v = env.SHARE_LINKS?.trim().toLowerCase();
  if (v === "on" || v === "true") return null;
  if (v === "off" || v === "false") return "Sharing is turned off on this server (SHARE_LINKS=off).";
  if (env.AUTH_PASSWORD?.trim()) return "Sharing is off because this server requires sign-in; its operator can allow read-only links with SHARE_LINKS=on.";
  return null;
}

const mac = (id: string, secret: string) => createHmac("sha256", secret).update(`share:${id}`).digest("base64url");

export function signShareId(id: string, secret: string): string {
  return `${id}.${mac(id, secret)}`;
}

/** The link id of a well-formed, correctly signed token; null otherwise. */
export function verifyShareToken(token: string, secret: string): string | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || token.length > 200) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(id, secret));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

const cache = globalThis as unknown as { __chattyKgShareSecret?: string };
/** The session secret (SESSION_SECRET or .data/session-secret): one secret to keep, for cookies and links alike. */
export function shareSecret(): string {
  cache.__chattyKgShareSecret ??= loadSessionSecret();
  return cache.__chattyKgShareSecret;
}

/** The path of a link's read-only page. */
export function sharePath(id: string, secret: string = shareSecret()): string {
  return `/share/${signShareId(id, secret)}`;
}
