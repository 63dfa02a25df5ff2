// Table answer helpers: cell text, sorting (numbers by value, unbound last, three-state buttons), CSV/TSV copies.
import { describe, expect, it } from "vitest";
import { cellText, isNumericCell, isTypedValueCell, nextSort, sortedOrder, tableText, type Cell } from "./table-data";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const iri = (v: string, label?: string): Cell => ({ type: "uri", value: `http://example.org/${v}`, ...(label ? { label } : {}) });
const num = (v: string): Cell => ({ type: "literal", value: v, datatype: `${XSD}integer` });
const txt = (v: string): Cell => ({ type: "literal", value: v });

const rows: Cell[][] = [
  [iri("Ann", "Ann"), num("10"), txt("b")],
  [iri("Bo_Li"), num("9"), null],
  [iri("Cy", "Cy"), null, txt("a")],
  [iri("Di", "Di"), num("100"), txt("A")],
];

describe("table-data", () => {
  it("shows labels, else the IRI's local name, literals as they are, unbound as empty", () => {
    expect(rows.map((r) => cellText(r[0]))).toEqual(["Ann", "Bo Li", "Cy", "Di"]);
    expect(cellText(null)).toBe("");
    expect(isNumericCell(num("3"))).toBe(true);
    expect(isNumericCell(txt("3"))).toBe(false);
    expect(isTypedValueCell({ type: "literal", value: "2001-11-16", datatype: `${XSD}date` })).toBe(true);
    expect(isTypedValueCell({ type: "literal", value: "a b", datatype: `${XSD}string` })).toBe(false);
    expect(isTypedValueCell(iri("x"))).toBe(false);
  });

  it("sorts numbers by value, keeps unbound cells last in both directions, and is stable", () => {
    expect(sortedOrder(rows, null)).toEqual([0, 1, 2, 3]);
    expect(sortedOrder(rows, { column: 1, dir: "asc" })).toEqual([1, 0, 3, 2]);
    expect(sortedOrder(rows, { column: 1, dir: "desc" })).toEqual([3, 0, 1, 2]);
    // "a" and "A" compare equal (base sensitivity): the query's order decides
    expect(sortedOrder(rows, { column: 2, dir: "asc" })).toEqual([2, 3, 0, 1]);
  });

  it("cycles a column's sort: ascending, descending, the query's order; another column starts ascending", () => {
    expect(nextSort(null, 1)).toEqual({ column: 1, dir: "asc" });
    expect(nextSort({ column: 1, dir: "asc" }, 1)).toEqual({ column: 1, dir: "desc" });
    expect(nextSort({ column: 1, dir: "desc" }, 1)).toBeNull();
    expect(nextSort({ column: 1, dir: "desc" }, 0)).toEqual({ column: 0, dir: "asc" });
  });

  it("copies as CSV with quoting and an IRI column beside each entity column", () => {
    const csv = tableText(["who", "note"], [[iri("Ann", "Ann, A."), txt('said "hi"\nthen left')], [iri("Bo"), null]], "csv");
    expect(csv.split("\r\n")[0]).toBe("who,who IRI,note");
    expect(csv).toContain('"Ann, A.",http://example.org/Ann,"said ""hi""\nthen left"');
    expect(csv.split("\r\n").at(-1)).toBe("Bo,http://example.org/Bo,");
  });

  it("copies as TSV with tabs and line breaks inside cells flattened", () => {
    expect(tableText(["a", "b"], [[txt("x\ty"), txt("1\n2")]], "tsv")).toBe("a\tb\nx y\t1 2");
  });

  it("defuses cells that a spreadsheet would run as formulas, but keeps plain signed numbers", () => {
    const tsv = tableText(["v"], [[txt("=HYPERLINK(\"http://evil\")")], [txt("@SUM(A1)")], [txt("-12.5")], [txt("+49-6200-1")]], "tsv").split("\n");
    expect(tsv.slice(1)).toEqual(["'=HYPERLINK(\"http://evil\")", "'@SUM(A1)", "-12.5", "'+49-6200-1"]);
  });
});
