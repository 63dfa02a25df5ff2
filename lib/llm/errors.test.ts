import { describe, expect, it } from "vitest";
import { APICallError, LoadAPIKeyError, NoContentGeneratedError, RetryError } from "ai";
import { AppError } from "@/lib/errors";
import { mapProviderError, redactSecrets, retryAfterSeconds } from "@/lib/llm/errors";

const apiError = (statusCode: number | undefined, body?: unknown, headers: Record<string, string> = {}) =>
  new APICallError({
    message: "call failed",
    url: "https://api.example/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: body === undefined ? undefined : JSON.stringify(body),
    isRetryable: statusCode === 429 || (statusCode ?? 0) >= 500,
  });

describe("mapProviderError", () => {
  it("maps HTTP statuses to stable codes", () => {
    expect(mapProviderError(apiError(401)).code).toBe("llm_auth");
    expect(mapProviderError(apiError(403)).code).toBe("llm_auth");
    expect(mapProviderError(apiError(429)).code).toBe("llm_rate_limit");
    expect(mapProviderError(apiError(500)).code).toBe("llm_server");
    expect(mapProviderError(apiError(503)).code).toBe("llm_server");
    expect(mapProviderError(apiError(408)).code).toBe("llm_timeout");
    expect(mapProviderError(apiError(404)).code).toBe("llm_not_configured");
    expect(mapProviderError(apiError(undefined)).code).toBe("llm_server");
  });

  it("uses the provider's message and puts retry-after seconds in details", () => {
    const e = mapProviderError(apiError(429, { error: { message: "Slow down." } }, { "retry-after": "7" }));
    expect(e.message).toBe("The LLM provider is rate limiting requests (HTTP 429): Slow down. Retry after 7 s.");
    expect(e.details).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    expect(e.status).toBe(429);
  });

  it("unwraps RetryError to its last error", () => {
    const e = new RetryError({ message: "gave up", reason: "maxRetriesExceeded", errors: [apiError(500), apiError(429)] });
    expect(mapProviderError(e).code).toBe("llm_rate_limit");
  });

  it("timeouts, aborts, missing keys and empty output", () => {
    expect(mapProviderError(new DOMException("t", "TimeoutError")).code).toBe("llm_timeout");
    expect(mapProviderError(new DOMException("a", "AbortError")).code).toBe("aborted");
    expect(mapProviderError(new Error("x"), { timedOut: true }).code).toBe("llm_timeout");
    expect(mapProviderError(new LoadAPIKeyError({ message: "OpenAI API key is missing." })).code).toBe("llm_not_configured");
    expect(mapProviderError(new NoContentGeneratedError()).code).toBe("llm_bad_output");
  });

  it("keeps AppErrors and wraps unknown errors as internal", () => {
    const app = new AppError("llm_auth", "nope");
    expect(mapProviderError(app)).toBe(app);
    expect(mapProviderError(new RangeError("bug")).code).toBe("internal");
  });

  it("never lets a key through: known secrets and key-shaped strings are redacted", () => {
    const body = { error: { message: "Incorrect API key provided: sk-proj-AbCdEf123456. Also my-custom-token-42 and AIzaSyA1234567890abcdef." } };
    const e = mapProviderError(apiError(401, body), { secrets: ["my-custom-token-42"] });
    expect(e.message).not.toMatch(/sk-proj-AbCdEf123456|my-custom-token-42|AIzaSyA1234567890abcdef/);
    expect(e.message).toContain("[redacted]");
    expect(redactSecrets("Authorization: Bearer abc.def-ghi")).toBe("Authorization: [redacted]");
  });
});

describe("retryAfterSeconds", () => {
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterSeconds({ "Retry-After": "3" })).toBe(3);
    expect(retryAfterSeconds({ "retry-after-ms": "1500", "retry-after": "2" })).toBe(1.5);
    expect(retryAfterSeconds({ "retry-after": new Date(10_000).toUTCString() }, 4_000)).toBe(6);
    expect(retryAfterSeconds({})).toBeUndefined();
    expect(retryAfterSeconds({ "retry-after": "soon" })).toBeUndefined();
  });
});
