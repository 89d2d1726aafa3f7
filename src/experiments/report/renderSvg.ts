/**
 * Headless SVG rendering of Vega-Lite charts in Node: Vega-Lite compiles the spec to Vega, and a
 * Vega View with the `'none'` renderer produces the SVG text (no browser, no canvas).
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/**
 * Renders a Vega-Lite spec to a standalone SVG document string.
 *
 * @example
 * const svg = await renderSvg(bandChartSpec(series, { title: 'Reward', xTitle: 'round', yTitle: 'reward' }));
 * svg.startsWith('<svg'); // returns true
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const vegaSpec = compile(spec).spec;
  const view = new View(parse(vegaSpec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
