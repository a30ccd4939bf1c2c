//! `cpupri` (cpupri.c): each online CPU's level, from the most urgent
//! real-time prio queued there, and the search for the CPUs running
//! something less urgent than a task. The kernel keeps the levels as
//! per-level masks updated where `highest_prio.curr` changes; here the
//! level is derived from that prio when asked (the same answer).
//!
//! Levels (`convert_prio`): −1 offline (INVALID), 1 no real-time task
//! (NORMAL: an idle CPU and one running a fair task are alike in 4.1, whose
//! `cpupri_set` is never given MAX_PRIO), 2–101 the real-time prios 99 → 0.

use crate::sched::policy::MAX_RT_PRIO;
use crate::topology::cpumask::CpuMask;

/// `CPUPRI_INVALID`, `CPUPRI_NORMAL`.
pub const INVALID: i32 = -1;
pub const NORMAL: i32 = 1;

/// `convert_prio` of a runqueue's `highest_prio.curr`.
pub fn level_of(highest_prio: u32) -> i32 {
    if highest_prio >= MAX_RT_PRIO {
        NORMAL
    } else {
        MAX_RT_PRIO as i32 - highest_prio as i32 + 1
    }
}

/// `cpupri_find`: the allowed CPUs at the lowest level below `prio`'s, if any.
/// `levels[cpu]` is each CPU's level (INVALID when offline).
pub fn find(levels: &[i32], prio: u32, allowed: &CpuMask) -> Option<CpuMask> {
    let task_level = level_of(prio);
    (0..task_level).find_map(|level| {
        let mut mask = CpuMask::new();
        for (cpu, &l) in levels.iter().enumerate() {
            if l == level && allowed.test(crate::time::CpuId(cpu as u32)) {
                mask.set(crate::time::CpuId(cpu as u32));
            }
        }
        (!mask.is_empty()).then_some(mask)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::CpuId;

    #[test]
    fn the_lowest_level_below_the_task_wins() {
        // CPU 0 runs prio 10 (rt_priority 89), CPU 1 prio 50, CPU 2 nothing real-time, CPU 3 offline.
        let levels = [level_of(10), level_of(50), level_of(MAX_RT_PRIO), INVALID];
        let all = CpuMask::from_range(0..4);
        assert_eq!(find(&levels, 40, &all).map(|m| m.iter().collect::<Vec<_>>()), Some(vec![CpuId(2)]));
        let not_2 = CpuMask::from_cpus([CpuId(0), CpuId(1), CpuId(3)]);
        assert_eq!(find(&levels, 40, &not_2).map(|m| m.iter().collect::<Vec<_>>()), Some(vec![CpuId(1)]));
        // Nothing runs below prio 10 but CPUs the task may not use: none.
        assert_eq!(find(&levels, 10, &CpuMask::from_cpus([CpuId(0)])), None);
        // Equal priority is not lower.
        assert_eq!(find(&levels, 50, &CpuMask::from_cpus([CpuId(1)])), None);
    }
}
