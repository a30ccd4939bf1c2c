//! rt-app JSON (the workload format of rt-app itself, LISA's and the
//! sched_ext simulator's) to and from a scenario: `import` reads a file as
//! rt-app does (`json_c`'s grammar; tasks, phases and events through
//! `import_task`, `import_events`, `import_program`, `import_policy` over
//! `import_model`), `export` writes what rt-app can say (`export_phases`:
//! the program cut into phases; `export_names`: rt-app's one namespace), over `ordered_json` (JSON objects kept in file
//! order: rt-app runs a task's events in that order).

pub mod export;
mod export_names;
mod export_phases;
pub mod import;
mod import_events;
mod import_model;
mod import_phase_sched;
mod import_policy;
mod import_program;
mod import_task;
pub mod json_c;
pub mod ordered_json;
