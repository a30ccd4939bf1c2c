// The JSON shapes the wasm engine returns are generated from the Rust structs that serialize them
// (wasm-core/src/boundary_types.rs writes ./generated/engine.ts; `npm run gen:types`, checked by `cargo test`).
// What is left here is the page's own: values it builds from the engine's typed arrays, and the marks it asks for.
// Times are numbers holding integer nanoseconds.

export type {
  CpuPlace,
  CpuReport,
  CpuSchedstat,
  CpuView,
  Choices,
  DecisionView,
  DomainSchedstat,
  EevdfEntityView,
  EevdfRqView,
  RtRqView,
  DlRqView,
  ClassRowView,
  StopWorkView,
  DlTaskView,
  RtTaskView,
  EventCounts,
  EventView,
  GroupRqView,
  GroupStatsView,
  LatencyCdf,
  JsonValue,
  LbCounters,
  MachineChoice,
  MigrationView,
  MissKindView,
  MissView,
  O1ArrayView,
  O1LevelView,
  O1RqView,
  O1TaskView,
  PlaceKind,
  PlacementView,
  PresetInfo,
  Problem,
  ProcessReport,
  ReadReport,
  RealCpu,
  RealReport,
  Report,
  RotationDir,
  RotationView,
  RqSchedstat,
  SdSchedstat,
  SimView,
  TaskList,
  TaskState,
  TaskView,
  TemplateChoice,
  TopologyView,
  TreeNode,
  TreeView,
  Verdict,
  ViolationReport,
  WhyView,
} from './generated/engine';

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
