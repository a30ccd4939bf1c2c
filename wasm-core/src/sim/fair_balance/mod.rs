//! The fair class's balancer, Linux 4.1's, over the machine state: periodic
//! balancing from the tick, newly-idle balancing, the NOHZ idle balancer, the
//! stopper's push, and wakeup and fork placement. The fair class reaches it
//! through `SchedClass::balance` and `select_task_rq`; the pure parts it
//! drives — group statistics, the busiest-group search, decision and
//! placement records — are in `balance`, the counters in
//! `topology::schedstat`.
//!
//! ```text
//!   tick ─► trigger_load_balance ─► rebalance_domains ─► load_balance(sd)   (load_balance.rs)
//!   about to idle ─► idle_balance                                          (idle_balance.rs)
//!   busy tick ─► nohz kick ─► nohz_idle_balance for the idle CPUs           (nohz.rs)
//!   load_balance failing ─► stopper ─► active_load_balance_cpu_stop         (active_balance.rs)
//!   wakeup / fork ─► select_task_rq_fair                                    (placement.rs)
//! ```

mod active_balance;
mod idle_balance;
mod load_balance;
mod nohz;
mod placement;
