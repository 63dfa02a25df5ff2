import { describe, expect, it } from "vitest";
import { shareLinksOff, sharePath, signShareId, verifyShareToken } from "./share";

const SECRET = "s".repeat(40);

describe("share links", () => {
  it("sign the id into the URL and refuse a token that was altered or signed with another secret", () => {
    const token = signShareId("abc_DEF-123", SECRET);
    expect(verifyShareToken(token, SECRET)).toBe("abc_DEF-123");
    expect(verifyShareToken(token.replace("abc", "abd"), SECRET)).toBeNull();
    expect(verifyShareToken(`${token}x`, SECRET)).toBeNull();
    expect(verifyShareToken(token, "t".repeat(40))).toBeNull();
    expect(verifyShareToken("abc_DEF-123", SECRET)).toBeNull();
    expect(sharePath("abc_DEF-123", SECRET)).toBe(`/share/${token}`);
  });

  it("are on by default, off where sign-in is required unless SHARE_LINKS=on, and off with SHARE_LINKS=off", () => {
    expect(shareLinksOff({})).toBeNull();
    expect(shareLinksOff({ AUTH_PASSWORD: "pw" })).toMatch(/requires sign-in.*SHARE_LINKS=on/);
    expect(shareLinksOff({ AUTH_PASSWORD: "pw", SHARE_LINKS: "on" })).toBeNull();
    expect(shareLinksOff({ SHARE_LINKS: "off" })).toMatch(/turned off/);
  });
});
