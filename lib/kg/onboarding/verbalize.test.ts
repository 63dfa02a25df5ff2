// The verbalizer: template questions offline; with a model, its questions are kept only when they name every entity
// and value the query uses in the KG's words (case and inflection aside), else the template question stands.
import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { Candidate } from "./frames";
import { namesAll, plural, singular, templateQuestion, verbalize } from "./verbalize";

const c = (over: Partial<Candidate>): Candidate => ({ shape: "value-of", frame: { kind: "value-of" }, sparql: "SELECT ?h WHERE { <http://example.org/l/gull> <http://example.org/v#height> ?h }", run: "", mentions: [], ...over });

describe("template questions", () => {
  it("use the class and predicate names in running text", () => {
    expect(templateQuestion({ kind: "count", cls: "Lighthouse" })).toBe("How many lighthouses are there?");
    expect(templateQuestion({ kind: "value-of", p: "height metres", entity: "Gull Rock Light" })).toBe("What is the height metres of Gull Rock Light?");
    expect(templateQuestion({ kind: "superlative", cls: "Ferry", p: "tonnage", dir: "low" })).toBe("Which ferry has the lowest tonnage?");
    // a predicate named as a relation reads as one
    expect(templateQuestion({ kind: "value-of", p: "kept by", entity: "Gull Rock Light" })).toBe("What is Gull Rock Light kept by?");
    expect(templateQuestion({ kind: "with-value", cls: "Hive", p: "located in", value: "North Field" })).toBe("Which hives are located in North Field?");
    // across a link row (the class), the things at one end picked by the other end, by the row, or by having none
    const link = { cls: "Mooring", target: "Ferry", other: "Harbour", p: "tonnage", key: "town", value: "Eastwick" };
    expect(templateQuestion({ kind: "link-filter", ...link })).toBe("What is the tonnage of the ferries that have a mooring with the harbour whose town is Eastwick?");
    expect(templateQuestion({ kind: "link-aggregate", agg: "avg", ...link })).toBe("What is the average tonnage of the ferries that have a mooring with the harbour whose town is Eastwick?");
    expect(templateQuestion({ kind: "link-list-two", ...link })).toBe("List the tonnage of the ferries and the town of the harbours linked to them by a mooring.");
    expect(templateQuestion({ kind: "link-none", cls: "Mooring", target: "Ferry", p: "tonnage" })).toBe("What is the tonnage of the ferries that do not have any mooring?");
    expect(templateQuestion({ kind: "link-none-value", cls: "Mooring", target: "Ferry", p: "tonnage", key: "berth", value: "B2" })).toBe("What is the tonnage of the ferries that do not have any mooring with berth B2?");
    expect(templateQuestion({ kind: "link-both", cls: "Mooring", target: "Ferry", p: "tonnage", key: "berth", value: "B2", value2: "C4" })).toBe("What is the tonnage of the ferries that have both a mooring with berth B2 and a mooring with berth C4?");
    // set questions over one class's rows
    expect(templateQuestion({ kind: "set-both", cls: "Ferry", p: "flag", key: "port", value: "Eastwick", value2: "Morrow" })).toBe("Which flag values are shared by ferries with port Eastwick and ferries with port Morrow?");
    expect(templateQuestion({ kind: "set-both-range", cls: "Ferry", p: "flag", key: "tonnage", n: "900", n2: "300" })).toBe("Which flag values have both ferries with a tonnage greater than 900 and ferries with a tonnage less than 300?");
    expect(templateQuestion({ kind: "set-none", cls: "Ferry", p: "flag", key: "port", value: "Eastwick" })).toBe("List the flag of all ferries except those of the ferries with port Eastwick.");
    expect(templateQuestion({ kind: "set-none-range", cls: "Ferry", p: "flag", key: "tonnage", n: "900" })).toBe("List the flag of all ferries except those of the ferries with a tonnage greater than 900.");
    // a linked class's column named after the class says whose it is: not "the harbours harbour name"
    expect(templateQuestion({ kind: "join-group-most", cls: "Ferry", target: "harbours", q: "harbour name", p: "moored at" })).toBe("Which harbour name has the most ferries?");
    expect(templateQuestion({ kind: "join-group-most", cls: "Ferry", target: "harbours", q: "town", p: "moored at" })).toBe("Which harbours town has the most ferries?");
    // a link named by the key it holds reads as the thing it points to; a link named as a noun keeps its name
    expect(templateQuestion({ kind: "chain-by-key", cls: "enrolment", p: "pupil_id", target: "pupil", q: "surname", key: "term", value: "spring" })).toBe("What is the surname of the pupil of the enrolment whose term is spring?");
    expect(templateQuestion({ kind: "join-count", cls: "enrolment", p: "ref-pupilid", target: "pupils", q: "surname", value: "Okafor" })).toBe("How many enrolments have a pupil whose surname is Okafor?");
    expect(templateQuestion({ kind: "join-filter", cls: "visit", p: "address_id", target: "addresses", q: "town", value: "Eastwick" })).toBe("Which visits have an address whose town is Eastwick?");
    expect(templateQuestion({ kind: "chain-by-key", cls: "course", p: "ref-dept_code", target: "departments", q: "building", key: "title", value: "Optics" })).toBe("What is the building of the department of the course whose title is Optics?");
    expect(templateQuestion({ kind: "chain-by-key", cls: "enrolment", p: "tutor", target: "teacher", q: "surname", key: "term", value: "spring" })).toBe("What is the surname of the tutor of the enrolment whose term is spring?");
    expect(plural("city")).toBe("cities");
    expect(["client bookings", "addresses", "cities", "status", "Harbour", "bus", "series", "lens", "atlas", "news", "cars", "stations"].map(singular)).toEqual(["client booking", "address", "city", "status", "Harbour", "bus", "series", "lens", "atlas", "news", "car", "station"]);
    // a class named in the plural reads as one row where the question takes one
    expect(templateQuestion({ kind: "list-two", cls: "guests", key: "first_name", p: "gender" })).toBe("List the first name and gender of every guest.");
    expect(templateQuestion({ kind: "superlative", cls: "apartments", p: "room count" })).toBe("Which apartment has the highest room count?");
    expect(templateQuestion({ kind: "count", cls: "apartments" })).toBe("How many apartments are there?");
    expect(plural("bus stop")).toBe("bus stops");
  });
});

describe("model-written questions", () => {
  it("keeps a question that names the entity, even lower-cased or inflected", () => {
    expect(namesAll("how tall is the gull rock light?", ["Gull Rock Light"])).toEqual({ ok: true });
    expect(namesAll("Which ferries fly the Maltese flags?", ["Maltese flag"])).toEqual({ ok: true });
    expect(namesAll("How tall is it?", ["Gull Rock Light"])).toEqual({ ok: false, missing: ["Gull Rock Light"] });
  });

  it("uses the model's questions that pass the check and the templates for the rest", async () => {
    const llm = createScriptedLlm({
      onboarding: [
        (messages) => {
          const text = messages.map((m) => m.text).join("\n");
          expect(text).toMatch(/Names to use: "Gull Rock Light"/);
          return JSON.stringify({ questions: [{ id: 1, question: "How high is Gull Rock Light?" }, { id: 2, question: "How high is that lighthouse?" }] });
        },
      ],
    });
    const out = await verbalize(
      [
        c({ frame: { kind: "value-of", p: "height", entity: "Gull Rock Light" }, mentions: ["Gull Rock Light"] }),
        c({ frame: { kind: "value-of", p: "height", entity: "Storm Point Light" }, mentions: ["Storm Point Light"] }),
      ],
      { llm: llm.gateway, kgName: "lighthouses" },
    );
    expect(out).toEqual([
      { question: "How high is Gull Rock Light?", verbalizer: "llm" },
      { question: "What is the height of Storm Point Light?", verbalizer: "template" },
    ]);
  });

  it("falls back to the templates when the model's reply is not the JSON asked for", async () => {
    const llm = createScriptedLlm({ onboarding: ["Sure! Here are some questions."] });
    const out = await verbalize([c({ frame: { kind: "count", cls: "Keeper" } })], { llm: llm.gateway, kgName: "lighthouses" });
    expect(out).toEqual([{ question: "How many keepers are there?", verbalizer: "template" }]);
  });
});
