//! Linux 6.12's `detach_tasks` (fair.c 9616–9735): which of the busiest
//! runqueue's tasks a balancing pass takes, counted in the pass's migration
//! type (`imbalance.rs`). The runqueue's `cfs_tasks` list is walked from its
//! tail; a task that cannot or should not go is moved to the head, so the
//! walk meets each task at most once per pass (`loop_max`).
//!
//! ```text
//!   migrate_load   task_h_load (at least 1), skipped while load >> nr_balance_failed > imbalance
//!   migrate_util   task_util_est, the same test
//!   migrate_task   one task each
//!   migrate_misfit a task that does not fit the source CPU, then done
//! ```
//!
//! What makes a task movable (`can_migrate_task`: affinity, running,
//! cache-hot, NUMA preference) is the caller's: it is asked in walk order,
//! as the kernel asks it, so its side effects (the pinned flags) come in the
//! same order.

use super::imbalance::MigrationType;
use crate::topology::schedstat::IdleType;

/// `SCHED_NR_MIGRATE_BREAK` without PREEMPT_RT (sched.h 2837–2841): tasks
/// looked at before the pass takes a breather.
pub const NR_MIGRATE_BREAK: u32 = 32;

/// One task of the source runqueue, as `detach_tasks` weighs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub pid: u32,
    /// `task_h_load`: its load as seen from the root.
    pub h_load: u64,
    /// `task_util_est`.
    pub util_est: u64,
    /// `task_fits_cpu(p, src_cpu)` (always, on a machine of one capacity).
    pub fits_src_cpu: bool,
}

/// `struct lb_env`'s part that `detach_tasks` reads and writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DetachEnv {
    pub idle: IdleType,
    pub migration_type: MigrationType,
    pub imbalance: i64,
    /// The domain's `nr_balance_failed`: each failure halves what a task may weigh against the imbalance.
    pub nr_balance_failed: u32,
    pub loop_count: u32,
    pub loop_max: u32,
    pub loop_break: u32,
    /// LBF_NEED_BREAK: the walk stopped for a breather and resumes.
    pub need_break: bool,
    /// CONFIG_PREEMPTION: a newly idle pass stops after one task (Debian's kernel is built with it).
    pub preemption: bool,
    /// The LB_MIN feature (off in 6.12).
    pub lb_min: bool,
}

impl DetachEnv {
    /// The environment `sched_balance_rq` starts a pass with against a source
    /// runqueue of `src_nr_running` tasks (fair.c 11811, 11856).
    pub fn new(
        idle: IdleType,
        migration_type: MigrationType,
        imbalance: i64,
        nr_balance_failed: u32,
        src_nr_running: u32,
    ) -> Self {
        DetachEnv {
            idle,
            migration_type,
            imbalance,
            nr_balance_failed,
            loop_count: 0,
            loop_max: NR_MIGRATE_BREAK.min(src_nr_running),
            loop_break: NR_MIGRATE_BREAK,
            need_break: false,
            preemption: true,
            lb_min: false,
        }
    }
}

/// `shr_bound`: `val >> shift`, the shift capped below the width.
fn shr_bound(val: u64, shift: u32) -> u64 {
    val >> shift.min(63)
}

/// What `detach_tasks` asks its caller about a task, in walk order.
pub enum Probe<'a> {
    /// `can_migrate_task`: whether the task may move. If it may, the caller
    /// fills in what the pass weighs it by (its h_load, its util_est), read
    /// now as the kernel reads them, after the earlier detaches.
    CanMigrate(&'a mut Candidate),
    /// `detach_task`: the task is taken; the caller takes it off its
    /// runqueue now, so that the next task is weighed against what is left.
    Detach(&'a Candidate),
}

/// `detach_tasks`: the tasks taken from `cfs_tasks` (head first; the walk
/// starts at the tail), in the order taken. `src_nr_running` is the source
/// runqueue's count, which each detach lowers; skipped tasks move to the head.
pub fn detach_tasks(
    env: &mut DetachEnv,
    cfs_tasks: &mut Vec<Candidate>,
    mut src_nr_running: u32,
    mut probe: impl FnMut(Probe<'_>) -> bool,
) -> Vec<Candidate> {
    let mut detached = Vec::new();
    if src_nr_running <= 1 || env.imbalance <= 0 {
        return detached;
    }
    while let Some(&last) = cfs_tasks.last() {
        let mut p = last;
        // The balancing CPU, if idle, leaves the source one task (`env->idle` is CPU_IDLE or CPU_NEWLY_IDLE).
        if env.idle != IdleType::NotIdle && src_nr_running <= 1 {
            break;
        }
        env.loop_count += 1;
        if env.loop_count > env.loop_max {
            break;
        }
        if env.loop_count > env.loop_break {
            env.loop_break += NR_MIGRATE_BREAK;
            env.need_break = true;
            break;
        }
        if probe(Probe::CanMigrate(&mut p)) && takes(env, &p) {
            cfs_tasks.pop();
            probe(Probe::Detach(&p));
            detached.push(p);
            src_nr_running -= 1;
            if env.preemption && env.idle == IdleType::NewlyIdle {
                break;
            }
            if env.imbalance <= 0 {
                break;
            }
        } else {
            // list_move to the head: the next walk step sees the task before it.
            cfs_tasks.pop();
            cfs_tasks.insert(0, last);
        }
    }
    detached
}

/// Whether `p` is taken for the pass's migration type, and the imbalance it takes away.
fn takes(env: &mut DetachEnv, p: &Candidate) -> bool {
    // An imbalance still to take is positive here, so the kernel's unsigned comparison is this one.
    let left = env.imbalance as u64;
    match env.migration_type {
        MigrationType::Load => {
            let load = p.h_load.max(1);
            if env.lb_min && load < 16 && env.nr_balance_failed == 0 {
                return false;
            }
            if shr_bound(load, env.nr_balance_failed) > left {
                return false;
            }
            env.imbalance -= load as i64;
        }
        MigrationType::Util => {
            if shr_bound(p.util_est, env.nr_balance_failed) > left {
                return false;
            }
            env.imbalance -= p.util_est as i64;
        }
        MigrationType::Task => env.imbalance -= 1,
        MigrationType::Misfit => {
            if p.fits_src_cpu {
                return false;
            }
            env.imbalance = 0;
        }
    }
    true
}

#[cfg(test)]
#[path = "detach_test.rs"]
mod detach_test;
