import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildLabelQuery, scoreLabel, sparqlLabelSearch, virtuosoTextPattern } from "./label-search";
import { DEFAULT_PROFILE, resolveProfile } from "./profile";
import { createRemoteKg } from "./remote";
import { parseReadOnly } from "./sparql-guard";
import type { KgProfile, KnowledgeGraph } from "./types";
import { startSparqlEndpoint, type TestSparqlEndpoint } from "@/test/helpers/sparql-endpoint";
import { AppError, isAppError } from "@/lib/errors";

const TTL = readFileSync(new URL("../../test/fixtures/kg-remote/books.ttl", import.meta.url), "utf8");
const HOSTILE = ['Say "hi" } ; DROP ALL', "} ; DROP ALL", "\"'\\", "a\nb\r\tc", "nul\u0000", "Rocket 🚀", "שלום", "(a|b)*.+?[x]^$", "AND OR NOT NEAR", '"harry" AND "potter"', "#comment", "<http://x>"];

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

let ep: TestSparqlEndpoint;
beforeAll(async () => {
  ep = await startSparqlEndpoint({ turtle: TTL });
});
afterAll(async () => {
  await ep.close();
});
beforeEach(() => {
  ep.behave();
  ep.requests.length = 0;
});

function kgWith(profile: Partial<KgProfile>): Pick<KnowledgeGraph, "select" | "profile"> {
  const remote = createRemoteKg({ url: ep.url });
  return { select: remote.select, profile: { ...DEFAULT_PROFILE, ...profile } };
}

describe("contains adapter (against a real local endpoint)", () => {
  const kg = () => kgWith({ labelSearch: "contains" });

  it("ranks the exact match first, then shorter labels", async () => {
    const hits = await sparqlLabelSearch(kg(), "Harry Potter", { limit: 10 });
    expect(hits.map((h) => h.iri)).toEqual(["http://example.org/harry", "http://example.org/hp2", "http://example.org/hp1"]);
    expect(hits[0]).toEqual({ iri: "http://example.org/harry", label: "Harry Potter", lang: "en", score: 1 });
    expect(hits[1].score).toBeLessThan(1);
    expect(hits[1].score).toBeGreaterThan(hits[2].score);
  });

  it("is case-insensitive, matches inside labels and honours the limit", async () => {
    const hits = await sparqlLabelSearch(kg(), "  POTTER ", { limit: 2 });
    expect(hits).toHaveLength(2);
    expect(hits[0]).toMatchObject({ iri: "http://example.org/potter", label: "potter", score: 1 });
  });

  it("keeps the preferred language and untagged labels, drops other languages", async () => {
    expect(await sparqlLabelSearch(kg(), "école", { limit: 5 })).toEqual([]);
    const fr = await sparqlLabelSearch(kgWith({ language: "fr" }), "école", { limit: 5 });
    expect(fr.map((h) => h.iri)).toEqual(["http://example.org/hp1"]);
    const untagged = await sparqlLabelSearch(kg(), "rowling", { limit: 5 });
    expect(untagged).toEqual([{ iri: "http://example.org/jkr", label: "J. K. Rowling", score: expect.any(Number) }]);
  });

  it("also matches labels in the question's language, and only that one more", async () => {
    // a French mention left untranslated finds the French label of an English-profile KG
    const fr = await sparqlLabelSearch(kg(), "école", { limit: 5, questionLanguage: "fr" });
    expect(fr.map((h) => h.iri)).toEqual(["http://example.org/hp1"]);
    expect(await sparqlLabelSearch(kg(), "école", { limit: 5, questionLanguage: "de" })).toEqual([]);
    expect(buildLabelQuery("contains", { ...DEFAULT_PROFILE }, "x", 5, "de")).toContain('LANGMATCHES(LANG(?label), "en") || LANGMATCHES(LANG(?label), "de")');
    expect(buildLabelQuery("contains", { ...DEFAULT_PROFILE }, "x", 5, 'de") || true || ("')).not.toContain("true");
  });

  it("searches every label predicate (altLabel) and returns each entity once", async () => {
    const hits = await sparqlLabelSearch(kg(), "boy who lived", { limit: 5 });
    expect(hits.map((h) => h.iri)).toEqual(["http://example.org/harry"]);
  });

  it("finds labels with quotes, emoji and RTL text, and never breaks on hostile text", async () => {
    expect((await sparqlLabelSearch(kg(), 'say "hi" } ; drop all', { limit: 5 }))[0]?.iri).toBe("http://example.org/quote");
    expect((await sparqlLabelSearch(kg(), "🚀", { limit: 5 }))[0]?.iri).toBe("http://example.org/emoji");
    const he = await sparqlLabelSearch(kgWith({ language: "he" }), "עולם", { limit: 5 });
    expect(he[0]?.iri).toBe("http://example.org/hebrew");
    for (const text of HOSTILE) await expect(sparqlLabelSearch(kg(), text, { limit: 5 })).resolves.toBeInstanceOf(Array);
  });

  it("returns [] for empty or blank text without querying", async () => {
    expect(await sparqlLabelSearch(kg(), "", { limit: 5 })).toEqual([]);
    expect(await sparqlLabelSearch(kg(), " \n\t ", { limit: 5 })).toEqual([]);
    expect(ep.requests).toHaveLength(0);
  });
});

describe("virtuoso adapter (generated query)", () => {
  const profile = resolveProfile({ labelSearch: "virtuoso" });

  it("builds a bif:contains query with quoted words joined by AND", () => {
    const q = buildLabelQuery("virtuoso", profile, "Harry Potter", 5);
    expect(q).toContain("PREFIX bif: <bif:>");
    expect(q).toContain(`?label bif:contains "\\"Harry\\" AND \\"Potter\\"" .`);
    expect(q).toMatch(/LIMIT \d+$/);
    const parsed = parseReadOnly(q);
    expect(parsed.kind).toBe("SELECT");
    // the predicate resolves to Virtuoso's built-in namespace
    expect(JSON.stringify(parsed.ast)).toContain('"value":"bif:contains"');
  });

  it("strips quotes, wildcards, operators and noise words from the text expression", () => {
    expect(virtuosoTextPattern('"harry" AND "potter"')).toBe('"harry" AND "potter"');
    expect(virtuosoTextPattern("The Lord of the Rings")).toBe('"Lord" AND "Rings"');
    expect(virtuosoTextPattern("rich* OR (john NEAR doe)")).toBe('"rich" AND "john" AND "doe"');
    expect(virtuosoTextPattern("Café 東京 🚀")).toBe('"Café" AND "東京"');
    expect(virtuosoTextPattern("the of and")).toBeUndefined();
    expect(virtuosoTextPattern("} ; ' \"")).toBeUndefined();
  });

  it("falls back to CONTAINS when no word is left, and parses for every hostile string", () => {
    expect(buildLabelQuery("virtuoso", profile, "the", 5)).toContain("CONTAINS(LCASE(STR(?label)), \"the\")");
    for (const text of HOSTILE) expect(parseReadOnly(buildLabelQuery("virtuoso", profile, text, 5)).kind).toBe("SELECT");
  });

  it("is valid SPARQL that a standard engine accepts (no hits there: bif:contains is Virtuoso's)", async () => {
    expect(await sparqlLabelSearch(kgWith({ labelSearch: "virtuoso" }), "Harry Potter", { limit: 5 })).toEqual([]);
    // no hit for all words: once more per word ("Ms. Brant" → "Brant"), as separate queries
    expect(ep.requests.map((r) => /bif:contains "(.*)" \./.exec(r.query ?? "")?.[1])).toEqual(['\\"Harry\\" AND \\"Potter\\"', '\\"Harry\\"', '\\"Potter\\"']);
  });
});

describe("qlever adapter (prefix REGEX; standard SPARQL, so it also runs here)", () => {
  const kg = () => kgWith({ labelSearch: "qlever" });

  it("builds an anchored, case-insensitive REGEX with escaped metacharacters", () => {
    const q = buildLabelQuery("qlever", resolveProfile({ labelSearch: "qlever" }), "J. K. (Rowling)", 5);
    expect(q).toContain(String.raw`FILTER(REGEX(STR(?label), "^J\\. K\\. \\(Rowling\\)", "i"))`);
    for (const text of HOSTILE) expect(parseReadOnly(buildLabelQuery("qlever", DEFAULT_PROFILE, text, 5)).kind).toBe("SELECT");
  });

  it("finds labels starting with the text, exact match first", async () => {
    const hits = await sparqlLabelSearch(kg(), "harry potter", { limit: 5 });
    expect(hits.map((h) => h.iri)).toEqual(["http://example.org/harry", "http://example.org/hp2", "http://example.org/hp1"]);
    expect(await sparqlLabelSearch(kg(), "potter", { limit: 5 })).toEqual([expect.objectContaining({ iri: "http://example.org/potter" })]);
  });

  it("treats metacharacters literally and survives hostile text", async () => {
    expect(await sparqlLabelSearch(kg(), "J.*", { limit: 5 })).toEqual([]);
    expect((await sparqlLabelSearch(kg(), "j. k.", { limit: 5 }))[0]?.iri).toBe("http://example.org/jkr");
    for (const text of HOSTILE) await expect(sparqlLabelSearch(kg(), text, { limit: 5 })).resolves.toBeInstanceOf(Array);
  });
});

describe("index adapter", () => {
  it("is refused here: the embedded store answers it", async () => {
    const e = await failure(sparqlLabelSearch(kgWith({ labelSearch: "index" }), "harry", { limit: 5 }));
    expect(e.code).toBe("bad_request");
    expect(ep.requests).toHaveLength(0);
  });
});

describe("scoreLabel", () => {
  it("orders exact > prefix > word > substring", () => {
    const t = "potter";
    const s = ["Potter", "Potter family", "Harry Potter", "Spotter"].map((l) => scoreLabel(l, t));
    expect(s[0]).toBe(1);
    expect(s[0]).toBeGreaterThan(s[1]);
    expect(s[1]).toBeGreaterThan(s[2]);
    expect(s[2]).toBeGreaterThan(s[3]);
  });
});

// ---- wikidata ---------------------------------------------------------------------------------------------------

interface ApiServer {
  url: string;
  requests: URL[];
  reply: (url: URL, res: http.ServerResponse) => void;
  close: () => Promise<void>;
}

async function startWikidataApi(): Promise<ApiServer> {
  const api: ApiServer = { url: "", requests: [], reply: () => undefined, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    api.requests.push(url);
    api.reply(url, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/w/api.php`;
  api.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return api;
}

// The shape of wbsearchentities replies (fields used by the adapter plus typical extras).
function wbItem(id: string, label: string, matchType: "label" | "alias", matchText: string, description?: string) {
  return {
    id,
    title: id,
    pageid: 1,
    concepturi: `http://www.wikidata.org/entity/${id}`,
    url: `//www.wikidata.org/wiki/${id}`,
    label,
    ...(description ? { description } : {}),
    match: { type: matchType, language: "en", text: matchText },
    ...(matchType === "alias" ? { aliases: [matchText] } : {}),
  };
}

describe("wikidata adapter (against a local API mimic)", () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startWikidataApi();
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.requests.length = 0;
  });
  const kg = (language = "en"): Pick<KnowledgeGraph, "select" | "profile"> => ({
    select: () => Promise.reject(new Error("wikidata search must not run SPARQL")),
    profile: resolveProfile({ labelSearch: "wikidata", entitySearchUrl: api.url, language }),
  });
  const json = (res: http.ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };

  it("calls wbsearchentities with the text, language and limit and maps hits to entity IRIs", async () => {
    api.reply = (_url, res) =>
      json(res, {
        searchinfo: { search: "douglas adams" },
        search: [
          wbItem("Q21972834", "Douglas Adams", "label", "Douglas Adams", "Scottish footballer"),
          wbItem("Q42", "Douglas Adams", "label", "Douglas Adams", "English writer and humorist (1952–2001)"),
          wbItem("Q28421831", "Douglas Adams Prize", "label", "Douglas Adams Prize"),
          wbItem("Q5", "human", "alias", "douglas adams person"),
        ],
        "search-continue": 4,
        success: 1,
      });
    const hits = await sparqlLabelSearch(kg("de"), "Douglas   Adams", { limit: 3 });
    const q = api.requests[0].searchParams;
    expect(Object.fromEntries(q)).toMatchObject({ action: "wbsearchentities", search: "Douglas Adams", language: "de", uselang: "de", limit: "3", format: "json", type: "item" });
    expect(hits).toHaveLength(3);
    expect(hits[0]).toEqual({ iri: "http://www.wikidata.org/entity/Q21972834", label: "Douglas Adams", lang: "en", score: 1 });
    expect(hits[1].iri).toBe("http://www.wikidata.org/entity/Q42");
    expect(hits[2].iri).toBe("http://www.wikidata.org/entity/Q28421831");
    expect(hits[2].score).toBeLessThan(hits[1].score);
  });

  it("lifts an exact alias match above a partial label match", async () => {
    api.reply = (_url, res) => json(res, { search: [wbItem("Q1", "Jupiter Ascending", "label", "Jupiter Ascending"), wbItem("Q319", "Jupiter", "alias", "Jove")] });
    const hits = await sparqlLabelSearch(kg(), "jove", { limit: 5 });
    expect(hits.map((h) => h.iri)).toEqual(["http://www.wikidata.org/entity/Q319", "http://www.wikidata.org/entity/Q1"]);
  });

  it("sends hostile text as a URL parameter unchanged", async () => {
    api.reply = (_url, res) => json(res, { search: [] });
    for (const text of HOSTILE.filter((t) => t.trim())) {
      await expect(sparqlLabelSearch(kg(), text, { limit: 5 })).resolves.toEqual([]);
    }
    expect(api.requests.map((u) => u.searchParams.get("search"))).toContain('Say "hi" } ; DROP ALL');
  });

  it("reports API errors, HTML and malformed replies clearly", async () => {
    api.reply = (_url, res) => json(res, { error: { code: "param-missing", info: "The \"search\" parameter must be set." } });
    const e1 = await failure(sparqlLabelSearch(kg(), "x", { limit: 5 }));
    expect(e1.code).toBe("kg_http");
    expect(e1.message).toContain("must be set");
    api.reply = (_url, res) => {
      res.writeHead(503, { "content-type": "text/html" });
      res.end("<html><body>Wikimedia Error: our servers are busy</body></html>");
    };
    const e2 = await failure(sparqlLabelSearch(kg(), "x", { limit: 5 }));
    expect(e2.code).toBe("kg_http");
    expect(e2.message).toContain("503");
    expect(e2.message).toContain("our servers are busy");
    api.reply = (_url, res) => json(res, { results: [] });
    expect((await failure(sparqlLabelSearch(kg(), "x", { limit: 5 }))).code).toBe("kg_bad_response");
  });

  it("times out and aborts", async () => {
    api.reply = () => undefined; // never answers
    const t0 = Date.now();
    expect((await failure(sparqlLabelSearch(kg(), "x", { limit: 5, timeoutMs: 200 }))).code).toBe("kg_timeout");
    expect(Date.now() - t0).toBeLessThan(1500);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    expect((await failure(sparqlLabelSearch(kg(), "x", { limit: 5, signal: ac.signal }))).code).toBe("aborted");
  });
});
