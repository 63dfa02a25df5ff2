// Session cookie: signing round trip, tampered or foreign cookies rejected, the generated secret survives a restart.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadSessionSecret, newSessionId, signSessionId, verifySessionCookie } from "./session";

const SECRET = "test-secret-0123456789abcdef0123456789";

describe("session cookie", () => {
  it("verifies a cookie it signed and returns the session id", () => {
    const id = newSessionId();
    expect(verifySessionCookie(signSessionId(id, SECRET), SECRET)).toBe(id);
  });

  it("gives every new session a different id", () => {
    expect(new Set(Array.from({ length: 50 }, newSessionId)).size).toBe(50);
  });

  it("rejects a cookie whose id was changed (someone trying another session)", () => {
    const value = signSessionId(newSessionId(), SECRET);
    const [, mac] = value.split(".");
    const forged = `${newSessionId()}.${mac}`;
    expect(verifySessionCookie(forged, SECRET)).toBeNull();
  });

  it("rejects a cookie whose signature was changed by one character", () => {
    const value = signSessionId(newSessionId(), SECRET);
    const last = value.at(-1) === "A" ? "B" : "A";
    expect(verifySessionCookie(value.slice(0, -1) + last, SECRET)).toBeNull();
  });

  it("rejects a cookie signed with another secret, and malformed values", () => {
    const id = newSessionId();
    expect(verifySessionCookie(signSessionId(id, "another-secret-with-enough-length-123"), SECRET)).toBeNull();
    for (const bad of [undefined, "", id, ".", `${id}.`, `.${id}`, "a.b", `${"x".repeat(200)}.abc`]) {
      expect(verifySessionCookie(bad, SECRET)).toBeNull();
    }
  });
});

describe("session secret", () => {
  it("uses SESSION_SECRET when set", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ckg-secret-"));
    expect(loadSessionSecret({ SESSION_SECRET: " from-env " }, dir)).toBe("from-env");
    expect(fs.existsSync(path.join(dir, "session-secret"))).toBe(false);
  });

  it("generates a secret once and reads the same one back after a restart", () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ckg-secret-")), "nested");
    const first = loadSessionSecret({}, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadSessionSecret({}, dir)).toBe(first);
    expect(fs.statSync(path.join(dir, "session-secret")).mode & 0o077).toBe(0);
    // a cookie signed before the "restart" still verifies after it
    const id = newSessionId();
    expect(verifySessionCookie(signSessionId(id, first), loadSessionSecret({}, dir))).toBe(id);
  });
});
