import { describe, expect, it } from "vitest";
import { isOpaqueIri, localNames, localPart, splitWords, stem, stemmedText } from "./names";

describe("local names", () => {
  it("split CamelCase, acronyms, snake_case, kebab-case and digits into words", () => {
    expect(splitWords("NorthgateClockTower")).toBe("Northgate Clock Tower");
    expect(splitWords("ACPowerUnit")).toBe("AC Power Unit");
    expect(splitWords("otto_fenwick")).toBe("otto fenwick");
    expect(splitWords("brass_gear-7")).toBe("brass gear 7");
    expect(splitWords("ironGear12")).toBe("iron Gear 12");
  });

  it("decode percent-encoding and take the member of a dotted local name as a second name", () => {
    expect(localPart("http://example.org/clockworks#Caf%C3%A9Pendulum")).toBe("CaféPendulum");
    expect(localNames("http://example.org/clockworks#Caf%C3%A9Pendulum")).toEqual(["Café Pendulum"]);
    expect(localNames("http://example.org/m#Hive.honeyYield")).toEqual(["Hive honey Yield", "honey Yield"]);
    // a one-letter member is a symbol, not a name
    expect(localNames("http://example.org/m#Segment.r")).toEqual(["Segment r"]);
  });

  it("treat urn:uuid, UUIDs, hex and code-like ids as nameless", () => {
    for (const v of [
      "urn:uuid:6f1c2a9e-5b7d-4e0a-9c3b-2d8e1f4a7b60",
      "http://example.org/x/_6f1c2a9e5b7d4e0a9c3b2d8e1f4a7b60",
      "http://www.example.org/entity/Q42",
      "http://example.org/id/12345",
    ]) {
      expect(isOpaqueIri(v), v).toBe(true);
      expect(localNames(v)).toEqual([]);
    }
    expect(isOpaqueIri("http://example.org/apiary/hive-17")).toBe(false);
  });
});

describe("stemming", () => {
  it("folds plurals and -ing/-ed endings, undoing doubled consonants", () => {
    expect(stem("batteries")).toBe("battery");
    expect(stem("clockmakers")).toBe("clockmaker");
    expect(stem("running")).toBe("run");
    expect(stem("stopped")).toBe("stop");
    expect(stem("played")).toBe("play");
    expect(stem("plays")).toBe("play");
    expect(stem("status")).toBe("status");
    expect(stemmedText("Built By")).toBe("built by");
  });
});
