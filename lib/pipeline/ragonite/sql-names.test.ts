import { describe, expect, it } from "vitest";
import { nameAllocator, sqlName, sqlString } from "./sql-names";
import { inferSqlType } from "./induce-schema";

describe("sqlName", () => {
  it.each([
    ["Bill of Material (BOM)", "bill_of_material_bom"],
    ["hasSupplier", "has_supplier"],
    ["Größe (mm)", "grosse_mm"],
    ["select", "select_"],
    ["2nd place", "n_2nd_place"],
    ["'; DROP TABLE x; --", "drop_table_x"],
    ["", "x"],
  ])("%j → %s", (input, out) => expect(sqlName(input)).toBe(out));

  it("keeps names unique in a scope and avoids reserved ones", () => {
    const next = nameAllocator(["iri", "label"]);
    expect([next("label"), next("name"), next("name"), next("label")]).toEqual(["label_2", "name", "name_2", "label_3"]);
  });

  it("quotes comments as SQL strings", () => expect(sqlString("it's\nfine")).toBe("'it''s fine'"));
});

const lit = (value: string, datatype?: string, lang?: string) => ({ type: "literal" as const, value, ...(datatype ? { datatype } : {}), ...(lang ? { "xml:lang": lang } : {}) });
const XSD = "http://www.w3.org/2001/XMLSchema#";

describe("inferSqlType", () => {
  it.each([
    [[lit("12", `${XSD}integer`), lit("35")], "BIGINT"],
    [[lit("0042")], "VARCHAR"],
    [[lit("748.4", `${XSD}decimal`), lit("3")], "DOUBLE"],
    [[lit("2001-11-16", `${XSD}date`), lit("1999-01-31")], "DATE"],
    [[lit("2001-11-16T10:00:00", `${XSD}dateTime`)], "TIMESTAMP"],
    [[lit("true", `${XSD}boolean`), lit("false")], "BOOLEAN"],
    [[lit("2001-02-30")], "VARCHAR"],
    [[lit("12", undefined, "en")], "VARCHAR"],
    [[lit("(08798) 5416209")], "VARCHAR"],
  ] as const)("%j → %s", (values, type) => expect(inferSqlType([...values])).toBe(type));
});
