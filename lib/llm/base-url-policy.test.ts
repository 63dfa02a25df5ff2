// LLM base URL allow-list: what a request may choose, how entries are compared, and the refusal's message.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { allowedBaseUrls, checkRequestBaseUrl, normalizeBaseUrl } from "./base-url-policy";

function refusal(baseURL: string, env: Record<string, string | undefined>): unknown {
  try {
    checkRequestBaseUrl(baseURL, env);
    return undefined;
  } catch (e) {
    return e;
  }
}

describe("LLM base URL policy", () => {
  it("allows only Ollama on loopback by default", () => {
    expect(allowedBaseUrls({})).toEqual(["http://127.0.0.1:11434/v1", "http://localhost:11434/v1"]);
    expect(refusal("http://127.0.0.1:11434/v1", {})).toBeUndefined();
    expect(refusal("http://LOCALHOST:11434/v1/", {})).toBeUndefined();
    for (const other of ["http://127.0.0.1:8080/v1", "http://127.0.0.1:11434/other", "https://api.example.com/v1", "http://169.254.169.254/latest"]) {
      const e = refusal(other, {});
      expect(isAppError(e, "url_forbidden"), other).toBe(true);
      expect((e as Error).message).toContain("LLM_ALLOWED_BASE_URLS");
    }
  });

  it("LLM_ALLOWED_BASE_URLS replaces the default; entries are separated by commas or spaces", () => {
    const env = { LLM_ALLOWED_BASE_URLS: "https://llm.example.org/v1/, http://10.1.2.3:8000/v1 " };
    expect(allowedBaseUrls(env)).toEqual(["https://llm.example.org/v1", "http://10.1.2.3:8000/v1"]);
    expect(refusal("https://llm.example.org/v1", env)).toBeUndefined();
    expect(refusal("http://10.1.2.3:8000/v1/", env)).toBeUndefined();
    expect(isAppError(refusal("http://127.0.0.1:11434/v1", env), "url_forbidden")).toBe(true);
  });

  it("credentials, queries and other schemes never match an allowed entry", () => {
    expect(normalizeBaseUrl("http://user:pw@127.0.0.1:11434/v1")).toBeUndefined();
    expect(normalizeBaseUrl("http://127.0.0.1:11434/v1?x=1")).toBeUndefined();
    expect(normalizeBaseUrl("file:///etc/passwd")).toBeUndefined();
    expect(isAppError(refusal("http://user:pw@127.0.0.1:11434/v1", {}), "url_forbidden")).toBe(true);
    // a look-alike host is not the allowed one
    expect(isAppError(refusal("http://127.0.0.1:11434.evil.example/v1", {}), "url_forbidden")).toBe(true);
  });

  it("the server's own LLM_BASE_URL is allowed: choosing it is the operator's choice", () => {
    expect(refusal("https://gpu-box.example/v1", { LLM_BASE_URL: "https://gpu-box.example/v1/" })).toBeUndefined();
  });
});
