//! Linux 6.12's `select_idle_sibling` (fair.c 7937–8062) and the scans it
//! calls: the idle CPU a waking task is placed on within the target's LLC.
//! In order: the target, the previous CPU, the task's recently used CPU, an
//! idle SMT sibling of the previous CPU, then a scan of the LLC — for a
//! wholly idle core while the LLC's `has_idle_cores` hint is set
//! (`select_idle_core`), else for any idle CPU, the scan's length cut by
//! SIS_UTIL's `nr_idle_scan` (`select_idle_cpu`). The scans start after the
//! target and wrap around (`for_each_cpu_wrap`).
//!
//! ```text
//!   target idle ─► target
//!   prev idle, same LLC ─► prev
//!   recent_used_cpu idle, same LLC, allowed ─► it           (recent_used_cpu := prev)
//!   SMT, no idle core known, prev in the LLC ─► an idle sibling of prev
//!   scan the LLC from target + 1 ─► an idle core's first CPU | an idle CPU | none ─► target
//! ```
//!
//! Not modelled (the model's machines have none of them): asymmetric
//! capacity (`select_idle_capacity`, `asym_fits_cpu` always true), clusters
//! (`sched_cluster_active` off), core scheduling cookies (always match), and
//! the per-CPU kthread stacking rule (the model has no kthreads).

use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;

/// What the placement reads of the machine at the wakeup.
#[derive(Clone, Debug)]
pub struct IdleView<'a> {
    /// `available_idle_cpu`: idle, with no wakeup already on its way.
    pub idle: &'a CpuMask,
    /// `sched_idle_cpu`: busy only with SCHED_IDLE tasks.
    pub sched_idle: &'a CpuMask,
    /// Each CPU's `cpu_smt_mask` (itself included), by CPU.
    pub smt: &'a [CpuMask],
    /// Each CPU's LLC, by CPU (`cpus_share_cache` compares them).
    pub llc_id: &'a [u32],
    /// The span of the target's `sd_llc` (None: no LLC domain).
    pub llc_span: Option<&'a CpuMask>,
    /// `sched_smt_active`: some core has more than one thread online.
    pub smt_active: bool,
    /// SIS_UTIL (on in 6.12).
    pub sis_util: bool,
}

/// The target LLC's `sched_domain_shared` as the placement reads and writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LlcShared {
    /// `has_idle_cores`: set when a core was seen wholly idle, cleared by a scan that found none.
    pub has_idle_cores: bool,
    /// SIS_UTIL's budget: how many CPUs a scan may look at (`update_idle_cpu_scan`).
    pub nr_idle_scan: u32,
}

impl IdleView<'_> {
    fn idle_or_sched_idle(&self, cpu: CpuId) -> bool {
        self.idle.test(cpu) || self.sched_idle.test(cpu)
    }

    fn share_cache(&self, a: CpuId, b: CpuId) -> bool {
        self.llc_id[a.idx()] == self.llc_id[b.idx()]
    }
}

/// The CPUs of `mask` from `start` upwards, then from 0 (`for_each_cpu_wrap`), as positions to re-test.
fn wrap_order(mask: &CpuMask, start: u32) -> Vec<CpuId> {
    let (mut high, low): (Vec<CpuId>, Vec<CpuId>) = mask.iter().partition(|c| c.0 >= start);
    high.extend(low);
    high
}

/// `select_idle_core`: `core` if every thread of it is idle; else its threads
/// leave `cpus`, and the first idle (or SCHED_IDLE) allowed thread seen is
/// kept in `idle_cpu` for a scan that finds no idle core.
fn select_idle_core(
    view: &IdleView<'_>,
    core: CpuId,
    cpus: &mut CpuMask,
    idle_cpu: &mut Option<CpuId>,
) -> Option<CpuId> {
    let mut idle = true;
    for cpu in view.smt[core.idx()].iter() {
        if !view.idle.test(cpu) {
            idle = false;
            if idle_cpu.is_none() {
                if view.sched_idle.test(cpu) && cpus.test(cpu) {
                    *idle_cpu = Some(cpu);
                    break;
                }
                continue;
            }
            break;
        }
        if idle_cpu.is_none() && cpus.test(cpu) {
            *idle_cpu = Some(cpu);
        }
    }
    if idle {
        return Some(core);
    }
    *cpus = cpus.and_not(&view.smt[core.idx()]);
    None
}

/// `select_idle_smt`: an idle allowed sibling of `target` inside the LLC.
fn select_idle_smt(view: &IdleView<'_>, llc: &CpuMask, allowed: &CpuMask, target: CpuId) -> Option<CpuId> {
    view.smt[target.idx()]
        .iter_and(allowed)
        .filter(|&c| c != target && llc.test(c))
        .find(|&c| view.idle_or_sched_idle(c))
}

/// `select_idle_cpu`: scan the LLC's allowed CPUs after `target`.
fn select_idle_cpu(
    view: &IdleView<'_>,
    shared: &mut LlcShared,
    llc: &CpuMask,
    allowed: &CpuMask,
    has_idle_core: bool,
    target: CpuId,
) -> Option<CpuId> {
    let mut cpus = llc.clone();
    cpus.and_with(allowed);
    let mut nr = i64::MAX;
    if view.sis_util {
        // One more than the budget, because the scan stops at `--nr <= 0`.
        nr = i64::from(shared.nr_idle_scan) + 1;
        if nr == 1 {
            return None;
        }
    }
    let mut idle_cpu = None;
    for cpu in wrap_order(&cpus, target.0 + 1) {
        if !cpus.test(cpu) {
            continue; // a thread of a core already found busy
        }
        if has_idle_core {
            if let Some(core) = select_idle_core(view, cpu, &mut cpus, &mut idle_cpu) {
                return Some(core);
            }
        } else {
            nr -= 1;
            if nr <= 0 {
                return None;
            }
            if view.idle_or_sched_idle(cpu) {
                idle_cpu = Some(cpu);
                break;
            }
        }
    }
    if has_idle_core {
        shared.has_idle_cores = false;
    }
    idle_cpu
}

/// `select_idle_sibling`: the CPU a task woken towards `target` (it last ran
/// on `prev`) is placed on. `recent_used_cpu` is the task's, updated here.
pub fn select_idle_sibling(
    view: &IdleView<'_>,
    shared: &mut LlcShared,
    allowed: &CpuMask,
    recent_used_cpu: &mut CpuId,
    prev: CpuId,
    target: CpuId,
) -> CpuId {
    if view.idle_or_sched_idle(target) {
        return target;
    }
    if prev != target && view.share_cache(prev, target) && view.idle_or_sched_idle(prev) {
        return prev;
    }
    let recent = std::mem::replace(recent_used_cpu, prev);
    if recent != prev
        && recent != target
        && view.share_cache(recent, target)
        && view.idle_or_sched_idle(recent)
        && allowed.test(recent)
    {
        return recent;
    }
    let Some(llc) = view.llc_span else { return target };
    let mut has_idle_core = false;
    if view.smt_active {
        has_idle_core = shared.has_idle_cores;
        if !has_idle_core && view.share_cache(prev, target) {
            if let Some(cpu) = select_idle_smt(view, llc, allowed, prev) {
                return cpu;
            }
        }
    }
    select_idle_cpu(view, shared, llc, allowed, has_idle_core, target).unwrap_or(target)
}

#[cfg(test)]
#[path = "idle_sibling_test.rs"]
mod idle_sibling_test;
