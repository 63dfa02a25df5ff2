// Who is calling a machine-facing route (TEXT2SPARQL, MCP): a client with the route's bearer token, or a browser
// session as for every other API route (sign-in when it is on).
import "server-only";
import { AppError } from "@/lib/errors";
import { passwordMatches } from "./auth-policy";
import { getSessionId } from "./session";

type Env = Record<string, string | undefined>;

export type BearerCheck = { kind: "none" } | { kind: "valid" } | { kind: "invalid"; why: string };

/**
 * The Authorization header against the token in `tokenVar`: none sent, the right one, or a wrong one (a token sent to
 * a server that has none configured is wrong too: the client expects a gate that is not there).
 */
export function checkBearer(header: string | null, tokenVar: string, env: Env = process.env): BearerCheck {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header?.trim() ?? "");
  if (!m) return { kind: "none" };
  const expected = env[tokenVar]?.trim();
  if (!expected) return { kind: "invalid", why: `this server has no ${tokenVar} set` };
  return passwordMatches(m[1], expected) ? { kind: "valid" } : { kind: "invalid", why: "the token does not match" };
}

/** The session a token client's runs are counted (and, for MCP, its conversations kept) under: one per token variable. */
export function tokenSessionId(tokenVar: string): string {
  return `machine_${tokenVar.toLowerCase()}`;
}

/** The caller's session id: the token's when a valid bearer token came, else the browser session (401 when signed out). */
export async function callerSession(request: Request, tokenVar: string, env: Env = process.env): Promise<string> {
  const bearer = checkBearer(request.headers.get("authorization"), tokenVar, env);
  if (bearer.kind === "valid") return tokenSessionId(tokenVar);
  if (bearer.kind === "invalid") throw new AppError("unauthorized", `The bearer token was refused: ${bearer.why}.`);
  return getSessionId();
}
