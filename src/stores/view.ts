// How the lab is looked at: the picked CPU, the lanes' window, what colours
// the machine, and the play speed. The worker reads the CPU's trees and the
// lanes' slices for these (lab-engine.ts's query).
import type { GanttWindow } from '../engine/frame';
import { createStore } from './store';

export type ColourBy = 'nr_running' | 'load';

/** The lanes show 200 ms at first. */
export const GANTT_WINDOW_NS = 200e6;

export interface ViewState {
  cpu: number;
  gantt: GanttWindow;
  colourBy: ColourBy;
  /** Simulated time per wall time while playing. */
  speed: number;
}

export const createViewStore = () =>
  createStore<ViewState>({
    cpu: 0,
    gantt: { spanNs: GANTT_WINDOW_NS, endNs: null },
    colourBy: 'nr_running',
    speed: 0.1,
  });
