//! The scenario file format, version 1: what a scenario may say, how its
//! text is read and checked, and what a run of it is estimated to cost.
//!
//! ```text
//!   text ──load──► parse (serde; parse_problems: every type error, at its json_path)
//!                    └─► ScenarioFile (file, steps, exercise; de: the either-or values)
//!                          └──validate──► SimConfig ──limits::admit──► the engine
//!                               (templates expanded, policy_kind mapped, exercise checked)
//! ```
//!
//! The format imports nothing of the rest of `api` but the control-character
//! rules (`api::text`): the editor, the report and the exports build on it.
//! This file only declares and re-exports (the format's entry points and
//! structs, under the paths callers have always used); the files import one
//! another directly, so the re-exports close no cycle.

mod de;
pub mod diagnostic;
pub mod exercise;
pub mod file;
mod json_path;
pub mod limits;
pub mod load;
mod parse_problems;
pub mod policy_kind;
#[cfg(any(test, feature = "gen"))]
mod schema;
#[cfg(any(test, feature = "gen"))]
pub mod schema_keys;
pub mod steps;
pub mod templates;
#[cfg(test)]
mod tests;
pub mod validate;

pub use diagnostic::{Diagnostic, MAX_DIAGNOSTICS};
pub use file::*;
pub use load::{load_scenario, parse_scenario, size_problem, without_bom};
pub use steps::{DistFile, OpFile, WAIT_POLICIES};
pub use validate::policy::MAX_POLICY_SOURCE;
pub use validate::validate;
