// How the machine's cells are coloured: by runqueue length or by load, on a
// ramp from zero to the largest figure (at least 4 tasks or 2048 load, so a
// quiet machine does not look busy).
import * as d3 from 'd3';
import type { CpuView } from '../../engine/types';
import type { ColourBy } from '../../stores/view';

export interface Colouring {
  /** Each CPU's figure, in the order of the CPUs given. */
  values: number[];
  /** The ramp's top. */
  top: number;
  fill: d3.ScaleSequential<string>;
  /** A figure as a cell shows it. */
  showValue: (v: number) => string;
  /** A node's figure: its online CPUs' mean. */
  mean: (cs: CpuView[]) => number;
}

export function colouring(cpus: CpuView[], colourBy: ColourBy): Colouring {
  const figure = (c: CpuView) => (colourBy === 'nr_running' ? c.nr_running : c.load);
  const values = cpus.map(figure);
  const top = colourBy === 'nr_running' ? Math.max(4, ...values) : Math.max(2048, ...values);
  const fill = d3.scaleSequential(d3.interpolateYlOrRd).domain([0, top]);
  const showValue = (v: number) => (colourBy === 'nr_running' ? String(v) : String(Math.round(v)));
  const mean = (cs: CpuView[]) => {
    const on = cs.filter((c) => c.online);
    return on.length ? on.reduce((s, c) => s + figure(c), 0) / on.length : 0;
  };
  return { values, top, fill, showValue, mean };
}
