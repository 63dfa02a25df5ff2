// Entity view on the sample KG: label, types, description, labelled edges both ways, hostile IRIs refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createEmbeddedKg, type EmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import { describeEntity } from "./entity";

const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";
let kg: EmbeddedKg;

beforeAll(async () => {
  kg = await createEmbeddedKg({ id: "sample", sources: [{ path: "kg/sample.ttl" }] });
});
afterAll(() => kg.close());

describe("describeEntity", () => {
  it("shows J. K. Rowling with her label, a type, a description and labelled outgoing and incoming edges", async () => {
    const e = await describeEntity(kg, `${RES}J_K_Rowling`);
    expect(e.label).toMatch(/Rowling/);
    expect(e.types.length).toBeGreaterThan(0);
    expect(e.types.every((t) => t.label.length > 0)).toBe(true);
    expect(e.description).toBeTruthy();
    const wrote = e.outgoing.find((x) => x.predicate.iri === `${ONT}wrote` && x.object.value === `${RES}The_Ickabog`);
    expect(wrote?.predicate.label).toBe("wrote");
    expect(wrote?.object.label).toMatch(/Ickabog/);
    const author = e.incoming.find((x) => x.predicate.iri === `${ONT}author`);
    expect(author?.object.type).toBe("uri");
    expect(e.outgoing.length).toBeLessThanOrEqual(50);
  });

  it("caps edges at 50 and says so for a hub", async () => {
    // ont:Actor has about 60 instances: more than the cap
    const e = await describeEntity(kg, `${ONT}Actor`);
    const total = Number((await kg.select(`SELECT (COUNT(*) AS ?n) WHERE { ?s ?p <${ONT}Actor> }`)).results.bindings[0].n.value);
    expect(total).toBeGreaterThan(50);
    expect(e.incoming).toHaveLength(50);
    expect(e.capped).toBe(true);
  });

  it("refuses an IRI that could break out of the query", async () => {
    const e = await describeEntity(kg, "http://x> } ; DROP ALL ; <http://y").catch((err: unknown) => err);
    expect(isAppError(e, "bad_request")).toBe(true);
  });
});
