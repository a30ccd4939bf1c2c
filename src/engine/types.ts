// The JSON shapes the wasm engine returns (see wasm-core/src/api/view.rs and
// report.rs). Times are numbers holding integer nanoseconds.

export interface TreeNode {
  pid: number;
  name: string;
  vruntime: number;
  red: boolean;
  left: number | null;
  right: number | null;
}

export interface CpuView {
  cpu: number;
  online: boolean;
  curr: number | null;
  nr_running: number;
  min_vruntime: number;
  load_weight: number;
  tree: { root: number | null; nodes: TreeNode[] };
}

export type TaskState = 'new' | 'running' | 'runnable' | 'sleeping' | 'exited';

export interface TaskView {
  pid: number;
  tgid: number;
  name: string;
  nice: number;
  weight: number;
  state: TaskState;
  cpu: number;
  vruntime: number;
  sum_exec_ns: number;
  wait_ns: number;
  nvcsw: number;
  nivcsw: number;
}

export interface Rotation {
  cpu: number;
  dir: 'left' | 'right';
  pivot: number;
}

export interface SimView {
  now_ns: number;
  events: number;
  finished: boolean;
  cpus: CpuView[];
  tasks: TaskView[];
  rotations: Rotation[];
}

export interface EventView {
  t_ns: number;
  cpu: number;
  kind: string;
  text: string;
}

export interface PresetInfo {
  name: string;
  title: string;
  description: string;
}

/** One run slice of the Gantt lanes. */
export interface RunSlice {
  cpu: number;
  pid: number;
  startNs: number;
  endNs: number;
}
