import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { fillTemplate, parseTemplate, type ParsedTemplate } from "./template";

const EX = "http://example.org/x/";

function parsed(text: string): ParsedTemplate {
  const r = parseTemplate(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

describe("parseTemplate", () => {
  it("reads any SPARQL the question needs, with its entity and relation slots in order", () => {
    const t = parsed(
      "```sparql\nSELECT ?park (AVG(?len) AS ?avg) WHERE { ?trail a <e1> ; <r1> ?len ; <r0> ?park . FILTER NOT EXISTS { ?trail <r2> <e0> } } GROUP BY ?park ORDER BY DESC(?avg) LIMIT 3\n```",
    );
    expect(t.kind).toBe("SELECT");
    expect(t.entitySlots).toEqual(["e0", "e1"]);
    expect(t.relationSlots).toEqual(["r0", "r1", "r2"]);
    // read back as the model wrote it: slots as <e0>, no BASE line
    expect(t.text).toContain("<e1>");
    expect(t.text).not.toMatch(/BASE|triad-slot/);
    expect(parsed("ASK { <e0> <r0> ?d . FILTER(YEAR(?d) < 1900) }").kind).toBe("ASK");
    // xsd casts and rdfs:label are vocabulary, not slots
    expect(parsed("SELECT ?n WHERE { ?x <r0> ?v . ?x rdfs:label ?n FILTER(xsd:integer(?v) > 2) }").relationSlots).toEqual(["r0"]);
  });

  it("returns the parser's own message (position and what it expected) for a template that does not parse", () => {
    const r = parseTemplate("SELECT ?x WHERE { ?x <r0> <e0> ");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toMatch(/^the SPARQL template does not parse:\nParse error on line 1:/);
    expect(r.reason).toContain("-^");
    expect(r.reason).toMatch(/Expecting one of .*'\}'.*, got 'EOF'/);
  });

  it("refuses real IRIs, prefixed names, slots in the wrong place, updates and SERVICE, saying what to change", () => {
    const reason = (text: string) => {
      const r = parseTemplate(text);
      return r.ok ? "accepted" : r.reason;
    };
    expect(reason(`SELECT ?x WHERE { ?x <${EX}author> <e0> }`)).toContain(`names the IRI <${EX}author>: replace it with a slot`);
    expect(reason("SELECT ?x WHERE { ?x ex:author <e0> }")).toMatch(/does not parse[\s\S]*Unknown prefix: ex/);
    expect(reason("SELECT ?x WHERE { <r0> <e1> ?x }")).toMatch(/relation slot <r0> is used as a subject or object.*entity slot <e1> is used as a predicate/);
    expect(reason("SELECT ?x WHERE { ?x <author> <e0> }")).toContain("<author> is not a slot");
    expect(reason("DELETE WHERE { ?x <r0> <e0> }")).toContain("must be a SELECT or ASK");
    expect(reason("SELECT ?x WHERE { SERVICE <e1> { ?x <r0> <e0> } }")).toContain("SERVICE");
  });
});

describe("fillTemplate", () => {
  const t = parsed("SELECT DISTINCT ?a WHERE { ?a <r0> <e0> ; <r1>/<r2> ?p . FILTER(?a != <e1>) }");

  it("writes IRIs and literals into the slots, reverses a predicate read the other way (^p inside a path), caps the rows", () => {
    const q = fillTemplate(
      t,
      {
        e0: { kind: "literal", value: 'Ice "land"' },
        e1: { kind: "iri", iri: `${EX}Cedar` },
        r0: { kind: "predicate", iri: `${EX}origin`, reversed: false },
        r1: { kind: "predicate", iri: `${EX}offer`, reversed: true },
        r2: { kind: "predicate", iri: `${EX}price`, reversed: false },
      },
      50,
    );
    expect(q).toContain(`?a <${EX}origin> "Ice \\"land\\""`);
    expect(q).toContain(`^<${EX}offer>/<${EX}price>`);
    expect(q).toContain(`FILTER(?a != <${EX}Cedar>)`);
    expect(q).toMatch(/LIMIT 50$/);
    expect(parseReadOnly(q).kind).toBe("SELECT");
  });

  it("swaps a reversed triple's ends and keeps a LIMIT already below the cap", () => {
    const one = parsed("SELECT ?w WHERE { <e0> <r0> ?w } LIMIT 3");
    const q = fillTemplate(one, { e0: { kind: "iri", iri: `${EX}Austen` }, r0: { kind: "predicate", iri: `${EX}author`, reversed: true } }, 1000);
    expect(q).toContain(`?w <${EX}author> <${EX}Austen>`);
    expect(q).toMatch(/LIMIT 3$/);
  });

  it("refuses a filler that could break out of the query (a hostile IRI from the KG)", () => {
    let caught: unknown;
    try {
      fillTemplate(parsed("SELECT ?x WHERE { ?x <r0> <e0> }"), { e0: { kind: "iri", iri: "http://x> } ; DROP ALL ; <y" }, r0: { kind: "predicate", iri: `${EX}p`, reversed: false } }, 10);
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught, "bad_request")).toBe(true);
  });
});
