//! Runs of one scenario across values: the presets' comparisons across
//! policies and sizes (`preset`: greedy-threads, gi-colocation,
//! eevdf-vs-cfs, o1-vs-cfs; `bin/sweep.rs`), and `schedsim sweep`'s plan of
//! seeds and `--set` values (`plan`), its row per run (`rows`) and how the
//! rows are printed while the runs go on (`layout`).

pub mod layout;
pub mod plan;
pub mod preset;
pub mod rows;
