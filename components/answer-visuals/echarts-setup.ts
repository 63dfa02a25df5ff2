// ECharts with only the parts the app draws (bars, lines, scatters, maps, graphs; the SVG renderer), loaded on demand:
// pages without a chart never download it.
import * as echarts from "echarts/core";
import { BarChart, GraphChart, LineChart, LinesChart, ScatterChart } from "echarts/charts";
import { AriaComponent, DataZoomComponent, GeoComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";

echarts.use([BarChart, LineChart, ScatterChart, GraphChart, LinesChart, GridComponent, TooltipComponent, TitleComponent, LegendComponent, GeoComponent, DataZoomComponent, AriaComponent, SVGRenderer]);

export { echarts };
export type ECharts = ReturnType<typeof echarts.init>;
export type EChartsOption = Parameters<ECharts["setOption"]>[0];
