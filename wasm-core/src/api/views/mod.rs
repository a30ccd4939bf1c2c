//! What the page draws at the cursor, read from a run: the machine's
//! runqueues, tasks and recent events (`view`, with each event's fields in
//! `event_args`, and Linux 6.12's EEVDF queues in `eevdf`), the balancing decisions and placements (`inspector`), the
//! topology and recent migrations (`topology`), the wakeup latency CDFs
//! (`metrics`), each CPU's class hierarchy and its stopper's works (`classes`), the missed deadlines the lanes mark (`misses`); and one refresh of the lab in one call (`frame`: a JSON
//! header and typed arrays over a `FrameSource`, `frame_sim` for a
//! simulation; a recorded trace is `trace_import::replay_frame`).

pub mod classes;
pub mod dl;
pub mod eevdf;
pub mod event_args;
pub mod frame;
pub mod frame_sim;
pub mod inspector;
pub mod metrics;
pub mod misses;
pub mod rt;
pub mod topology;
pub mod tree;
pub mod view;
