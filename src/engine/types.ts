// The JSON shapes the wasm engine returns (see wasm-core/src/api/view.rs and
// report.rs). Times are numbers holding integer nanoseconds.

/** A task (pid) or, when `group` is set, a task group's entity. */
export interface TreeNode {
  pid: number;
  name: string;
  vruntime: number;
  weight: number;
  red: boolean;
  left: number | null;
  right: number | null;
  group: number | null;
}

export interface TreeView {
  root: number | null;
  nodes: TreeNode[];
}

/** One task group's runqueue on one CPU (group scheduling's tree of trees). */
export interface GroupRqView {
  tg: number;
  name: string;
  nr_running: number;
  h_nr_running: number;
  load_weight: number;
  min_vruntime: number;
  curr: number | null;
  tree: TreeView;
  /** Group Identity on: this group runqueue's underclass tree. */
  under: TreeView | null;
}

/** A task queued in an O(1) priority list. */
export interface O1TaskView {
  pid: number;
  name: string;
  static_prio: number;
  sleep_avg_ns: number;
  time_slice_ns: number;
}

/** One O(1) `prio_array`: the bitmap's set bits and the non-empty FIFO lists. */
export interface O1ArrayView {
  nr_active: number;
  bitmap: number[];
  levels: { prio: number; tasks: O1TaskView[] }[];
}

/** An O(1) runqueue (policy "o1"): active and expired arrays. */
export interface O1RqView {
  active: O1ArrayView;
  expired: O1ArrayView;
  switches: number;
  best_expired_prio: number;
  expired_timestamp_ns: number | null;
}

export interface CpuView {
  cpu: number;
  online: boolean;
  curr: number | null;
  root_curr: number | null;
  nr_running: number;
  min_vruntime: number;
  load_weight: number;
  load: number;
  tree: TreeView;
  groups: GroupRqView[];
  /** Group Identity on: the root's underclass tree (picked only when the normal tree is empty). */
  under: TreeView | null;
  /** Policy "o1" (detail CPU only): the priority arrays. */
  o1: O1RqView | null;
}

export interface GroupStatsView {
  cpus: string;
  local: boolean;
  avg_load: number;
  group_load: number;
  group_capacity: number;
  sum_nr_running: number;
  idle_cpus: number;
  load_per_task: number;
  group_type: string;
  min_load: number;
  max_load: number;
}

/** One load_balance call, for the inspector. */
export interface DecisionView {
  t_ns: number;
  cpu: number;
  level: string;
  idle: string;
  groups: GroupStatsView[];
  busiest_group: number | null;
  domain_avg_load: number;
  imbalance: number;
  busiest_cpu: number | null;
  outcome: string;
  moved: number[];
  /** The CPU tasks came or would have come from (moved, nothing-moved, active-balance). */
  from_cpu: number | null;
  /** The group's designated balancer (not-designated). */
  designated_cpu: number | null;
  /** Why nothing moved (balanced, nothing-moved): a code and its numbers. */
  why: WhyView | null;
  /** The engine's English sentence (the app words it with `explainDecision`). */
  explanation: string;
}

export type WhyView =
  | { code: 'no-other-group' | 'single-task' }
  | { code: 'busiest-has-no-task'; cpus: string }
  | { code: 'local-not-below-busiest'; local: number; busiest: number; cpus: string }
  | { code: 'local-at-domain-average'; local: number; avg: number }
  | { code: 'busiest-not-overloaded'; busiest_idle: number; local_idle: number }
  | { code: 'within-imbalance-pct'; busiest: number; pct: number; local: number }
  | { code: 'skipped'; running: number; pinned: number; hot: number; too_heavy: number };

export type TaskState = 'new' | 'running' | 'runnable' | 'sleeping' | 'exited';

/** The task table's rows (`listed_tasks_json`) and how many tasks there are in all. */
export interface TaskList {
  rows: TaskView[];
  total: number;
}

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
  /** The record in one English line (the app words `args` with `eventText`). */
  text: string;
  /** Its parts: task names as `name[pid]` ("" = the idle task), states, causes, numbers. */
  args: Record<string, string>;
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

export interface ProcessReport {
  tgid: number;
  name: string;
  threads: number;
  cpu_time_ns: number;
  share: number;
  wait_time_ns: number;
  nvcsw: number;
  nivcsw: number;
  migrations: number;
  completion_ns: number | null;
  wakeup_latency_ns: [number, number, number, number] | null;
}

export interface ViolationReport {
  detected_ns: number;
  confirmed_ns: number;
  idle_cpus: number[];
  waiting_threads: string[];
}

/** The metrics report (wasm-core/src/api/report.rs). */
export interface Report {
  scenario: string;
  seed: number;
  sim_time_ns: number;
  events: number;
  trace_hash: string;
  wasted_core_ns: number;
  /** The longest one CPU idled while work it could run waited: [cpu, from ns, length ns]. */
  longest_wasted_idle: [number, number, number] | null;
  /** Set when the run stopped early because it spent its event budget (ns). */
  event_budget_stop_ns: number | null;
  /** What the run could not do as its scenario asked, in words (a zero-time loop ended, forks refused at the thread
   * limit, hotplug events not done); absent from a real trace's report. */
  notes?: string[];
  loadavg: [number, number, number];
  jain_fairness_threads: number;
  migrations: number;
  balance_decisions: number;
  sanity_violations: ViolationReport[];
  cpus: { cpu: number; busy_ns: number; idle_ns: number }[];
  processes: ProcessReport[];
  /** 4.1's schedstat counters per CPU and per domain (wasm-core/src/api/schedstat.rs); empty in a frame's report (Frame.schedstat has the selected CPU's). */
  schedstat: CpuSchedstat[];
  /** The scenario's exercise judged from these figures (wasm-core/src/api/exercise.rs): in every report of a scenario with an exercise, the page's as `schedsim run --json`'s. */
  exercise?: {
    goal: string;
    process?: string;
    bound: number;
    figure: number | null;
    pass: boolean;
    finished: boolean;
    stopped_early_ns?: number;
  };
}

/** One idle type's load-balancing counters of one domain (lb_count … lb_nobusyg). */
export interface LbCounters {
  lb_count: number;
  lb_balanced: number;
  lb_failed: number;
  lb_imbalance: number;
  lb_gained: number;
  lb_hot_gained: number;
  lb_nobusyq: number;
  lb_nobusyg: number;
}

export interface CpuSchedstat {
  cpu: number;
  rq: {
    yld_count: number;
    sched_count: number;
    sched_goidle: number;
    ttwu_count: number;
    ttwu_local: number;
    rq_cpu_time: number;
    run_delay: number;
    pcount: number;
  };
  domains: {
    level: string;
    span: number[];
    counters: {
      lb: [LbCounters, LbCounters, LbCounters];
      alb_count: number;
      alb_failed: number;
      alb_pushed: number;
      ttwu_wake_remote: number;
      ttwu_move_affine: number;
      ttwu_move_balance: number;
    };
  }[];
}

/** A wakeup or fork placement and the CPUs it could consider. */
export interface PlacementView {
  t_ns: number;
  pid: number;
  task: string;
  kind: 'wakeup' | 'sync-wakeup' | 'fork';
  prev_cpu: number;
  waker_cpu: number;
  chosen_cpu: number;
  path: string;
  considered: number[];
}

export interface CpuPlace {
  cpu: number;
  /** Its package (socket); the engine always sends it. */
  package?: number;
  node: number;
  core: number;
  thread: number;
  online: boolean;
}

/** The machine (wasm-core/src/api/topology.rs). */
export interface TopologyView {
  name: string;
  nodes: number;
  cores_per_node: number;
  threads_per_core: number;
  /** Nodes per package (socket); the engine always sends it. */
  nodes_per_package?: number;
  distance: number[][];
  hops: number[][];
  cpus: CpuPlace[];
}

export interface MigrationView {
  t_ns: number;
  pid: number;
  from: number;
  to: number;
  cause: string;
}

/** What the next/previous steps look for. */
export type Mark = 'decision' | 'migration' | 'violation' | 'tick';

/** Per bucket × CPU samples (row-major) of the heatmaps. */
export interface LoadHistory {
  widthNs: number;
  buckets: number;
  nrRunning: Float32Array;
  load: Float32Array;
  migrations: Uint32Array;
  /** Wasted core time (ns) per bucket. */
  wasted: Float64Array;
}

/** A process's wakeup latency distribution: quantiles 0, 1/n, …, 1 (ns). */
export interface LatencyCdf {
  tgid: number;
  name: string;
  samples: number;
  quantiles: number[];
}
