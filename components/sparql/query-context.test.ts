// Reading a half-written query around the cursor: which slot of a triple, the subject's class, prefixes, variables.
import { describe, expect, it } from "vitest";
import { cursorContext, expand, tokenize } from "./query-context";

const ONT = "http://example.org/ontology/";
const P = `PREFIX ont: <${ONT}>\n`;
/** the context at the | in the text */
const at = (text: string) => cursorContext(text.replace("|", ""), text.indexOf("|"));

describe("cursorContext", () => {
  it("is in the predicate slot after a subject, and knows the subject's class from ?x a C", () => {
    const c = at(`${P}SELECT * WHERE { ?f a ont:Film . ?f ont:dir| }`);
    expect(c.slot).toBe("predicate");
    expect(c.word?.text).toBe("ont:dir");
    expect(c.subject?.text).toBe("?f");
    expect(c.subjectClasses).toEqual([`${ONT}Film`]);
  });

  it("follows ; and , (same subject; same subject and predicate)", () => {
    const semi = at(`${P}SELECT * WHERE { ?f a ont:Film ;\n  |`);
    expect(semi.slot).toBe("predicate");
    expect(semi.subjectClasses).toEqual([`${ONT}Film`]);
    const comma = at(`${P}SELECT * WHERE { ?f ont:genre ont:Drama , |`);
    expect(comma.slot).toBe("object");
    expect(comma.predicate?.text).toBe("ont:genre");
  });

  it("puts the cursor after `a` in the object slot (a class is wanted)", () => {
    const c = at(`${P}SELECT * WHERE { ?f a ont:F| }`);
    expect(c.slot).toBe("object");
    expect(c.predicate?.text).toBe("a");
  });

  it("starts a new triple after a dot, and sees expressions and PREFIX lines", () => {
    expect(at(`${P}SELECT * WHERE { ?f a ont:Film . | }`).slot).toBe("subject");
    expect(at(`${P}SELECT * WHERE { ?f ont:year ?y FILTER(?y > |) }`).slot).toBe("expression");
    expect(at(`PREFIX |`).slot).toBe("prefix-decl");
  });

  it("lists the variables in order, and ignores strings and comments", () => {
    const c = at(`SELECT ?b ?a WHERE { ?a ?p "?notvar" # ?comment\n ?b ?q ?| }`);
    expect(c.variables).toEqual(["b", "a", "p", "q"]);
    expect(c.word?.text).toBe("?");
  });

  it("does not mistake a string's contents for a subject", () => {
    const c = at(`${P}SELECT * WHERE { ?f ont:title "a . b" ; |`);
    expect(c.slot).toBe("predicate");
    expect(c.subject?.text).toBe("?f");
  });
});

describe("expand", () => {
  it("reads <IRI>, prefixed names and a", () => {
    const [iri, pname, a] = tokenize(`<${ONT}x> ont:y a`);
    expect(expand(iri, {})).toBe(`${ONT}x`);
    expect(expand(pname, { ont: ONT })).toBe(`${ONT}y`);
    expect(expand(pname, {})).toBeUndefined();
    expect(expand(a, {})).toBe("http://www.w3.org/1999/02/22-rdf-syntax-ns#type");
  });
});
