// Checks kg/music.ttl (the second test KG): size, the traps kg/README.md promises, and that every gold question of
// kg/music-questions.jsonl parses and has an answer on the graph.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import oxigraph from "oxigraph";
import { beforeAll, describe, expect, it } from "vitest";
import { readJsonl } from "@/lib/eval/datasets/jsonl";
import { resolveProfile } from "@/lib/kg/profile";

const file = (name: string) => fileURLToPath(new URL(`../kg/${name}`, import.meta.url));
const PREFIXES = "PREFIX t: <http://example.org/tunes/id/> PREFIX tv: <http://example.org/tunes/vocab#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> ";
let store: oxigraph.Store;

function values(query: string): string[] {
  const rows = store.query(PREFIXES + query);
  if (!Array.isArray(rows)) throw new Error("expected SELECT rows");
  return (rows as Map<string, oxigraph.Term>[]).map((r) => [...r.values()].map((t) => t.value).join("|"));
}

beforeAll(() => {
  store = new oxigraph.Store();
  store.load(readFileSync(file("music.ttl"), "utf8"), { format: "text/turtle" });
});

describe("kg/music.ttl", () => {
  it("has the size the README states", () => {
    expect(store.size).toBe(1051);
  });

  it("keeps the traps the README lists", () => {
    // track titles sit in a predicate without a label; solo artists have percent-encoded IRIs
    expect(values("SELECT ?l WHERE { tv:trackTitle rdfs:label ?l }")).toEqual([]);
    expect(values("SELECT ?a WHERE { ?a a tv:SoloArtist } ORDER BY ?a")).toContain("http://example.org/tunes/id/artist/Mira%20Solberg");
    // "Aurora" names an album and two tracks
    expect(values('SELECT ?x WHERE { { ?x <http://purl.org/dc/terms/title> "Aurora" } UNION { ?x tv:trackTitle "Aurora" } }')).toHaveLength(3);
    // prices only through the offer node; one album has none
    expect(values("SELECT ?a WHERE { ?a a tv:Album FILTER NOT EXISTS { ?a tv:offer ?o } }")).toEqual(["http://example.org/tunes/id/album-atlantic-strings"]);
  });

  it("has a usable profile file", () => {
    const profile = resolveProfile(JSON.parse(readFileSync(file("music.profile.json"), "utf8")));
    expect(profile.labelPredicates).toContain("http://example.org/tunes/vocab#trackTitle");
  });

  it("answers every gold question of music-questions.jsonl", () => {
    const items = readJsonl(file("music-questions.jsonl"));
    expect(items.length).toBeGreaterThanOrEqual(29);
    for (const item of items) {
      const result = store.query(item.goldSparql!);
      if (typeof result === "boolean") expect(result, item.id).toBe(true);
      else expect((result as unknown[]).length, item.id).toBeGreaterThan(0);
    }
  });
});
