//! `should_we_balance` (fair.c, 6.12): which one CPU of the local group
//! balances a domain periodically. Newly idle, every CPU may (unless work
//! arrived meanwhile). Otherwise the first idle CPU of the group's balance
//! mask — above the SMT level, the first on a wholly idle core; failing
//! that, the first idle CPU beside busy siblings; failing that, the group's
//! balance CPU. 4.1 took the first idle CPU whatever its core.

use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;

/// What the choice reads of the balancing environment.
#[derive(Clone, Copy, Debug)]
pub struct BalanceEnv<'a> {
    pub dst: CpuId,
    /// `env->cpus`: the CPUs this pass may use.
    pub env_cpus: &'a CpuMask,
    /// `group_balance_mask(sd->groups)`: the local group's CPUs that may balance for it.
    pub balance_mask: &'a CpuMask,
    /// `group_balance_cpu(sd->groups)`: the first of them.
    pub group_balance_cpu: CpuId,
    /// `env->idle == CPU_NEWLY_IDLE`.
    pub newly_idle: bool,
    /// `dst_rq->nr_running > 0 || dst_rq->ttwu_pending`: work arrived while it was going idle.
    pub dst_has_work: bool,
    /// `SD_SHARE_CPUCAPACITY`: the domain's CPUs are SMT siblings.
    pub smt_domain: bool,
}

/// `should_we_balance`: whether `env.dst` is the CPU to balance this domain.
/// `idle` is `idle_cpu`; `smt_mask` is `cpu_smt_mask` (a CPU and its siblings).
pub fn should_we_balance(
    env: &BalanceEnv<'_>,
    idle: impl Fn(CpuId) -> bool,
    smt_mask: impl Fn(CpuId) -> CpuMask,
) -> bool {
    balancing_cpu(env, idle, smt_mask) == Some(env.dst)
}

/// The CPU `should_we_balance` lets balance the domain (the inspector names
/// it when it is another): None when `env.dst` may not take part at all
/// (outside the pass's CPUs, or newly idle with work already back).
pub fn balancing_cpu(
    env: &BalanceEnv<'_>,
    idle: impl Fn(CpuId) -> bool,
    smt_mask: impl Fn(CpuId) -> CpuMask,
) -> Option<CpuId> {
    if !env.env_cpus.test(env.dst) {
        return None;
    }
    if env.newly_idle {
        return (!env.dst_has_work).then_some(env.dst);
    }
    // is_core_idle: every other thread of the core is idle.
    let core_idle = |cpu: CpuId| smt_mask(cpu).iter().all(|s| s == cpu || idle(s));
    let mut candidates = env.balance_mask.clone();
    let mut idle_smt = None;
    for cpu in env.balance_mask.iter() {
        // The mask shrinks as busy cores are passed over: re-read it.
        if !candidates.test(cpu) || !env.env_cpus.test(cpu) || !idle(cpu) {
            continue;
        }
        if !env.smt_domain && !core_idle(cpu) {
            idle_smt.get_or_insert(cpu);
            // One idle thread of a busy core is enough to remember; its siblings need no look.
            candidates = candidates.and_not(&smt_mask(cpu));
            continue;
        }
        return Some(cpu);
    }
    Some(idle_smt.unwrap_or(env.group_balance_cpu))
}

#[cfg(test)]
mod tests {
    //! Worked by hand from `should_we_balance` (fair.c): four CPUs, cores {0, 1} and {2, 3}.
    use super::*;

    fn smt(cpu: CpuId) -> CpuMask {
        let first = cpu.0 / 2 * 2;
        CpuMask::from_range(first..first + 2)
    }

    fn mc(dst: u32, all: &CpuMask) -> BalanceEnv<'_> {
        BalanceEnv {
            dst: CpuId(dst),
            env_cpus: all,
            balance_mask: all,
            group_balance_cpu: CpuId(0),
            newly_idle: false,
            dst_has_work: false,
            smt_domain: false,
        }
    }

    #[test]
    fn above_smt_the_first_cpu_of_an_idle_core_balances() {
        let all = CpuMask::from_range(0..4);
        // CPU 0 busy, 1 idle (its core busy: remembered), 2 and 3 idle (an idle core): CPU 2.
        let idle = |c: CpuId| c.0 != 0;
        assert!(should_we_balance(&mc(2, &all), idle, smt));
        assert!(!should_we_balance(&mc(1, &all), idle, smt), "4.1 would pick CPU 1, the first idle");
        // At the SMT level the first idle CPU balances, whatever its core.
        let smt_env = BalanceEnv { smt_domain: true, ..mc(1, &all) };
        assert!(should_we_balance(&smt_env, idle, smt));
    }

    #[test]
    fn without_an_idle_core_the_first_idle_thread_then_the_balance_cpu() {
        let all = CpuMask::from_range(0..4);
        // CPUs 0 and 2 busy, 1 and 3 idle: no idle core; the first idle thread, CPU 1.
        let idle = |c: CpuId| c.0 % 2 == 1;
        assert!(should_we_balance(&mc(1, &all), idle, smt));
        assert!(!should_we_balance(&mc(3, &all), idle, smt));
        assert_eq!(balancing_cpu(&mc(3, &all), idle, smt), Some(CpuId(1)), "CPU 3 is told CPU 1 balances");
        // Nothing idle: the group's balance CPU.
        let busy = |_: CpuId| false;
        assert!(should_we_balance(&mc(0, &all), busy, smt));
        assert!(!should_we_balance(&mc(2, &all), busy, smt));
    }

    #[test]
    fn newly_idle_every_cpu_may_unless_work_arrived() {
        let all = CpuMask::from_range(0..4);
        let idle = |_: CpuId| true;
        assert!(should_we_balance(&BalanceEnv { newly_idle: true, ..mc(3, &all) }, idle, smt));
        let woken = BalanceEnv { newly_idle: true, dst_has_work: true, ..mc(3, &all) };
        assert!(!should_we_balance(&woken, idle, smt));
        // A destination outside the pass's CPUs (hotplug under way): never.
        let some = CpuMask::from_range(0..2);
        assert!(!should_we_balance(&BalanceEnv { env_cpus: &some, ..mc(3, &all) }, idle, smt));
    }
}
