// Auth.js's routes (CSRF token, credentials callback, session, sign-out) when sign-in is on; a 404 when it is off.
import type { NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { clientAddress, getAuth } from "@/lib/server/auth";
import { getSignInLimiter } from "@/lib/server/limiters";
import { errorResponse } from "@/lib/server/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function route(request: NextRequest, method: "GET" | "POST"): Promise<Response> {
  try {
    const a = await getAuth();
    if (!a) throw new AppError("not_found", "Sign-in is off on this server (AUTH_PASSWORD is not set).");
    // a password try (the sign-in form's action counts its own): 429 past the limit
    if (method === "POST" && request.nextUrl.pathname.endsWith("/callback/credentials")) await getSignInLimiter().acquire(clientAddress(request.headers));
    return await a.handlers[method](request);
  } catch (e) {
    return errorResponse(e);
  }
}

export const GET = (request: NextRequest) => route(request, "GET");
export const POST = (request: NextRequest) => route(request, "POST");
