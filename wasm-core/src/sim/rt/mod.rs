//! The real-time class (`rt_sched_class`, rt.c and cpupri.c of Linux 4.1):
//! SCHED_FIFO and SCHED_RR at priorities 1–99 above the run's class in
//! every run that has a real-time task.
//!
//! ```text
//!   class.rs      SchedClass: enqueue/dequeue into the priority array, pick the head of the
//!                 first set bit, RR's slice at the tick, wakeup placement (select_task_rq_rt)
//!   push.rs       push_rt_task / push_rt_tasks, the pull (4.1's RT_PUSH_IPI: an overloaded CPU
//!                 is asked to push), find_lowest_rq over cpupri.rs
//!   bandwidth.rs  update_curr_rt's runtime, sched_rt_runtime_exceeded, RT_RUNTIME_SHARE's
//!                 borrowing, the period timer that refills and unthrottles
//!   rt_rq.rs      one CPU's runqueue: the array and its bitmap, pushable tasks (pure)
//!   cpupri.rs     each CPU's level and cpupri_find (pure)
//!   state.rs      RtState: the runqueues, the overload mask, the bandwidth settings
//! ```

pub mod bandwidth;
pub mod class;
pub mod cpupri;
mod push;
pub mod rt_rq;
pub mod state;

#[cfg(test)]
mod run_test;
