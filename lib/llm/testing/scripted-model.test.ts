// Tests for the scripted LLM's exhaustion error: it names the rejected reply that made the agent call again.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedLlm, ScriptExhaustedError } from "./scripted-model";

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}

describe("createScriptedLlm exhaustion", () => {
  const schema = z.object({ predicates: z.array(z.number()) });

  it("names the validator's reason when the role's previous reply was rejected", async () => {
    const llm = createScriptedLlm({ predicates: ['{"predicates":[7]}'] });
    const first = await llm.gateway.call({ role: "predicates", prompt: "1. phone number", schema });
    expect(first.ok).toBe(true);
    // the agent's own validator refuses option 7 (not in the list) and asks again
    llm.gateway.reject(first.record.id, 'none of "7" is in the list; choose by number (1–1)');
    const e = await failure(llm.gateway.call({ role: "predicates", prompt: "1. phone number", schema }));
    expect(e.message).toMatch(/no reply left for role "predicates" \(call #2/);
    expect(e.message).toMatch(/previous predicates reply was rejected by the agent .*none of "7" is in the list/);
    expect((e as { cause?: unknown }).cause).toBeInstanceOf(ScriptExhaustedError);
  });

  it("names a schema mismatch of the previous reply too", async () => {
    const llm = createScriptedLlm({ predicates: ['{"predicates":["#^phone$"]}'] });
    const first = await llm.gateway.call({ role: "predicates", prompt: "1. phone number", schema });
    expect(first.ok).toBe(false);
    const e = await failure(llm.gateway.call({ role: "predicates", prompt: "1. phone number", schema }));
    expect(e.message).toMatch(/previous predicates reply was rejected/);
  });

  it("says nothing more when the previous reply was accepted or there was none", async () => {
    const llm = createScriptedLlm({ qir: ["ok"] });
    await llm.gateway.call({ role: "qir", prompt: "q" });
    const e = await failure(llm.gateway.call({ role: "qir", prompt: "q" }));
    expect(e.message).toMatch(/no reply left for role "qir" \(call #2 for this role\)\. Add replies to script\.qir\.$/);
    const other = await failure(llm.gateway.call({ role: "vertex", prompt: "q" }));
    expect(other.message).not.toMatch(/rejected/);
  });
});
