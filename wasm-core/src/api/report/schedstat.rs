//! The run's schedstats in `/proc/schedstat` version 15 layout (Linux 4.1's
//! `show_schedstat`), so a simulated machine can be set beside a real one:
//!
//! ```text
//! version 15
//! timestamp <jiffies>
//! cpu<N> <yld_count> 0 <sched_count> <sched_goidle> <ttwu_count> <ttwu_local> <rq_cpu_time> <run_delay> <pcount>
//! domain<M> <span as a hex bitmap> <8 lb_* for idle> <8 for busy> <8 for newly idle> <alb_*, sbe_*, sbf_*, ttwu_*: 12>
//! ```
//!
//! The second number of a cpu line is the long-gone `sched_switch`, printed 0
//! by 4.1 too. Times are nanoseconds, as 4.1's sched_clock-based fields are.

use crate::sim::Simulator;
use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;
use crate::topology::schedstat::{RqSchedstat, SdSchedstat};
use serde::Serialize;
use std::fmt::Write;

pub const SCHEDSTAT_VERSION: u32 = 15;

/// `%*pb` of a cpumask over `nr_cpus` bits: hexadecimal, most significant
/// first, in comma-separated 32-bit chunks (all but the first zero-padded to 8
/// digits; the first as wide as the bits it holds).
pub fn cpumask_hex(mask: &CpuMask, nr_cpus: u32) -> String {
    let nr = nr_cpus.max(1);
    let chunks = nr.div_ceil(32);
    let mut out = String::new();
    for k in (0..chunks).rev() {
        let word: u32 = (0..32).filter(|b| mask.test(CpuId(k * 32 + b))).fold(0, |w, b| w | (1 << b));
        let bits = (nr - k * 32).min(32);
        let width = if k == chunks - 1 { bits.div_ceil(4) as usize } else { 8 };
        if k != chunks - 1 {
            out.push(',');
        }
        let _ = write!(out, "{word:0width$x}");
    }
    out
}

/// One domain of one CPU, as the report and the inspector carry it.
#[derive(Serialize, Debug, Clone)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct DomainSchedstat {
    /// The level's name (SMT, MC, NUMA…), lowest first.
    pub level: String,
    pub span: Vec<CpuId>,
    pub counters: SdSchedstat,
}

/// One CPU's counters and its domains'.
#[derive(Serialize, Debug, Clone)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct CpuSchedstat {
    pub cpu: CpuId,
    pub rq: RqSchedstat,
    pub domains: Vec<DomainSchedstat>,
}

/// Every CPU's schedstats at the simulation's cursor.
pub fn schedstats(sim: &Simulator) -> Vec<CpuSchedstat> {
    CpuId::all(sim.rqs().len() as u32).filter_map(|cpu| cpu_schedstat(sim, cpu)).collect()
}

/// One CPU's schedstats at the cursor (None past the last CPU): what the lab's
/// schedstat panel reads each frame, instead of every CPU's (at 1,024 CPUs
/// each domain lists its span, megabytes a report).
pub fn cpu_schedstat(sim: &Simulator, cpu: CpuId) -> Option<CpuSchedstat> {
    let rq = sim.rqs().get(cpu.idx())?;
    Some(CpuSchedstat {
        cpu: rq.cpu,
        rq: rq.schedstat,
        domains: rq
            .domains
            .iter()
            .map(|sd| DomainSchedstat { level: sd.name(), span: sd.span.iter().collect(), counters: sd.schedstat })
            .collect(),
    })
}

/// The text of `/proc/schedstat` (version 15) at the simulation's cursor. Offline CPUs are left out, as
/// `for_each_online_cpu` leaves them out.
pub fn proc_schedstat(sim: &Simulator) -> String {
    let nr = sim.rqs().len() as u32;
    let mut out = format!("version {SCHEDSTAT_VERSION}\ntimestamp {}\n", sim.jiffies());
    for rq in sim.rqs().iter().filter(|rq| rq.online) {
        let s = &rq.schedstat;
        let _ = writeln!(
            out,
            "cpu{} {} 0 {} {} {} {} {} {} {}",
            rq.cpu,
            s.yld_count,
            s.sched_count,
            s.sched_goidle,
            s.ttwu_count,
            s.ttwu_local,
            s.rq_cpu_time,
            s.run_delay,
            s.pcount
        );
        for (i, sd) in rq.domains.iter().enumerate() {
            let _ = write!(out, "domain{i} {}", cpumask_hex(&sd.span, nr));
            for lb in &sd.schedstat.lb {
                for v in lb.fields() {
                    let _ = write!(out, " {v}");
                }
            }
            for v in sd.schedstat.tail_fields() {
                let _ = write!(out, " {v}");
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_print_as_the_kernel_bitmap_format() {
        assert_eq!(cpumask_hex(&CpuMask::from_range(0..4), 4), "f");
        assert_eq!(cpumask_hex(&CpuMask::from_range(0..2), 4), "3");
        assert_eq!(cpumask_hex(&CpuMask::from_range(0..8), 8), "ff");
        assert_eq!(cpumask_hex(&CpuMask::from_range(8..16), 64), "00000000,0000ff00");
        assert_eq!(cpumask_hex(&CpuMask::from_range(0..64), 64), "ffffffff,ffffffff");
        assert_eq!(cpumask_hex(&CpuMask::from_range(32..40), 40), "ff,00000000");
        assert_eq!(cpumask_hex(&CpuMask::from_range(0..1), 1), "1");
    }
}
