//! rt-app JSON (LISA's and the sched_ext simulator's workload format) to and
//! from a scenario, for the subset that maps onto program steps: `import`,
//! `export`, over `ordered_json` (JSON objects kept in file order: rt-app
//! runs a task's events in that order).

pub mod export;
mod export_names;
pub mod import;
mod import_events;
mod import_model;
mod import_policy;
mod import_program;
mod import_task;
pub mod json_c;
pub mod ordered_json;
