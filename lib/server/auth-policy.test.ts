// Sign-in rules: on only with AUTH_PASSWORD (+ a long AUTH_SECRET), password check, public paths, where a browser is sent.
import { describe, expect, it } from "vitest";
import { accessDecision, authSettingsFromEnv, isPublicPath, passwordMatches, safeCallbackPath } from "./auth-policy";

const SECRET = "s".repeat(32);

describe("auth settings", () => {
  it("sign-in is off by default and on with AUTH_PASSWORD and AUTH_SECRET", () => {
    expect(authSettingsFromEnv({})).toEqual({ enabled: false });
    expect(authSettingsFromEnv({ AUTH_PASSWORD: "  ", AUTH_SECRET: SECRET })).toEqual({ enabled: false });
    expect(authSettingsFromEnv({ AUTH_PASSWORD: "open sesame", AUTH_SECRET: SECRET })).toEqual({ enabled: true, password: "open sesame", secret: SECRET });
  });

  it("a password without a (long enough) secret is a configuration error naming AUTH_SECRET", () => {
    expect(() => authSettingsFromEnv({ AUTH_PASSWORD: "pw" })).toThrow(/AUTH_SECRET is not set/);
    expect(() => authSettingsFromEnv({ AUTH_PASSWORD: "pw", AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET is shorter than 32/);
  });
});

describe("passwordMatches", () => {
  it("accepts the exact password only", () => {
    expect(passwordMatches("open sesame", "open sesame")).toBe(true);
    for (const wrong of ["open sesam", "open sesame ", "OPEN SESAME", "", undefined, null, 42, ["open sesame"]]) {
      expect(passwordMatches(wrong, "open sesame"), String(wrong)).toBe(false);
    }
    expect(passwordMatches("x".repeat(2000), "x".repeat(2000))).toBe(false); // absurd lengths are refused before hashing
  });
});

describe("access rules with sign-in on", () => {
  const decide = (method: string, pathname: string, signedIn = false, search = "") => accessDecision({ enabled: true, signedIn, method, pathname, search });

  it("pages send a signed-out browser to /signin and back afterwards", () => {
    expect(decide("GET", "/")).toEqual({ kind: "redirect", location: "/signin" });
    expect(decide("GET", "/c/abc", false, "?x=1")).toEqual({ kind: "redirect", location: "/signin?callbackUrl=%2Fc%2Fabc%3Fx%3D1" });
    expect(decide("GET", "/eval/run-1")).toEqual({ kind: "redirect", location: "/signin?callbackUrl=%2Feval%2Frun-1" });
  });

  it("API calls and form posts (server actions) are 401, except the health probe and Auth.js's routes", () => {
    expect(decide("GET", "/api/kg")).toEqual({ kind: "unauthorized" });
    expect(decide("POST", "/api/turns")).toEqual({ kind: "unauthorized" });
    expect(decide("POST", "/")).toEqual({ kind: "unauthorized" });
    for (const open of ["/api/health", "/signin", "/api/auth/csrf", "/api/auth/callback/credentials"]) expect(decide("GET", open), open).toEqual({ kind: "allow" });
    expect(isPublicPath("/api/healthz")).toBe(false);
    expect(isPublicPath("/api/authx")).toBe(false);
    expect(isPublicPath("/signin/../api/kg")).toBe(false);
  });

  it("a read-only share page is left to its page (it refuses unless SHARE_LINKS=on); posts to it and other paths are not", () => {
    expect(decide("GET", "/share/abc.def")).toEqual({ kind: "allow" });
    expect(decide("POST", "/share/abc.def")).toEqual({ kind: "unauthorized" });
    expect(decide("GET", "/share/abc/x").kind).toBe("redirect");
    expect(decide("GET", "/c/abc").kind).toBe("redirect");
  });

  it("/text2sparql is left to its handler (a machine client's bearer token is checked there, not redirected)", () => {
    expect(decide("GET", "/text2sparql")).toEqual({ kind: "allow" });
    expect(decide("GET", "/text2sparql/x")).toEqual({ kind: "redirect", location: "/signin?callbackUrl=%2Ftext2sparql%2Fx" });
  });

  it("a signed-in browser, or sign-in off, passes everywhere", () => {
    expect(decide("POST", "/api/turns", true)).toEqual({ kind: "allow" });
    expect(accessDecision({ enabled: false, signedIn: false, method: "POST", pathname: "/api/turns" })).toEqual({ kind: "allow" });
  });

  it("the way back after signing in stays on this site", () => {
    expect(safeCallbackPath("/c/abc?x=1")).toBe("/c/abc?x=1");
    for (const bad of ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/signin?callbackUrl=/x", undefined, 3]) {
      expect(safeCallbackPath(bad), String(bad)).toBe("/");
    }
  });
});
