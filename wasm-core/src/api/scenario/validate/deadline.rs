//! SCHED_DEADLINE's admission control, as 4.1 runs it when each task asks for
//! the policy (`dl_overflow`, core.c 2030–2066; `__dl_overflow`,
//! sched.h): the reservations' bandwidths (runtime / period, in 2^-20 units)
//! may add up to `sched_rt_runtime_us / sched_rt_period_us` (0.95) of each
//! CPU of the root domain. The processes ask in the file's order, each thread
//! in turn; the first that would overflow is refused with the sums. Under
//! 6.12 each CPU's fair server holds its 50 ms a second from boot
//! (`__dl_server_attach_root`, deadline.c 1885–1898, adds it to the root
//! domain's `total_bw`), so tasks have 90 % of each CPU left.

use crate::api::scenario::diagnostic::Checker;
use crate::config::Kernel;
use crate::sched::policy::{to_ratio, DlParams, BW_SHIFT, RT_PERIOD_NS, RT_RUNTIME_NS};
use crate::sim::dl::server::{FAIR_SERVER_PERIOD_NS, FAIR_SERVER_RUNTIME_NS};

/// Admits each deadline process's threads in order against `cpus` CPUs; refuses the first that overflows.
pub(super) fn admit(reservations: &[(String, u32, DlParams)], cpus: u32, kernel: Kernel, c: &mut Checker) {
    // def_dl_bandwidth's bw: the global real-time runtime over its period, per CPU.
    let cap = to_ratio(RT_PERIOD_NS, RT_RUNTIME_NS) * u64::from(cpus);
    let servers = match kernel {
        Kernel::Linux41 => 0,
        Kernel::Linux612 => to_ratio(FAIR_SERVER_PERIOD_NS, FAIR_SERVER_RUNTIME_NS) * u64::from(cpus),
    };
    let mut total = servers;
    for (at, threads, dl) in reservations {
        let bw = to_ratio(dl.period_ns, dl.runtime_ns);
        for k in 0..*threads {
            if total + bw > cap {
                let pct = |x: u64| x as f64 * 100.0 / f64::from(1u32 << BW_SHIFT);
                c.fail(
                    format!("{at}.sched_policy"),
                    format!(
                        "admission control refuses thread {k}: its bandwidth {:.1} % (runtime / period) on top of \
                         the {:.1} % admitted{} would pass {:.1} % ({cpus} CPUs × 95 %, sched_rt_runtime_us / \
                         sched_rt_period_us), as sched_setattr returns EBUSY",
                        pct(bw),
                        pct(total),
                        if servers > 0 { " (the fair servers' 5 % of each CPU included)" } else { "" },
                        pct(cap)
                    ),
                );
                return;
            }
            total += bw;
        }
    }
}
