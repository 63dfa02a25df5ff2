import { describe, expect, it } from "vitest";
import { fixtureStore } from "@/test/fixtures/kg/lexicon/store";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { DEFAULT_PROFILE } from "@/lib/kg/profile";
import { readKgSchema } from "./read-schema";

const OR = "http://example.org/orchard#";
const o = (names: string[]) => names.map((n) => `${OR}${n}`).sort();

describe("the KG's own schema", () => {
  it("reaches every class and property below a parent, and reads inverses, domains and ranges", async () => {
    const fx = fixtureStore("hierarchy.ttl");
    const schema = await readKgSchema(fx.select, DEFAULT_PROFILE);
    expect(schema.childrenOfClass(`${OR}Plant`)).toEqual([`${OR}FruitTree`]);
    expect(schema.childrenOfClass(`${OR}Plant`, { transitive: true }).sort()).toEqual(o(["FruitTree", "PearTree", "QuinceTree"]));
    expect(schema.classWithDescendants(`${OR}FruitTree`).sort()).toEqual(o(["FruitTree", "PearTree", "QuinceTree"]));
    expect(schema.parentsOfClass(`${OR}PearTree`, { transitive: true }).sort()).toEqual(o(["FruitTree", "Plant"]));
    expect(schema.propertyWithDescendants(`${OR}measurement`).sort()).toEqual(o(["heightMetres", "measurement", "trunkGirthCm"]));
    expect(schema.inverseOf(`${OR}growsIn`)).toEqual([`${OR}hosts`]);
    expect(schema.inverseOf(`${OR}hosts`)).toEqual([`${OR}growsIn`]);
    expect(schema.domainOf(`${OR}heightMetres`)).toEqual([`${OR}Plant`]);
    expect(schema.rangeOf(`${OR}soil`)).toEqual([`${OR}SoilKind`]);
    expect(schema.propertiesWithDomain(`${OR}PearTree`).sort()).toEqual(o(["growsIn", "heightMetres", "trunkGirthCm"]));
    for (const q of fx.queries) expect(parseReadOnly(q).kind).toBe("SELECT");
  });

  it("finds an enumeration (a few instances used as values, with no links of their own) and not an ordinary class", async () => {
    const schema = await readKgSchema(fixtureStore("hierarchy.ttl").select, DEFAULT_PROFILE);
    expect(schema.enumerations).toEqual([`${OR}SoilKind`]);
    expect(schema.enumeration(`${OR}SoilKind`)?.sort()).toEqual(o(["Clay", "Loam", "Sand"]));
    expect(schema.enumerationOf(`${OR}Clay`)).toBe(`${OR}SoilKind`);
    // plots link to soils: things, not values
    expect(schema.enumeration(`${OR}Plot`)).toBeUndefined();
  });

  it("is empty for a KG without a schema", async () => {
    const schema = await readKgSchema(fixtureStore("camel-case.ttl").select, DEFAULT_PROFILE);
    expect(schema.isEmpty).toBe(true);
    expect(schema.childrenOfClass("http://example.org/clockworks#Gear", { transitive: true })).toEqual([]);
  });
});
