//! Linux 6.12's `sched_balance_find_dst_group_cpu` (fair.c 7546–7601): the
//! CPU a forked or exec'ing task goes to inside the group the slow path
//! chose. A CPU busy only with SCHED_IDLE tasks is taken at once; else the
//! idle CPU in the shallowest idle state, or with equal states (or none, as
//! without cpuidle) the one that went idle last, its cache the warmest; else
//! the least loaded allowed CPU (`this_cpu` if none is allowed).
//!
//! The model's CPUs have no cpuidle states (`idle_get_state` is NULL), so
//! an idle CPU is chosen by its `idle_stamp` alone; an exit latency can be
//! given for a machine that has them.

use crate::time::CpuId;

/// One CPU of the group, as the search reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DstCandidate {
    pub cpu: CpuId,
    /// In the task's allowed mask.
    pub allowed: bool,
    /// `sched_idle_cpu`: busy only with SCHED_IDLE tasks.
    pub sched_idle: bool,
    /// `available_idle_cpu`.
    pub idle: bool,
    /// The idle state's exit latency, if the CPU has cpuidle states.
    pub exit_latency: Option<u32>,
    /// `rq->idle_stamp`: when it went idle (0 if it did not).
    pub idle_stamp: u64,
    /// `cpu_load`: the root runqueue's PELT load average.
    pub load: u64,
}

/// `sched_balance_find_dst_group_cpu` over the group's CPUs in mask order.
pub fn find_dst_group_cpu(group: &[DstCandidate], this_cpu: CpuId) -> CpuId {
    if group.len() == 1 {
        return group[0].cpu;
    }
    let mut min_load = u64::MAX;
    let mut min_exit_latency = u32::MAX;
    let mut latest_idle_timestamp = 0;
    let mut least_loaded = this_cpu;
    let mut shallowest_idle: Option<CpuId> = None;
    for c in group.iter().filter(|c| c.allowed) {
        if c.sched_idle {
            return c.cpu;
        }
        if c.idle {
            match c.exit_latency {
                Some(lat) if lat < min_exit_latency => {
                    min_exit_latency = lat;
                    latest_idle_timestamp = c.idle_stamp;
                    shallowest_idle = Some(c.cpu);
                }
                lat if (lat.is_none() || lat == Some(min_exit_latency)) && c.idle_stamp > latest_idle_timestamp => {
                    latest_idle_timestamp = c.idle_stamp;
                    shallowest_idle = Some(c.cpu);
                }
                _ => {}
            }
        } else if shallowest_idle.is_none() && c.load < min_load {
            min_load = c.load;
            least_loaded = c.cpu;
        }
    }
    shallowest_idle.unwrap_or(least_loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn busy(cpu: u32, load: u64) -> DstCandidate {
        DstCandidate {
            cpu: CpuId(cpu),
            allowed: true,
            sched_idle: false,
            idle: false,
            exit_latency: None,
            idle_stamp: 0,
            load,
        }
    }

    fn idle(cpu: u32, stamp: u64) -> DstCandidate {
        DstCandidate { idle: true, idle_stamp: stamp, ..busy(cpu, 0) }
    }

    // Hand-worked against fair.c 7546–7601.
    #[test]
    fn an_idle_cpu_that_went_idle_last_wins_without_cpuidle() {
        // CPUs 4..7: 4 busy (load 300), 5 idle since 1000, 6 idle since 3000, 7 idle since 2000: 6.
        let g = [busy(4, 300), idle(5, 1000), idle(6, 3000), idle(7, 2000)];
        assert_eq!(find_dst_group_cpu(&g, CpuId(0)), CpuId(6));
        // An idle CPU the task may not use is passed over: 7.
        let g = [busy(4, 300), idle(5, 1000), DstCandidate { allowed: false, ..idle(6, 3000) }, idle(7, 2000)];
        assert_eq!(find_dst_group_cpu(&g, CpuId(0)), CpuId(7));
    }

    #[test]
    fn the_shallowest_idle_state_comes_before_the_latest_stamp() {
        // 5 in a deep state (latency 100) that went idle last; 6 in a shallow one (10): 6. Then 7, equal
        // latency 10 and a later stamp than 6's: 7.
        let deep = DstCandidate { exit_latency: Some(100), ..idle(5, 9000) };
        let shallow = DstCandidate { exit_latency: Some(10), ..idle(6, 1000) };
        let later = DstCandidate { exit_latency: Some(10), ..idle(7, 2000) };
        assert_eq!(find_dst_group_cpu(&[deep, shallow], CpuId(0)), CpuId(6));
        assert_eq!(find_dst_group_cpu(&[deep, shallow, later], CpuId(0)), CpuId(7));
    }

    #[test]
    fn without_an_idle_cpu_the_least_loaded_allowed_one_else_this_cpu() {
        // Loads 700, 200, 500: 5. The first of equal loads is kept (strictly less replaces).
        assert_eq!(find_dst_group_cpu(&[busy(4, 700), busy(5, 200), busy(6, 500)], CpuId(0)), CpuId(5));
        assert_eq!(find_dst_group_cpu(&[busy(4, 200), busy(5, 200)], CpuId(0)), CpuId(4));
        // None allowed: this_cpu.
        let none = [DstCandidate { allowed: false, ..busy(4, 1) }, DstCandidate { allowed: false, ..busy(5, 1) }];
        assert_eq!(find_dst_group_cpu(&none, CpuId(2)), CpuId(2));
    }

    #[test]
    fn a_sched_idle_cpu_is_taken_at_once_and_a_lone_cpu_is_the_answer() {
        let g = [idle(4, 5000), DstCandidate { sched_idle: true, ..busy(5, 900) }, idle(6, 9000)];
        assert_eq!(find_dst_group_cpu(&g, CpuId(0)), CpuId(5));
        assert_eq!(find_dst_group_cpu(&[busy(9, 1000)], CpuId(0)), CpuId(9));
    }
}
