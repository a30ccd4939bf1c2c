import * as d3 from 'd3';

/** A stable colour per task, shared by the tree, the Gantt lanes and the table. */
export function taskColor(pid: number): string {
  const palette = d3.schemeTableau10;
  return palette[pid % palette.length];
}

/** Nanoseconds as milliseconds with three decimals. */
export function fmtMs(ns: number): string {
  return (ns / 1e6).toFixed(3);
}
