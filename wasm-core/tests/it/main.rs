//! The integration tests, one test binary: each former `tests/<name>.rs` is a
//! module here. One binary links the engine once instead of 51 times, and the
//! helpers in `common` (the scenario builder, `common::scenario`, among them)
//! are compiled once. Cargo finds this directory as the test target `it`
//! (`cargo test --test it [filter]`).
//!
//! The tests run as threads of one process, so what is process-wide goes
//! through `common`: temp files (`common::temp_path`, unique per test) and the
//! host a real-kernel test runs its workload on (`common::host_exclusive`).

mod common;

mod active_balance;
mod balance_decisions;

mod cfs_single_cpu;
mod class_rooms;
mod cli_imports;
mod cli_output;
mod cli_robustness;
mod cond_vars;
mod context_switches;
mod die_prefer_sibling;
mod edf_vs_fixed;
mod eevdf;
mod equivalence;
mod exercise;
mod ext_engine_rules;
mod ext_held_waiting;
mod ext_limits;
mod ext_messages;
mod ext_policy;
mod ext_timeline;
mod fair_policies_612;
mod fair_server;
mod flag_pipeline;
mod fork_placement;
mod frame_view;
mod fuzz_scenarios;
mod golden;
mod group_identity;
mod group_scheduling;
mod grub;
mod hotplug;
mod idle_balance_41;
mod incremental_index;
mod invariants_props;
mod limits_cli;
mod missing_domains_41;
mod module_layers;
mod multicore_balance;
mod o1;
mod overlap_groups_41;
mod pinned_retry;
mod preempt_model;
mod priority_inheritance;
mod rbtree_props;
mod real_dl;
mod real_kernel;
mod real_policy_run;
mod real_rt;
mod real_trace_view;
mod rtapp;
mod rtapp_examples;
mod rtapp_fixtures;
mod scenario_messages;
mod scenario_size;
mod scenario_text;
mod sched_policies;
mod sched_setattr;
mod schedstat;
mod silent_outcomes;
mod smt_contention;
mod stop_class;
mod sweep_cli;
mod switch_class;
mod sync_ops;
mod templates;
mod thread_changes;
mod thread_weight_policies;
mod timeline;
mod timer_steps;
mod trace_bounded;
mod trace_rq_changes;
mod wake_wide;
mod wasted_cores_bugs;
