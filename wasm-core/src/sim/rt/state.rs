//! The real-time class's state: one `RtRq` per CPU, the root domain's
//! overload mask (`rd->rto_mask`) and the bandwidth (`def_rt_bandwidth`:
//! `sched_rt_period_us`, `sched_rt_runtime_us`, and its period timer).

use super::rt_rq::RtRq;
use crate::topology::cpumask::CpuMask;

pub use crate::sched::policy::{RT_PERIOD_NS, RT_RUNTIME_NS};
/// `RR_TIMESLICE`: 100 ms, counted in ticks (`sched_rr_timeslice`).
pub const RR_TIMESLICE_NS: u64 = 100_000_000;

#[derive(Clone, Debug)]
pub struct RtState {
    pub rqs: Vec<RtRq>,
    /// `rd->rto_mask`: the CPUs whose runqueue is overloaded.
    pub rto_mask: CpuMask,
    pub period_ns: u64,
    pub runtime_ns: u64,
    /// RT_RUNTIME_SHARE (on in 4.1, off in 6.12): a CPU out of runtime borrows from its neighbours.
    pub runtime_share: bool,
    /// Real-time bandwidth is enforced (4.1). Linux 6.12 built without CONFIG_RT_GROUP_SCHED, as Debian ships it,
    /// neither counts nor throttles (`update_curr_rt`, rt.c 989–1023): the fair server bounds real-time tasks.
    pub bandwidth: bool,
    /// The period timer is armed (`hrtimer_active`): it stops when a period finds no real-time work.
    pub timer_armed: bool,
    /// RR's slice in ticks.
    pub rr_timeslice: u32,
}

impl RtState {
    pub fn new(nr_cpus: usize, tick_ns: u64) -> RtState {
        RtState {
            rqs: vec![RtRq::new(RT_RUNTIME_NS); nr_cpus],
            rto_mask: CpuMask::new(),
            period_ns: RT_PERIOD_NS,
            runtime_ns: RT_RUNTIME_NS,
            runtime_share: true,
            bandwidth: true,
            timer_armed: false,
            rr_timeslice: RR_TIMESLICE_NS.div_ceil(tick_ns).max(1) as u32,
        }
    }
}
