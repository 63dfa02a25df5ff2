// Tests for the label index: normalisation, ranking tiers, language filter, hostile input and speed.
import { describe, expect, it } from "vitest";
import { singulars } from "./embedded/label-index-core.mjs";
import { LabelIndex, tokenize } from "./label-index";

function sample(): LabelIndex {
  const idx = new LabelIndex();
  idx.add("http://ex/paris", "Paris", "en");
  idx.add("http://ex/paris-fr", "Paris", "fr");
  idx.add("http://ex/paris-hilton", "Paris Hilton", "en");
  idx.add("http://ex/plaster", "Plaster of Paris", "en");
  idx.add("http://ex/parisian", "Parisian cuisine", "en");
  idx.add("http://ex/zurich", "Zürich");
  idx.add("http://ex/sao", "São Paulo", "pt");
  idx.add("http://ex/hp", "Harry Potter and the Philosopher's Stone", "en");
  idx.add("http://ex/hp-char", "Harry Potter", "en");
  idx.add("http://ex/drop", "Drop table", "en");
  return idx;
}

describe("tokenize", () => {
  it("lowercases, folds accents and splits on punctuation", () => {
    expect(tokenize("São-Paulo, ZÜRICH!")).toEqual(["sao", "paulo", "zurich"]);
    expect(tokenize("ﬁne")).toEqual(["fine"]); // NFKD compatibility folding
    expect(tokenize("  ;;; ")).toEqual([]);
  });

  it("drops the English possessive but keeps other apostrophes", () => {
    expect(tokenize("Ms. Brant's team")).toEqual(["ms", "brant", "team"]);
    expect(tokenize("Brant’s")).toEqual(["brant"]); // typographic apostrophe
    expect(tokenize("O'Sullivan")).toEqual(["o", "sullivan"]);
    expect(tokenize("'s")).toEqual(["s"]); // no word before it: not a possessive
  });
});

describe("singulars", () => {
  it("folds regular English plurals", () => {
    expect(singulars("transistors")).toEqual(["transistor"]);
    expect(singulars("batteries")).toContain("battery");
    expect(singulars("cookies")).toContain("cookie");
    expect(singulars("switches")).toContain("switch");
    expect(singulars("boxes")).toContain("box");
    expect(singulars("buses")).toContain("bus");
    expect(singulars("classes")).toContain("class");
    expect(singulars("cases")).toContain("case");
    expect(singulars("ties")).toEqual(["tie"]);
    expect(singulars("flies")).toContain("fly");
  });

  it("leaves words that only end in s alone", () => {
    for (const w of ["bus", "class", "status", "analysis", "news", "series", "ms", "gas", "its", "m558s", "transistor"]) {
      expect(singulars(w), w).toEqual([]);
    }
  });
});

describe("LabelIndex.search", () => {
  it("ranks an exact label first, then all-token matches, then partial ones", () => {
    const hits = sample().search("paris", { limit: 10 });
    expect(hits[0].label).toBe("Paris");
    const iris = hits.map((h) => h.iri);
    // all-token matches (Paris Hilton, Plaster of Paris) before the prefix-only match (Parisian)
    expect(iris.indexOf("http://ex/paris-hilton")).toBeLessThan(iris.indexOf("http://ex/parisian"));
    expect(iris.indexOf("http://ex/plaster")).toBeLessThan(iris.indexOf("http://ex/parisian"));
    // shorter label wins a tie among all-token matches of the same coverage kind
    expect(iris.indexOf("http://ex/paris-hilton")).toBeLessThan(iris.indexOf("http://ex/plaster"));
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
  });

  it("prefers the label that is exactly the query over a longer one containing it", () => {
    const hits = sample().search("harry potter", { limit: 2 });
    expect(hits.map((h) => h.iri)).toEqual(["http://ex/hp-char", "http://ex/hp"]);
  });

  it("matches across case and accents, and keeps the language tag", () => {
    const idx = sample();
    expect(idx.search("zurich", { limit: 1 })[0]).toMatchObject({ iri: "http://ex/zurich", label: "Zürich" });
    expect(idx.search("SAO PAULO", { limit: 1 })[0]).toMatchObject({ iri: "http://ex/sao", lang: "pt" });
  });

  it("matches a prefix of the last word (typing)", () => {
    expect(sample().search("harry pot", { limit: 1 })[0].iri).toBe("http://ex/hp-char");
  });

  it("filters by language but always accepts untagged labels", () => {
    const hits = sample().search("paris", { limit: 10, language: "fr" });
    expect(hits.map((h) => h.iri)).toEqual(["http://ex/paris-fr"]);
    expect(sample().search("zurich", { limit: 5, language: "de" }).map((h) => h.iri)).toEqual(["http://ex/zurich"]);
  });

  it("returns one hit per IRI and respects the limit", () => {
    const idx = sample();
    idx.add("http://ex/paris", "City of Paris", "en");
    const hits = idx.search("paris", { limit: 3 });
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.iri)).size).toBe(3);
  });

  it("survives hostile strings without throwing or matching everything", () => {
    const idx = sample();
    const hostile = ['"', "'", "{}", "} ; DROP", "\n\n", "\\", ".*", "%", "\u0000", "🙂", "a", "", "}\"; DELETE WHERE { ?s ?p ?o }"];
    for (const h of hostile) {
      const hits = idx.search(h, { limit: 100 });
      expect(hits.length).toBeLessThan(idx.size);
    }
    expect(idx.search("} ; DROP", { limit: 10 }).map((h) => h.iri)).toEqual(["http://ex/drop"]);
    expect(idx.search("{}", { limit: 10 })).toEqual([]);
    expect(idx.search("nothing-like-this", { limit: 10 })).toEqual([]);
  });

  it("answers in well under 5 ms at p95 over 100k labels", () => {
    const idx = new LabelIndex();
    const syl = ["ka", "lo", "mi", "ra", "ven", "tor", "sel", "bri", "an", "dus", "phe", "qui", "zor", "ny", "gal", "het"];
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const word = () => Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => syl[Math.floor(rnd() * syl.length)]).join("");
    const labels: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const l = `${word()} ${word()}${i % 3 === 0 ? ` ${word()}` : ""}`;
      labels.push(l);
      idx.add(`http://ex/e${i}`, l, i % 2 ? "en" : undefined);
    }
    idx.search("warm up", { limit: 10 });
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const l = labels[(i * 331) % labels.length];
      const q = i % 3 === 0 ? l : i % 3 === 1 ? l.split(" ")[0] : l.slice(0, 4);
      // best of three runs per query: the bound is about the algorithm, not about other processes sharing the CPU
      let best = Infinity;
      let hits = idx.search(q, { limit: 10 });
      for (let r = 0; r < 3; r++) {
        const t = performance.now();
        hits = idx.search(q, { limit: 10 });
        best = Math.min(best, performance.now() - t);
      }
      times.push(best);
      if (i % 3 === 0) expect(hits[0].label.toLowerCase()).toBe(l.toLowerCase());
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.95)]).toBeLessThan(5);
  });
});

describe("LabelIndex plurals and possessives", () => {
  function kg(): LabelIndex {
    const idx = new LabelIndex();
    idx.add("http://ex/transistor", "Transistor", "en");
    idx.add("http://ex/transistors-team", "Transistors", "en");
    idx.add("http://ex/switch", "Sensor Switch", "en");
    idx.add("http://ex/battery", "Battery Pack", "en");
    idx.add("http://ex/bus", "Bus", "en");
    idx.add("http://ex/bu", "Bu", "en");
    idx.add("http://ex/brant", "Karen Brant", "en");
    idx.add("http://ex/new", "New Products", "en");
    idx.add("http://ex/case", "Case", "en");
    return idx;
  }

  it("finds the singular label for a plural query, and the plural label for a singular one", () => {
    const idx = new LabelIndex();
    idx.add("http://ex/transistor", "Transistor", "en");
    idx.add("http://ex/switches", "Sensor Switches", "en");
    expect(idx.search("Transistors", { limit: 5 }).map((h) => h.iri)).toEqual(["http://ex/transistor"]);
    expect(idx.search("sensor switch", { limit: 5 }).map((h) => h.iri)).toEqual(["http://ex/switches"]);
  });

  it("folds -ies, -es and -s plurals on the query side", () => {
    const idx = kg();
    expect(idx.search("sensor switches", { limit: 1 })[0].iri).toBe("http://ex/switch");
    expect(idx.search("battery packs", { limit: 1 })[0].iri).toBe("http://ex/battery");
    expect(idx.search("batteries", { limit: 1 })[0].iri).toBe("http://ex/battery");
    expect(idx.search("cases", { limit: 1 })[0].iri).toBe("http://ex/case");
    expect(idx.search("buses", { limit: 1 })[0].iri).toBe("http://ex/bus");
  });

  it("still ranks the label that is exactly the query above a singular/plural match", () => {
    const idx = kg();
    const plural = idx.search("transistors", { limit: 5 });
    expect(plural.map((h) => h.iri)).toEqual(["http://ex/transistors-team", "http://ex/transistor"]);
    expect(plural[0].score).toBe(300);
    expect(plural[1].score).toBeLessThan(300);
    const singular = idx.search("transistor", { limit: 5 });
    expect(singular.map((h) => h.iri)).toEqual(["http://ex/transistor", "http://ex/transistors-team"]);
    // a folded whole-label match beats an as-typed match that carries extra words
    idx.add("http://ex/transistor-lab", "Transistor Lab", "en");
    expect(idx.search("transistors", { limit: 5 }).map((h) => h.iri).slice(0, 3)).toEqual([
      "http://ex/transistors-team",
      "http://ex/transistor",
      "http://ex/transistor-lab",
    ]);
  });

  it("matches possessives to the plain name", () => {
    const idx = kg();
    expect(idx.search("Karen Brant's", { limit: 1 })[0]).toMatchObject({ iri: "http://ex/brant", score: 300 });
    expect(idx.search("Brant’s", { limit: 1 })[0].iri).toBe("http://ex/brant");
  });

  it("does not make unrelated labels match", () => {
    const idx = kg();
    // "bus" is not the plural of "bu", nor "news" of "new"
    expect(idx.search("bus", { limit: 5 }).map((h) => h.iri)).toEqual(["http://ex/bus"]);
    expect(idx.search("bu", { limit: 5 }).map((h) => h.iri)).toEqual(["http://ex/bu", "http://ex/bus"]); // prefix only
    expect(idx.search("bu", { limit: 5 })[1].score).toBeLessThan(200);
    expect(idx.search("news", { limit: 5 })).toEqual([]);
    expect(idx.search("karens", { limit: 5 }).map((h) => h.iri)).toEqual(["http://ex/brant"]); // plain -s rule, ranked as a fold
    expect(idx.search("transistorss", { limit: 5 })).toEqual([]);
  });

  it("stays well under 5 ms at p95 over 100k labels full of plurals, plural queries included", () => {
    const idx = new LabelIndex();
    const syl = ["ka", "lo", "mo", "ra", "ven", "tor", "sel", "bro", "an", "dus", "phe", "quo", "zor", "ny", "gal", "het", "lax", "rich", "bash"]; // no word ends in "i": "-is" is never folded (analysis)
    const plural = (w: string) => (/(s|x|ch|sh)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`);
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const word = () => Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => syl[Math.floor(rnd() * syl.length)]).join("");
    const labels: string[][] = [];
    for (let i = 0; i < 100_000; i++) {
      // 40% of the words stored as plurals (-s, -es, -ies)
      const words = [word(), word(), word()].slice(0, 2 + (i % 2)).map((w) => (rnd() < 0.4 ? plural(w) : w));
      labels.push(words);
      idx.add(`http://ex/p${i}`, words.join(" "), "en");
    }
    idx.search("warm up", { limit: 10 });
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const words = labels[(i * 331) % labels.length];
      // every word made plural (stored plurals become double plurals: no fold, only the others match), one word, two words
      const q = i % 3 === 0 ? words.map(plural).join(" ") : i % 3 === 1 ? plural(words[0]) : words.slice(0, 2).join(" ");
      let best = Infinity;
      let hits = idx.search(q, { limit: 10 });
      for (let r = 0; r < 3; r++) {
        const t = performance.now();
        hits = idx.search(q, { limit: 10 });
        best = Math.min(best, performance.now() - t);
      }
      times.push(best);
      expect(hits.length).toBeGreaterThan(0);
    }
    times.sort((x, y) => x - y);
    expect(times[Math.floor(times.length * 0.95)]).toBeLessThan(5);
  });

  it("counts a label once per query word even when it holds both numbers", () => {
    const idx = new LabelIndex();
    idx.add("http://ex/a", "Box of boxes", "en");
    idx.add("http://ex/b", "Box", "en");
    const hits = idx.search("boxes", { limit: 5 });
    expect(hits.map((h) => h.iri)).toEqual(["http://ex/b", "http://ex/a"]);
    for (const h of hits) expect(h.score).toBeLessThan(300);
  });
});

describe("LabelIndex preferLanguage", () => {
  it("breaks ties toward the preferred language without filtering others out", () => {
    const idx = new LabelIndex();
    idx.add("http://ex/a", "Berlin", "de");
    idx.add("http://ex/b", "Berlin", "en");
    expect(idx.search("berlin", { limit: 5, preferLanguage: "en" }).map((h) => h.iri)).toEqual(["http://ex/b", "http://ex/a"]);
    expect(idx.search("berlin", { limit: 5, preferLanguage: "de" }).map((h) => h.iri)).toEqual(["http://ex/a", "http://ex/b"]);
    expect(idx.search("berlin", { limit: 1, preferLanguage: "en" })[0].score).toBe(300);
  });
});
