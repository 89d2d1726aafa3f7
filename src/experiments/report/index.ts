// Public API of the report layer: tables (Markdown, HTML, CSV), Vega-Lite charts rendered to SVG, HTML reports.
export type { BandChartOptions, ChartSeries, SeriesPoint } from './bandChartSpec.js';
export { bandChartSpec } from './bandChartSpec.js';
export { tableToCsv, toCsv } from './csv.js';
export {
  ciHalfWidth,
  formatMeanCi,
  formatNumber,
  formatPercent,
  formatPValue,
  formatSignedPercent,
} from './format.js';
export type { HtmlReportInput, ReportBlock, ReportSection } from './htmlReport.js';
export { buildHtmlReport, escapeHtml, htmlTable } from './htmlReport.js';
export { markdownSection, markdownTable } from './markdownTable.js';
export type { RawCell, ReportColumn, ReportTable } from './ReportTable.js';
export { reportTable } from './ReportTable.js';
export { renderSvg } from './renderSvg.js';
export { curveSeries, statsPoint } from './seriesFrom.js';
