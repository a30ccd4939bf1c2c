//! GRUB, Linux 6.12's bandwidth reclaiming (deadline.c 245–515 and
//! 1384–1452): each CPU counts the bandwidth of the deadline entities it holds
//! (`this_bw`) and of those active on it (`running_bw`: runnable, or blocked
//! but not yet past their "0-lag time", after which they could not have used
//! their runtime anyway), and the bandwidth admission leaves unreserved
//! (`extra_bw`). A task with SCHED_FLAG_RECLAIM is charged its run time scaled
//! by what is active (`grub_reclaim`), so its runtime lasts as long as the
//! bandwidth that nobody uses allows. 4.1 has none of this (it came in 4.13).
//!
//! Pure bookkeeping over one entity and the CPUs' counts; `class.rs` calls it
//! at the kernel's points. The fair servers take part as the tasks do.

use super::cbs::DlEntity;
use crate::sched::policy::{to_ratio, BW_SHIFT, RT_PERIOD_NS, RT_RUNTIME_NS};

/// `RATIO_SHIFT`: `bw_ratio` is 1 / Umax in units of 2^-8.
const RATIO_SHIFT: u32 = 8;

/// One CPU's deadline bandwidths (`struct dl_rq`'s), in units of 2^-20.
#[derive(Clone, Debug)]
pub struct DlRqBw {
    pub running_bw: u64,
    pub this_bw: u64,
    /// What admission leaves unreserved, each reservation's share taken from every CPU (`__dl_update`).
    pub extra_bw: u64,
    /// Umax: the real-time share of a CPU (`sched_rt_runtime_us / sched_rt_period_us`).
    pub max_bw: u64,
    /// 1 / Umax.
    pub bw_ratio: u64,
}

impl DlRqBw {
    /// `init_dl_rq` with `init_dl_rq_bw_ratio` (3431–3442).
    pub fn new() -> DlRqBw {
        let max_bw = to_ratio(RT_PERIOD_NS, RT_RUNTIME_NS);
        DlRqBw {
            running_bw: 0,
            this_bw: 0,
            extra_bw: max_bw,
            max_bw,
            bw_ratio: to_ratio(RT_RUNTIME_NS, RT_PERIOD_NS) >> (BW_SHIFT - RATIO_SHIFT),
        }
    }

    /// `grub_reclaim` (1431–1446): `delta` scaled by the active utilisation, at least the task's own.
    pub fn grub_reclaim(&self, delta: u64, dl_bw: u64) -> u64 {
        let u_inact = self.this_bw.saturating_sub(self.running_bw);
        let u_act = if u_inact + self.extra_bw > self.max_bw.saturating_sub(dl_bw) {
            dl_bw
        } else {
            self.max_bw - u_inact - self.extra_bw
        };
        let u_act = (u_act * self.bw_ratio) >> RATIO_SHIFT;
        ((u128::from(delta) * u128::from(u_act)) >> BW_SHIFT) as u64
    }
}

impl Default for DlRqBw {
    fn default() -> Self {
        DlRqBw::new()
    }
}

/// `__dl_add` / `__dl_sub` (225–237): a reservation admitted (`add`) or released takes its share from (gives
/// it back to) the unreserved bandwidth of every CPU of the root domain.
pub fn admit(bws: &mut [DlRqBw], online: impl Iterator<Item = usize> + Clone, bw: u64, add: bool) {
    let n = online.clone().count().max(1) as u64;
    for c in online {
        let e = &mut bws[c].extra_bw;
        *e = if add { e.saturating_sub(bw / n) } else { *e + bw / n };
    }
}

/// The entity's bandwidth counted on `cpu` (`add_rq_bw`), moving it, and its active bandwidth, from the CPU it
/// was counted on (a migration: `migrate_task_rq_dl`, or DEQUEUE/ENQUEUE_MIGRATING).
pub fn attach(e: &mut DlEntity, bws: &mut [DlRqBw], cpu: usize) {
    if e.grub.attached == Some(cpu) {
        return;
    }
    let bw = e.params.bw();
    if let Some(old) = e.grub.attached {
        bws[old].this_bw -= bw;
        if e.grub.contending {
            bws[old].running_bw -= bw;
        }
    }
    bws[cpu].this_bw += bw;
    if e.grub.contending {
        bws[cpu].running_bw += bw;
    }
    e.grub.attached = Some(cpu);
}

/// `task_contending` (475–512), at an enqueue: active again, its pending inactive timer cancelled.
pub fn contend(e: &mut DlEntity, bws: &mut [DlRqBw], cpu: usize) {
    attach(e, bws, cpu);
    if e.grub.non_contending {
        e.grub.non_contending = false;
        e.grub.inactive_at = None;
    } else if !e.grub.contending {
        e.grub.contending = true;
        bws[cpu].running_bw += e.params.bw();
    }
}

/// `task_non_contending` (411–470), at a block: active until its 0-lag time, deadline − runtime · period /
/// dl_runtime; one already past leaves the active bandwidth now. Returns the inactive timer's instant.
pub fn stop_contending(e: &mut DlEntity, bws: &mut [DlRqBw], now: u64) -> Option<u64> {
    if !e.grub.contending || e.grub.non_contending {
        return None;
    }
    let p = e.params;
    let zerolag = i128::from(e.deadline) - i128::from(e.runtime) * i128::from(p.period_ns) / i128::from(p.runtime_ns);
    if zerolag < i128::from(now) {
        e.grub.contending = false;
        if let Some(c) = e.grub.attached {
            bws[c].running_bw -= p.bw();
        }
        return None;
    }
    e.grub.non_contending = true;
    e.grub.inactive_at = Some(zerolag as u64);
    e.grub.inactive_at
}

/// `inactive_task_timer` (1960–2020): the 0-lag time came with the entity still asleep.
pub fn inactive_timer(e: &mut DlEntity, bws: &mut [DlRqBw]) {
    if !e.grub.non_contending {
        return;
    }
    e.grub.non_contending = false;
    e.grub.contending = false;
    e.grub.inactive_at = None;
    if let Some(c) = e.grub.attached {
        bws[c].running_bw -= e.params.bw();
    }
}

/// The entity leaves the class or dies: its bandwidth leaves its CPU's counts.
pub fn detach(e: &mut DlEntity, bws: &mut [DlRqBw]) {
    let bw = e.params.bw();
    if let Some(c) = e.grub.attached.take() {
        if e.grub.contending {
            bws[c].running_bw -= bw;
        }
        bws[c].this_bw -= bw;
    }
    e.grub = GrubState::default();
}

/// An entity's place in GRUB's counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct GrubState {
    /// The CPU whose `this_bw` counts it.
    pub attached: Option<usize>,
    /// In that CPU's `running_bw` (runnable, or blocked before its 0-lag time).
    pub contending: bool,
    /// Blocked before its 0-lag time (`dl_non_contending`): the inactive timer is armed.
    pub non_contending: bool,
    pub inactive_at: Option<u64>,
    /// Dead while non-contending: the inactive timer also releases its bandwidth.
    pub dead: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One CPU, a reclaiming task of 10 % and the fair server's 5 %, both active: nothing inactive, 80 %
    /// unreserved, so it is charged (95 − 80) % / 95 % ≈ 15.8 % of its run time.
    #[test]
    fn a_reclaiming_task_is_charged_the_active_share_over_umax() {
        let mut b = DlRqBw::new();
        let (task, server) = (to_ratio(100, 10), to_ratio(1000, 50));
        b.extra_bw -= task + server;
        b.this_bw = task + server;
        b.running_bw = task + server;
        let charged = b.grub_reclaim(1_000_000, task);
        assert!((157_000..=158_500).contains(&charged), "{charged}");
    }
}
