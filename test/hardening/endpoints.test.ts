// Hardening, SPARQL endpoints: SSRF policy (private networks and non-http schemes refused unless allowed), and every
// way an endpoint can fail (bad URL, DNS, refused, 500, HTML, endless reply, timeout) gives a clear error and saves nothing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isAppError } from "@/lib/errors";
import { startSparqlEndpoint, type TestSparqlEndpoint } from "@/test/helpers/sparql-endpoint";
import { createEndpointPolicy, isPrivateAddress, type Lookup } from "@/lib/server/endpoint-policy";
import { createKgRegistry, type KgRegistry } from "@/lib/server/kg-registry";
import { askKg, createHarness, outcomeOf, qirFor, readAll, runnerOn, type Harness } from "./harness";

const SESSION = "hardening-endpoints";
let h: Harness;
let endpoint: TestSparqlEndpoint;
/** the app with its default policy (private endpoints refused) */
let strict: KgRegistry;
/** KG_ALLOW_PRIVATE_ENDPOINTS=true, so the local test endpoint may be added */
let allowing: KgRegistry;

async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

/** A fake resolver: names in the map resolve to those addresses, others fail like an unknown host. */
function fakeLookup(map: Record<string, string[]>): Lookup {
  return async (host) => {
    const found = map[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

const LOOKUP = fakeLookup({
  "public.example": ["93.184.216.34"],
  "sneaky.example": ["93.184.216.34", "127.0.0.1"], // one public, one loopback address: refused
  "metadata.example": ["169.254.169.254"],
  "v6.example": ["fd00::5"],
  localhost: ["127.0.0.1", "::1"],
});

beforeAll(async () => {
  h = await createHarness({ KG_ALLOW_PRIVATE_ENDPOINTS: "true" });
  endpoint = await startSparqlEndpoint({
    turtle: '<http://example.org/Ada> <http://www.w3.org/2000/01/rdf-schema#label> "Ada Lovelace" . <http://example.org/Ada> <http://example.org/born> "1815" .',
  });
  strict = createKgRegistry({ queries: h.tmp.queries, dataDir: `${h.tmp.dir}/strict`, env: {}, endpointPolicy: createEndpointPolicy({ env: {}, lookup: LOOKUP }) });
  allowing = createKgRegistry({ queries: h.tmp.queries, dataDir: `${h.tmp.dir}/allow`, env: { KG_ALLOW_PRIVATE_ENDPOINTS: "true" }, probeTimeoutMs: 400 });
});
afterEach(() => {
  endpoint.behave();
  vi.unstubAllGlobals();
});
afterAll(async () => {
  await strict?.close();
  await allowing?.close();
  await endpoint?.close();
  await h?.close();
});

describe("SSRF policy (default: private networks refused)", () => {
  const refused = [
    "http://10.1.2.3/sparql",
    "http://172.16.0.1/sparql",
    "http://172.31.255.254:8890/sparql",
    "http://192.168.1.10/sparql",
    "http://169.254.169.254/latest/meta-data",
    "http://127.0.0.1:7200/repositories/x",
    "http://2130706433/sparql", // 127.0.0.1 written as one number
    "http://0.0.0.0:3030/ds",
    "http://[::1]/sparql",
    "http://[fc00::1]/sparql",
    "http://[fd12:3456::1]/sparql",
    "http://[fe80::1]/sparql",
    "http://[::ffff:127.0.0.1]/sparql",
    "http://[::ffff:a9fe:a9fe]/sparql", // 169.254.169.254 mapped into IPv6
    "http://localhost:3030/sparql",
    "http://sneaky.example/sparql",
    "http://metadata.example/sparql",
    "http://v6.example/sparql",
  ];
  for (const url of refused) {
    it(`refuses ${url}`, async () => {
      const e = await rejection(strict.addEndpoint(SESSION, { url }));
      expect(isAppError(e, "url_forbidden"), e.message).toBe(true);
      expect(e.message).toMatch(/private|loopback/);
      expect(e.message).toContain("KG_ALLOW_PRIVATE_ENDPOINTS");
      expect(await h.tmp.queries.listKgSources({ sessionId: SESSION })).toEqual([]);
    });
  }

  it("refuses file:, ftp: and non-URLs with a 400 whatever the setting", async () => {
    for (const registry of [strict, allowing]) {
      for (const url of ["file:///etc/passwd", "ftp://example.org/sparql", "gopher://x/", "not a url", "//no-scheme/sparql"]) {
        const e = await rejection(registry.addEndpoint(SESSION, { url }));
        expect(isAppError(e, "bad_request"), `${url}: ${e.message}`).toBe(true);
      }
    }
  });

  it("lets public addresses and names through the check", async () => {
    const policy = createEndpointPolicy({ env: {}, lookup: LOOKUP });
    expect((await policy.check("https://public.example/sparql")).host).toBe("public.example");
    expect((await policy.check("http://172.32.0.1/sparql")).hostname).toBe("172.32.0.1");
    expect((await policy.check("http://[2001:db8::1]/sparql")).hostname).toBe("[2001:db8::1]");
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("100.64.0.1")).toBe(true);
  });

  it("an unknown host name is a clear kg_unreachable, not a crash", async () => {
    const e = await rejection(strict.addEndpoint(SESSION, { url: "https://no-such-host.invalid/sparql" }));
    expect(isAppError(e, "kg_unreachable")).toBe(true);
    expect(e.message).toMatch(/could not be resolved/);
  });

  it("checks every redirect: a public endpoint cannot bounce the server to 127.0.0.1", async () => {
    const calls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      calls.push(String(url));
      return new Response(null, { status: 302, headers: { location: "http://127.0.0.1:9/admin" } });
    });
    const policy = createEndpointPolicy({ env: {}, lookup: LOOKUP });
    const e = await rejection(policy.fetch("http://93.184.216.34/sparql?query=ASK%7B%7D"));
    expect(isAppError(e, "url_forbidden")).toBe(true);
    expect(calls).toEqual(["http://93.184.216.34/sparql?query=ASK%7B%7D"]);
  });

  it("KG_ALLOW_PRIVATE_ENDPOINTS=true allows a local endpoint", async () => {
    const item = await allowing.addEndpoint(SESSION, { url: endpoint.url, name: "Local" });
    expect(item).toMatchObject({ kind: "endpoint", status: "ready" });
    const kg = await allowing.getKg(SESSION, item.id);
    expect(await kg.ask("ASK { ?s ?p ?o }")).toBe(true);
  });
});

describe("endpoint faults: a clear error, nothing registered", () => {
  const before = async () => (await h.tmp.queries.listKgSources({ sessionId: "faults" })).length;

  it("DNS failure", async () => {
    const e = await rejection(allowing.addEndpoint("faults", { url: "http://no-such-host.invalid/sparql" }));
    expect(e.message).toMatch(/could not be resolved|Cannot reach/);
    expect(await before()).toBe(0);
  });

  it("connection refused", async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    const e = await rejection(allowing.addEndpoint("faults", { url: `http://127.0.0.1:${port}/sparql` }));
    expect(isAppError(e, "kg_unreachable")).toBe(true);
    expect(e.message).toMatch(/refused/);
    expect(await before()).toBe(0);
  });

  const faults = [
    ["HTTP 500", { kind: "status", status: 500, body: "Virtuoso 42000 Error SR" }, "kg_http", /HTTP 500/],
    ["HTML instead of JSON", { kind: "html" }, "kg_bad_response", /HTML page/],
    ["a reply that never ends", { kind: "hang-body" }, "kg_timeout", /did not answer within 400 ms/],
    ["no reply at all", { kind: "hang" }, "kg_timeout", /did not answer within 400 ms/],
    ["a query that runs past the timeout", { kind: "delay", ms: 2000 }, "kg_timeout", /did not answer within/],
    ["JSON of the wrong shape", { kind: "body", body: '{"rows":[]}', contentType: "application/json" }, "kg_bad_response", /unexpected shape/],
  ] as const;
  for (const [what, misbehaviour, code, message] of faults) {
    it(what, async () => {
      endpoint.misbehave(misbehaviour);
      const started = Date.now();
      const e = await rejection(allowing.addEndpoint("faults", { url: endpoint.url }));
      expect(Date.now() - started).toBeLessThan(2500);
      expect(isAppError(e, code), e.message).toBe(true);
      expect(e.message).toMatch(message);
      expect(e.message).toMatch(/did not answer a test query/);
      expect(await before()).toBe(0);
    });
  }

  it("an endpoint that breaks mid-conversation fails the turn at its stage; the question is kept and retry works", async () => {
    const item = await h.registry.addEndpoint(SESSION, { url: endpoint.url, name: "Ada" });
    endpoint.misbehave({ kind: "status", status: 500, body: "out of memory" });
    const { runner } = runnerOn(h, { script: { chat: [askKg("When was Ada Lovelace born?"), "…"], qir: [qirFor("Ada Lovelace", "born")] } });
    const p = await runner.prepareTurn(SESSION, { question: "When was Ada Lovelace born?", kgId: item.id });
    const out = outcomeOf(await readAll(runner.stream(p)));
    expect(out.status).toBe("failed");
    // the entity retriever keeps the KG's code and the endpoint's words: the failure is the KG's, not the pipeline's
    expect(out.error).toMatchObject({ stage: "entity-linking", code: "kg_http" });
    expect(out.error?.message).toMatch(/Could not search the KG for "Ada Lovelace": The SPARQL endpoint at 127\.0\.0\.1:\d+ answered HTTP 500/);
    const stored = await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: p.turn.id });
    expect(stored).toMatchObject({ status: "failed", question: "When was Ada Lovelace born?", error: { stage: "entity-linking", code: "kg_http", message: out.error?.message } });

    endpoint.behave();
    const again = runnerOn(h, { script: { chat: [askKg("When was Ada Lovelace born?"), "…"], qir: [qirFor("Ada Lovelace", "born")] } }).runner;
    const retried = await again.prepareRetry(SESSION, p.turn.id, {});
    const out2 = outcomeOf(await readAll(again.stream(retried)));
    // the endpoint answers again: the turn gets past entity linking (the fallback model then fails a later stage)
    expect(out2.error?.stage).not.toBe("entity-linking");
    expect(out2.error?.message ?? "").not.toMatch(/HTTP 500/);
  });
});
