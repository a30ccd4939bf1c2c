//! The deadline class (`dl_sched_class`, deadline.c and cpudeadline.c of
//! Linux 4.1): SCHED_DEADLINE tasks above the real-time class, each a
//! constant bandwidth server run by earliest deadline first.
//!
//! ```text
//!   class.rs   SchedClass: enqueue by deadline, pick the leftmost, charge and throttle
//!              (update_curr_dl), the replenishment timers, placement (select_task_rq_dl)
//!   push.rs    global EDF: find_later_rq over cpudl, push_dl_task, pull_dl_task
//!   cbs.rs     one server: setup, the wakeup rule, charge, replenish, misses (pure)
//!   dl_rq.rs   one CPU's queue by deadline, pushable tasks, overload (pure)
//!   state.rs   DlState: the queues, the servers, dlo_mask, the timers
//!   server.rs  Linux 6.12's fair server: one deferred deadline entity per CPU serving the fair class (pure)
//!   server_hooks.rs  the fair server driven: start, charge, timer, the EDF pick, stop
//!   grub.rs    6.12's GRUB: each CPU's running and reserved bandwidth, the 0-lag inactive timer, reclaiming
//! ```
//!
//! Under Linux 6.12 the class also holds each CPU's fair server (`server.rs`), picked by EDF beside the
//! deadline tasks; when it wins, the fair class's pick runs.
//! Admission control is the scenario's (`api/scenario/validate/deadline.rs`).

pub mod cbs;
pub mod class;
pub mod dl_rq;
pub mod grub;
mod push;
pub mod server;
mod server_hooks;
pub mod state;

#[cfg(test)]
mod run_test;
