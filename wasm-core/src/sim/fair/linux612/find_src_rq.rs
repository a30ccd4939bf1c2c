//! `sched_balance_find_src_rq` (fair.c, 6.12): within the busiest group,
//! the runqueue to pull from, chosen by the migration type's own measure —
//! load per capacity, utilization, queued fair tasks, or the biggest misfit.
//!
//! NUMA balancing's runqueue classes (`fbq_classify_rq`) do not filter
//! here: the model has no NUMA faults, so every task is "regular" and no
//! runqueue is passed over for holding well-placed NUMA tasks. Asymmetric
//! capacity and CPU priorities are not modelled either, so their two skips
//! never apply, nor does `check_cpu_capacity` (no capacity pressure).

use super::imbalance::MigrationType;

/// What the search reads of one runqueue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RqSample {
    /// `rq->cfs.h_nr_queued`.
    pub h_nr_queued: u32,
    /// `cpu_load`.
    pub load: u64,
    /// `cpu_util_cfs_boost`.
    pub util: u64,
    /// `capacity_of`.
    pub capacity: u64,
    /// `rq->misfit_task_load`.
    pub misfit_task_load: u64,
}

/// The index in `rqs` of the runqueue to pull from, if any has a fair task
/// the migration type can use. Ties keep the first, as the kernel's strict
/// comparisons do.
pub fn find_src_rq(rqs: &[RqSample], migration: MigrationType, imbalance: u64) -> Option<usize> {
    let mut busiest = None;
    let (mut busiest_load, mut busiest_capacity, mut busiest_util, mut busiest_nr) = (0u64, 1u64, 0u64, 0u32);
    for (i, rq) in rqs.iter().enumerate() {
        let nr = rq.h_nr_queued;
        if nr == 0 {
            continue;
        }
        match migration {
            MigrationType::Load => {
                // A lone task heavier than the imbalance would overshoot it.
                if nr == 1 && rq.load > imbalance {
                    continue;
                }
                // The highest load per capacity, compared crosswise.
                if rq.load * busiest_capacity > busiest_load * rq.capacity {
                    (busiest_load, busiest_capacity, busiest) = (rq.load, rq.capacity, Some(i));
                }
            }
            MigrationType::Util => {
                // A lone running task cannot be detached, whatever its utilization.
                if nr > 1 && busiest_util < rq.util {
                    (busiest_util, busiest) = (rq.util, Some(i));
                }
            }
            MigrationType::Task => {
                if busiest_nr < nr {
                    (busiest_nr, busiest) = (nr, Some(i));
                }
            }
            MigrationType::Misfit => {
                if rq.misfit_task_load > busiest_load {
                    (busiest_load, busiest) = (rq.misfit_task_load, Some(i));
                }
            }
        }
    }
    busiest
}

#[cfg(test)]
mod tests {
    //! Worked by hand from `sched_balance_find_src_rq` (fair.c).
    use super::*;

    fn rq(h_nr_queued: u32, load: u64, util: u64, capacity: u64) -> RqSample {
        RqSample { h_nr_queued, load, util, capacity, misfit_task_load: 0 }
    }

    #[test]
    fn load_is_compared_per_capacity_and_a_lone_heavy_task_is_left() {
        // Imbalance 1000: CPU 0's lone task (2048) would overshoot it, skipped; CPU 1: 1536 · 1 > 0 · 1024;
        // CPU 2: 3072 · 1024 > 1536 · 1024: CPU 2.
        let rqs = [rq(1, 2048, 0, 1024), rq(2, 1536, 0, 1024), rq(3, 3072, 0, 1024)];
        assert_eq!(find_src_rq(&rqs, MigrationType::Load, 1000), Some(2));
        // Per capacity: 1400 on 512 of capacity beats 1500 on 1024 (1400 · 1024 > 1500 · 512).
        let rqs = [rq(2, 1500, 0, 1024), rq(2, 1400, 0, 512)];
        assert_eq!(find_src_rq(&rqs, MigrationType::Load, 5000), Some(1));
        // Nothing queued anywhere: none.
        assert_eq!(find_src_rq(&[rq(0, 0, 0, 1024)], MigrationType::Load, 5000), None);
    }

    #[test]
    fn util_skips_a_lone_task_and_tasks_count_queued_ones() {
        // CPU 0 runs one task at util 900 (cannot be detached); CPU 1 two at 700: CPU 1.
        let rqs = [rq(1, 0, 900, 1024), rq(2, 0, 700, 1024)];
        assert_eq!(find_src_rq(&rqs, MigrationType::Util, 0), Some(1));
        // Most queued fair tasks; the first of equals stays.
        let rqs = [rq(2, 0, 0, 1024), rq(3, 0, 0, 1024), rq(3, 0, 0, 1024)];
        assert_eq!(find_src_rq(&rqs, MigrationType::Task, 0), Some(1));
    }

    #[test]
    fn misfit_seeks_the_biggest_misfit_task() {
        let mut rqs = [rq(1, 0, 0, 1024), rq(1, 0, 0, 1024)];
        rqs[1].misfit_task_load = 600;
        assert_eq!(find_src_rq(&rqs, MigrationType::Misfit, 0), Some(1));
    }
}
