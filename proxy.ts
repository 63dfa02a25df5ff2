// Sign-in gate for pages (and the server actions posted to them) when sign-in is on: the browser is sent to /signin.
// API routes check in the handler (lib/server/session.ts): a proxy would buffer every request body, uploads included.
import type { NextAuthRequest } from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { getAuth } from "@/lib/server/auth";
import { accessDecision, unauthorizedError } from "@/lib/server/auth-policy";
import { errorResponse } from "@/lib/server/http";

export async function proxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  try {
    const a = await getAuth();
    if (!a) return NextResponse.next();
    // auth(handler) is overloaded for routes and proxies alike; this is the proxy form
    const gate = a.auth((req: NextAuthRequest) => {
      const { pathname, search } = req.nextUrl;
      const decision = accessDecision({ enabled: true, signedIn: Boolean(req.auth?.user), method: req.method, pathname, search });
      if (decision.kind === "redirect") return NextResponse.redirect(new URL(decision.location, req.nextUrl));
      if (decision.kind === "unauthorized") return errorResponse(unauthorizedError());
      return NextResponse.next();
    }) as unknown as (req: NextRequest, ev: NextFetchEvent) => Promise<Response | undefined>;
    return (await gate(request, event)) ?? NextResponse.next();
  } catch (e) {
    return errorResponse(e);
  }
}

export const config = {
  // not API routes (checked in their handlers), static files, or the eval import route (a file upload, checked in the handler)
  matcher: ["/((?!api/|_next/static/|_next/image|favicon\\.svg|theme-init\\.js|eval/import).*)"],
};
