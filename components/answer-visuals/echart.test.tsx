// Before a chart is drawn its figure is one line saying so (no empty canvas, no export buttons, no data table); the
// data table under a drawn chart starts closed.
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { ChartData, EChart } from "./echart";
import { TriplesGraph } from "./graph-view";

const uri = (v: string, label: string) => ({ type: "uri" as const, value: `http://e/${v}`, label });

describe("EChart before the chart is drawn", () => {
  it("shows the loading line only: no canvas box, no PNG/SVG buttons, no data table", () => {
    const html = renderToStaticMarkup(<EChart title="films by genre" option={() => ({})} height={300} testId="answer-chart" data={<ChartData caption="films" head={["genre", "films"]} rows={[["fantasy", 16]]} />} />);
    expect(html).toContain('data-testid="chart-loading"');
    expect(html).toContain("Drawing the chart…");
    for (const absent of ["chart-canvas", "export-png", "export-svg", "Show data", "height:300px"]) expect(html).not.toContain(absent);
  });

  it("says the facts behind an answer are loading, in one line, for the answer graph", () => {
    const html = renderToStaticMarkup(<TriplesGraph triples={[{ subject: uri("HP", "Harry Potter"), predicate: uri("author", "author"), object: uri("JKR", "J. K. Rowling") }]} answerIris={["http://e/JKR"]} title="The facts behind the answer" />);
    expect(html).toContain("Loading the facts behind the answer…");
    expect(html).not.toContain("export-png");
    // a one-fact graph is kept narrow
    expect(html).toContain("max-width:480px");
  });
});

describe("ChartData", () => {
  it("starts closed: the table is one click on Show data away", () => {
    const html = renderToStaticMarkup(<ChartData caption="films" head={["genre", "films"]} rows={[["fantasy", 16]]} />);
    expect(html).toMatch(/<details(?![^>]*\bopen\b)[^>]*>/);
    expect(html).toContain("<summary");
  });
});
