// Bearer tokens for machine clients: the right token lets in, a wrong one (or one the server has no use for) is refused.
import { describe, expect, it } from "vitest";
import { checkBearer, tokenSessionId } from "./machine-auth";

describe("checkBearer", () => {
  const env = { TEXT2SPARQL_TOKEN: "s3cret-token" };
  it("tells no token, the right token and a wrong one apart", () => {
    expect(checkBearer(null, "TEXT2SPARQL_TOKEN", env)).toEqual({ kind: "none" });
    expect(checkBearer("Basic abc", "TEXT2SPARQL_TOKEN", env)).toEqual({ kind: "none" });
    expect(checkBearer("Bearer s3cret-token", "TEXT2SPARQL_TOKEN", env)).toEqual({ kind: "valid" });
    expect(checkBearer("bearer  s3cret-token ", "TEXT2SPARQL_TOKEN", env)).toEqual({ kind: "valid" });
    expect(checkBearer("Bearer s3cret-tokenX", "TEXT2SPARQL_TOKEN", env).kind).toBe("invalid");
    expect(checkBearer("Bearer s3cret-token", "MCP_TOKEN", env)).toEqual({ kind: "invalid", why: "this server has no MCP_TOKEN set" });
  });
  it("gives each token variable its own session", () => {
    expect(tokenSessionId("MCP_TOKEN")).not.toBe(tokenSessionId("TEXT2SPARQL_TOKEN"));
  });
});
