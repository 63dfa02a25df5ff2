// Which SPARQL endpoint URLs a user may add (SSRF policy): http(s) only, and no private, loopback or link-local
// addresses unless KG_ALLOW_PRIVATE_ENDPOINTS=true. Applied where user URLs enter the app, never in lib/kg.
import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { AppError } from "@/lib/errors";

type Env = Record<string, string | undefined>;

/** dns.lookup(host, { all: true }) shape; injectable so tests can point a public-looking name at 127.0.0.1. */
export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const DNS_TIMEOUT_MS = 5_000;
export const MAX_REDIRECTS = 5;

export function privateEndpointsAllowed(env: Env = process.env): boolean {
  return /^(1|true|yes|on)$/i.test(env.KG_ALLOW_PRIVATE_ENDPOINTS?.trim() ?? "");
}

// Everything that is not the public internet: a server must not be made to probe its own network for a user.
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 (64:ff9b::) IPv6 address. */
function embeddedIpv4(ip: string): string | undefined {
  const m = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return m[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for loopback, private, link-local, CGNAT, multicast and reserved addresses (v4, v6, v4-in-v6). */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(ip);
  if (family === 4) return BLOCKED.check(ip, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4 !== undefined) return BLOCKED.check(v4, "ipv4");
    return BLOCKED.check(ip, "ipv6");
  }
  return true; // not an address at all: refuse rather than guess
}

const defaultLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface EndpointPolicyOptions {
  env?: Env;
  lookup?: Lookup;
  dnsTimeoutMs?: number;
}

export interface EndpointPolicy {
  readonly allowPrivate: boolean;
  /** Parses and checks a user-supplied endpoint URL; resolves every address of its host. Throws AppError. */
  check(url: string): Promise<URL>;
  /** fetch that checks the URL and every redirect target before connecting (for createRemoteKg's `fetch`). */
  fetch: typeof fetch;
}

function forbidden(url: URL, why: string): AppError {
  return new AppError(
    "url_forbidden",
    `The endpoint ${url.protocol}//${url.host} ${why}; endpoints on private, loopback or link-local networks are refused. An administrator can allow them with KG_ALLOW_PRIVATE_ENDPOINTS=true.`,
    { where: { source: url.host } },
  );
}

async function resolveAll(hostname: string, lookup: Lookup, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("DNS lookup timed out"), { code: "ETIMEOUT" })), timeoutMs);
  });
  try {
    const found = await Promise.race([lookup(hostname), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

export function createEndpointPolicy(options: EndpointPolicyOptions = {}): EndpointPolicy {
  const allowPrivate = privateEndpointsAllowed(options.env ?? process.env);
  const lookup = options.lookup ?? defaultLookup;
  const dnsTimeoutMs = options.dnsTimeoutMs ?? DNS_TIMEOUT_MS;

  async function check(raw: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError("bad_request", `Not a valid endpoint URL: ${JSON.stringify(raw.slice(0, 200))}.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new AppError("bad_request", `Only http and https SPARQL endpoints are supported, not ${url.protocol.replace(/:$/, "")}.`);
    }
    if (allowPrivate) return url;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host)) {
      if (isPrivateAddress(host)) throw forbidden(url, "is a private or loopback address");
      return url;
    }
    let addresses: string[];
    try {
      addresses = await resolveAll(host, lookup, dnsTimeoutMs);
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new AppError("kg_unreachable", `Cannot reach the SPARQL endpoint at ${url.host}: the host name could not be resolved${code ? ` (${code})` : ""}.`, {
        cause: e,
        where: { source: url.host },
      });
    }
    if (addresses.length === 0) throw new AppError("kg_unreachable", `Cannot reach the SPARQL endpoint at ${url.host}: the host name has no address.`);
    // every address, not just the first: the connection may use any of them
    const bad = addresses.find(isPrivateAddress);
    if (bad) throw forbidden(url, `resolves to ${bad}, a private or loopback address`);
    return url;
  }

  const guarded: typeof fetch = async (input, init) => {
    if (allowPrivate) return fetch(input, init);
    let url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    let request: RequestInit = { ...init };
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      await check(url);
      // redirects are followed here, one checked hop at a time: a public endpoint must not bounce us to 127.0.0.1
      const res = await fetch(url, { ...request, redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return res;
      await res.body?.cancel().catch(() => undefined);
      url = new URL(location, url).href;
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && request.method === "POST")) {
        request = { ...request, method: "GET", body: undefined };
      }
    }
    throw new AppError("kg_bad_response", `The SPARQL endpoint redirected more than ${MAX_REDIRECTS} times.`);
  };

  return { allowPrivate, check, fetch: guarded };
}
